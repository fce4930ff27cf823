//! The single source of truth for targets, samplers and their parameters. The CLI's `list`, the
//! UI's dropdowns and sliders, and URL state all read [`TARGETS`] and [`SAMPLERS`].
//!
//! Adding a sampler or target = one file that defines a `SPEC`, plus one line below.

use crate::model;
use crate::params::{unknown_param, ParamSpec, ParamValues};
use crate::sampler;
pub use crate::spec::{refuse_data, BuildSampler, BuildTarget, SamplerKind, SamplerSpec, TargetKind, TargetSpec, Unread};

/// Every target, in the order the UI lists them.
pub const TARGETS: &[TargetSpec] = &[
    model::gaussian::SPEC,
    model::mixture::SPEC,
    model::banana::SPEC,
    model::hyperbola::SPEC,
    model::multimodal::SPEC,
    model::funnel::SPEC,
    model::logistic::SPEC,
    model::logreg_dd::SPEC,
    model::logreg_sgfs::SPEC,
    model::logreg_heldout::SPEC,
    model::linear::SPEC,
];

/// Every sampler, in the order the UI lists them.
pub const SAMPLERS: &[SamplerSpec] = &[
    sampler::sgld::SPEC,
    sampler::sgfs::SPEC_FULL,
    sampler::sgfs::SPEC_DIAG,
    sampler::sghmc::SPEC,
    sampler::osgfs::SPEC,
    sampler::mala::SPEC,
    sampler::hmc::SPEC,
    sampler::bps::SPEC,
    sampler::sbps::SPEC,
    sampler::psbps::SPEC,
    sampler::lipsbps::SPEC,
];

/// Look a target up by name; the error lists the allowed names.
pub fn target(name: &str) -> Result<&'static TargetSpec, String> {
    TARGETS.iter().find(|t| t.name == name).ok_or_else(|| {
        let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        format!("unknown target '{name}'; allowed: {}", names.join(", "))
    })
}

/// Look a sampler up by name; the error lists the allowed names.
pub fn sampler(name: &str) -> Result<&'static SamplerSpec, String> {
    SAMPLERS.iter().find(|s| s.name == name).ok_or_else(|| {
        let names: Vec<&str> = SAMPLERS.iter().map(|s| s.name).collect();
        format!("unknown sampler '{name}'; allowed: {}", names.join(", "))
    })
}

/// The parameters a bouncy sampler's analysis sweep varies (src/bouncy_sweep.rs `BouncyKnob::of`,
/// docs/bouncy.md §15): the page mirrors them above the analysis charts (www/parameters.js
/// `analysisKnob`, from `bouncy_swept` below). Tested against the sweep in tests/bouncy_sweep.rs.
pub fn bouncy_swept_params(sampler: &str) -> &'static [&'static str] {
    match sampler {
        "sbps" | "psbps" => &["batch_size", "band_k"],
        "lipsbps" => &["batch_size"],
        _ => &["refresh_rate"],
    }
}

/// The whole registry as JSON (what `sgviz list` prints and what the UI builds its controls from).
pub fn to_json() -> serde_json::Value {
    let sgais = serde_json::json!({ "params": crate::sgais::PARAMS, "targets": crate::sgais::models::EVIDENCE_TARGETS, "presets": crate::sgais::PRESETS, "ns_params": crate::sgais::nested::NESTED_PARAMS, "defaults_by_model": crate::sgais::model_defaults::defaults_by_model_json() });
    let limits = serde_json::json!({ "max_upload_bytes": crate::data::MAX_BYTES, "max_rows": crate::data::MAX_ROWS });
    // The knobs each bouncy sampler's analysis sweep varies (src/bouncy_sweep.rs), for the mirror sliders.
    let swept: serde_json::Map<String, serde_json::Value> =
        SAMPLERS.iter().filter(|s| s.kind == SamplerKind::Bouncy).map(|s| (s.name.to_string(), serde_json::json!(bouncy_swept_params(s.name)))).collect();
    serde_json::json!({ "targets": TARGETS, "samplers": SAMPLERS, "sgais": sgais, "limits": limits, "bouncy_swept": swept })
}

/// Refuse a setting of a target parameter the sampler never reads ([`SamplerSpec::unread`]): the
/// CLI's check (the page hides the slider instead, and a link drops it with a notice).
pub fn refuse_unread(sampler: &SamplerSpec, settings: &[(String, String)]) -> Result<(), String> {
    match settings.iter().find_map(|(name, _)| sampler.unread.iter().find(|u| u.param == name)) {
        Some(unread) => Err(format!("--set {}: sampler '{}' never reads it: {}; drop the setting or choose another sampler", unread.param, sampler.name, unread.why)),
        None => Ok(()),
    }
}

/// The lines `sgviz --help` adds after the usage: which sampler ignores which target parameter.
pub fn unread_help() -> String {
    SAMPLERS.iter().flat_map(|s| s.unread.iter().map(move |u| format!("  {} ignores {}: {}\n", s.name, u.param, u.why))).collect()
}

/// Split `name=value` settings between a target's and a sampler's parameter lists.
/// A name must belong to exactly one of them.
pub fn split_settings(
    target: &TargetSpec,
    sampler: &SamplerSpec,
    settings: &[(String, String)],
) -> Result<(ParamValues, ParamValues), String> {
    let mut target_values = ParamValues::defaults(target.params);
    let mut sampler_values = ParamValues::defaults(sampler.params);
    for (name, text) in settings {
        if let Some(spec) = sampler.params.iter().find(|s| s.name == name) {
            sampler_values.set(sampler.params, name, spec.parse(text)?)?;
        } else if let Some(spec) = target.params.iter().find(|s| s.name == name) {
            target_values.set(target.params, name, spec.parse(text)?)?;
        } else {
            let all: Vec<ParamSpec> = target.params.iter().chain(sampler.params).copied().collect();
            return Err(unknown_param(&all, name));
        }
    }
    Ok((target_values, sampler_values))
}
