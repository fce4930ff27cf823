//! What the page and the CLI say about a sampler on a target beyond its derived defaults: the
//! pairing warning, built from the target's curvature summary and the sampler's own reason. It
//! sits above the samplers (it asks SGLD for its warning), so that [`crate::defaults`], whose
//! criteria the samplers use, never imports a sampler.

use crate::curvature::Curvature;
use crate::model::Model;

/// What the page should say about a sampler on a target beyond its derived defaults: why the
/// defaults cannot meet the criteria of [`crate::defaults`], when no setting of the sampler can (the reason is the
/// target's: separated modes for every sampler; for SGLD e.g. Neal's funnel; for OSGFS a curvature
/// spread its averaged preconditioner runs on but cannot mix within the claim). None when the
/// defaults meet them.
pub fn pairing_warning(sampler: &str, model: &dyn Model) -> Option<String> {
    let curvature = Curvature::of(model)?;
    let own = match sampler {
        "sgld" => crate::sampler::sgld::warning(&curvature),
        "osgfs" => crate::sampler::osgfs::warning(&curvature),
        "lipsbps" => crate::bound_law::warning(model),
        _ => None,
    };
    let warnings: Vec<String> = [modes_warning(&curvature), own].into_iter().flatten().collect();
    (!warnings.is_empty()).then(|| warnings.join(" "))
}

/// Every sampler's warning on a target with separated modes. It says what can happen, not what
/// does: SBPS crosses both presets' valleys (sbps-hyperbola, sbps-multimodal) while SGLD beside it
/// stays in one mode, and the box beside SBPS said "a chain stays in the mode it starts in"
/// (issue 26, a false sentence on screen).
fn modes_warning(c: &Curvature) -> Option<String> {
    if c.modes.len() < 2 {
        return None;
    }
    let masses: Vec<String> = c.modes.iter().map(|m| format!("{:.0} %", 100.0 * m.mass)).collect();
    Some(format!(
        "This posterior has {} modes (holding {} of the mass) separated by valleys where the density falls more than {} nats below its peak: a chain can stay in the mode it starts in for far longer than the page runs, and its mean and covariance then describe that mode, not the whole posterior; the density image shows whether its samples reach every mode.",
        c.modes.len(),
        masses.join(", "),
        crate::curvature::MODE_VALLEY
    ))
}
