//! Where no single slider keeps the promise (src/promise.rs), whether any setting of the sampler
//! does, searched jointly over every numeric slider that applies, and which other Langevin-type
//! sampler keeps it at its own derived defaults (issue 21; docs/diagnostics.md §15).
//!
//! The warning then says the true thing: "set these sliders together", or "no setting of this
//! sampler keeps the promise here: switch to that one". On a target where the law is approximate
//! a joint setting is named only when no other sampler keeps the promise at its derived defaults
//! (those are measured by the sweeps; a joint setting is the law's furthest extrapolation). SGFS-d on the correlated Gaussian toy is
//! the case that made it: its diagonal preconditioner leaves the long axis (1 − ρ)/(1 + ρ) times
//! slower than the short one, so a step small enough for the bias promise mixes too slowly for
//! 5,000 samples at every α and n (docs/sgfs-osgfs.md (SGFS.8)).
//!
//! Implemented here; tested in tests/sgfs_d_reach.rs (40 seeds × 5,000 samples at the search's
//! closest setting and at the named sampler's defaults) and tests/unit/promise_reach/tests.rs.

use crate::readable::percent_above;
use crate::params::{ParamSpec, ParamValues};
use crate::promise::{slider_span, Prediction, Predictor};
use crate::defaults::E2_CLAIM;
use crate::readable::show;
use crate::setting_warning::Failure;
use crate::spec::DerivedParam;

/// Predictions one joint search may make: points per slider are the largest k with
/// k^(sliders) ≤ JOINT_BUDGET (8 each for SGFS's three sliders, 3 for SGHMC's five).
pub const JOINT_BUDGET: usize = 512;

/// One setting of several sliders: (slider, value) pairs.
pub type Setting = Vec<(&'static ParamSpec, f64)>;

/// The joint search's result.
#[derive(Clone, Debug)]
pub enum Reach {
    /// A setting that keeps the promise, the one nearest the current values (in slider units).
    Kept(Setting),
    /// No setting searched keeps it; the closest within the bias promise (its predicted failure
    /// share) if any setting is within it.
    Never { closest: Option<(Setting, f64)> },
}

/// Search every numeric slider that applies at `params` jointly (slider ranges as the remedy
/// search's: the derived range, never into the shaded unstable end).
pub fn joint_reach(predictor: &Predictor, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam]) -> Reach {
    let sliders: Vec<(&'static ParamSpec, (f64, f64))> = specs
        .iter()
        .filter(|s| s.choices.is_empty() && s.visible_if.is_none_or(|w| w.holds(params)))
        .filter_map(|s| slider_span(s, derived, 1.0).map(|span| (s, span)))
        .collect();
    let per_slider = points_per_slider(sliders.len());
    let grid: Vec<(&'static ParamSpec, Vec<(f64, f64)>)> = sliders.iter().map(|&(s, span)| (s, slider_points(s, span, per_slider, params.get(s.name)))).collect();
    let outcome = |setting: &Setting| {
        let mut trial = params.clone();
        if setting.iter().any(|(s, v)| trial.set(specs, s.name, *v).is_err()) {
            return (Some(Failure::Bias), f64::NAN);
        }
        predictor.predict(&trial).map_or((Some(Failure::Bias), f64::NAN), |p| (p.failure(), p.failure_share))
    };
    // The grid's values do not depend on where the sliders are now, so its predictions depend only
    // on the target, the sampler, the spans and the sliders it does not move: computed once per
    // such key (a slider drag re-ranks them by distance only).
    thread_local! {
        static GRIDS: std::cell::RefCell<Vec<(Vec<u64>, Vec<(Option<Failure>, f64)>)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut key = predictor.key();
    key.extend(sliders.iter().flat_map(|(s, (lo, hi))| s.name.bytes().map(u64::from).chain([lo.to_bits(), hi.to_bits()])));
    key.extend(params.iter().filter(|(n, _)| !sliders.iter().any(|(s, _)| s.name == *n)).map(|(_, v)| v.to_bits()));
    let outcomes = crate::defaults::memoised(&GRIDS, key, || (0..grid_size(&grid)).map(|index| outcome(&setting_at(&grid, index).0)).collect());
    let mut kept: Option<(Setting, f64)> = None;
    let mut closest: Option<(Setting, f64)> = None;
    for (index, (failure, share)) in outcomes.into_iter().enumerate() {
        let (setting, distance) = setting_at(&grid, index);
        match failure {
            None if kept.as_ref().is_none_or(|(_, d)| distance < *d) => kept = Some((setting, distance)),
            Some(Failure::Mixing) if closest.as_ref().is_none_or(|(_, s)| share < *s) => closest = Some((setting, share)),
            _ => {}
        }
    }
    // A mixing failure's share, or infinity where the bias (or stability) fails.
    let share_of = |setting: &Setting| match outcome(setting) {
        (None, _) => 0.0,
        (Some(Failure::Mixing), share) => share,
        _ => f64::INFINITY,
    };
    match kept {
        Some((setting, _)) => Reach::Kept(back_to_current(setting, params, |s| outcome(s).0.is_none())),
        None => Reach::Never {
            closest: closest.map(|(setting, _)| {
                let refined = refine(setting, &grid, &share_of);
                let share = share_of(&refined);
                let setting = back_to_current(refined, params, |s| share_of(s) <= share);
                let share = share_of(&setting);
                (setting, share)
            }),
        },
    }
}

/// `setting` with each slider put back to its current value where `still` holds for the result
/// (a remedy then names only the sliders it must move).
fn back_to_current(mut setting: Setting, params: &ParamValues, still: impl Fn(&Setting) -> bool) -> Setting {
    for i in 0..setting.len() {
        let mut trial = setting.clone();
        trial[i].1 = params.get(trial[i].0.name);
        if trial[i].1 != setting[i].1 && still(&trial) {
            setting = trial;
        }
    }
    setting
}

/// The grid's closest setting refined slider by slider: [`REFINE_POINTS`] values between the grid
/// values either side of its own, the lowest `share_of` kept.
fn refine(mut setting: Setting, grid: &[(&'static ParamSpec, Vec<(f64, f64)>)], share_of: &impl Fn(&Setting) -> f64) -> Setting {
    for (i, (spec, points)) in grid.iter().enumerate() {
        let at = points.iter().position(|(v, _)| *v == setting[i].1).unwrap_or(0);
        let (lo, hi) = (points[at.saturating_sub(1)].0, points[(at + 1).min(points.len() - 1)].0);
        let mut best = (share_of(&setting), setting[i].1);
        for j in 0..=REFINE_POINTS {
            let t = j as f64 / REFINE_POINTS as f64;
            let x = if spec.log_scale && lo > 0.0 { lo * (hi / lo).powf(t) } else { lo + t * (hi - lo) };
            let x = if spec.integer { x.round() } else { x };
            let mut trial = setting.clone();
            trial[i].1 = x;
            let share = share_of(&trial);
            if share < best.0 {
                best = (share, x);
            }
        }
        setting[i].1 = best.1;
    }
    setting
}

/// Values tried per slider when refining the closest setting.
const REFINE_POINTS: usize = 16;

fn grid_size(grid: &[(&'static ParamSpec, Vec<(f64, f64)>)]) -> usize {
    grid.iter().map(|(_, p)| p.len()).product()
}

/// Where no single slider keeps the promise: the warning's opening (its remedy) and the sentence
/// the detail adds, and the slider the warning sits beside when the remedy moves one slider only.
pub struct JointRemedy {
    pub lead: String,
    pub reach: String,
    pub param: Option<&'static str>,
    /// The sampler to switch to, as the sentence that ends the warning, after its reason (review
    /// s44: "… here: switch to SGFS-f: biased: however long it runs …" read as if SGFS-f were the
    /// biased one).
    pub switch: Option<String>,
}

/// The closing sentence naming the sampler that keeps the promise at its own derived defaults.
fn switch_sentence(other: &str) -> String {
    format!(" Instead, switch to {other}: it keeps the promise at its own derived defaults.")
}

/// A joint setting as the warning's opening: "No single slider keeps the promise here; set
/// together a = 1, b = 2{suffix}", or, when the sliders it moves as shown are one slider, "Set
/// the κ slider to 0.0373 (now 0.01){suffix}" (review s42: "No single slider … set together
/// κ = 0.0373" named one slider while saying no single one works; the others' moves round away).
/// The one slider is named only where `keeps` (the promise's law) confirms it alone, the others
/// left where they are; otherwise every slider the setting moves is listed.
fn set_together(setting: &Setting, params: &ParamValues, suffix: &str, keeps: &dyn Fn(&Setting) -> bool) -> (String, Option<&'static str>) {
    let visible: Vec<&(&'static ParamSpec, f64)> = setting.iter().filter(|(s, v)| show(*v) != show(params.get(s.name))).collect();
    let alone = matches!(visible.as_slice(), [one] if keeps(&vec![**one]));
    let moved: Vec<&(&'static ParamSpec, f64)> = if alone { visible } else { setting.iter().filter(|(s, v)| *v != params.get(s.name)).collect() };
    match moved.as_slice() {
        [(spec, value)] if alone => (format!("Set {} {} to {} (now {}){suffix}", spec.label.to_lowercase(), spec.symbol, show(*value), show(params.get(spec.name))), Some(spec.name)),
        _ => (format!("No single slider keeps the promise here; set together {}{suffix}", moved.iter().map(|(s, v)| format!("{} = {}", s.symbol, show(*v))).collect::<Vec<_>>().join(", ")), None),
    }
}

/// The remedy where no single slider keeps the promise ([`JointRemedy`]): the sliders to set
/// together, or that no setting of this sampler keeps it (and `instead`, the sampler that does at
/// its defaults).
pub fn no_single_slider(predictor: &Predictor, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam], instead: &dyn Fn() -> Option<&'static str>, own: &dyn Fn() -> Option<ParamValues>) -> JointRemedy {
    let label = crate::registry::sampler(predictor.sampler()).map_or(predictor.sampler(), |s| s.label);
    // Only the sliders a setting moves (the others stay where they are).
    let show_setting = |setting: &Setting| setting.iter().filter(|(s, v)| *v != params.get(s.name)).map(|(s, v)| format!("{} = {}", s.symbol, show(*v))).collect::<Vec<_>>().join(", ");
    // A single slider's remedy keeps the page's "Set … to v (now u): " form; what the suffix says
    // goes to the detail.
    let keeps = |setting: &Setting| {
        let mut trial = params.clone();
        setting.iter().all(|(s, v)| trial.set(specs, s.name, *v).is_ok()) && predictor.predict(&trial).is_ok_and(|p| p.failure().is_none())
    };
    let together = |setting: &Setting, suffix: &str, reach: String| match set_together(setting, params, "", &keeps) {
        (lead, Some(param)) if !suffix.is_empty() => JointRemedy { lead, reach: format!("{reach} The value named is{suffix}."), param: Some(param), switch: None },
        (_, Some(_)) | (_, None) => {
            let (lead, param) = set_together(setting, params, suffix, &keeps);
            JointRemedy { lead, reach, param, switch: None }
        }
    };
    let none = |remedy: String, reach: String, switch: Option<String>| JointRemedy { lead: format!("No single slider keeps the promise here{remedy}"), reach, param: None, switch };
    match joint_reach(predictor, specs, params, derived) {
        Reach::Kept(setting) if predictor.exact() => together(&setting, "", String::new()),
        // Above MAX_STATE the law checks a setting's bias and its start (V2), not the Monte Carlo
        // error after 5,000 samples, so a joint setting it finds is not one it vouches for
        // (issue 21, s45: logreg_dd × SGFS-d named α = 3.25, n = 169, silent there and failing
        // in 39 of 40 runs; docs/diagnostics.md §7 s45 addendum).
        Reach::Kept(setting) if !predictor.predicts_mixing() => none(
            String::new(),
            format!(" The law puts {} within its bias and start checks, but at this many parameters it does not predict the Monte Carlo error after 5,000 samples, so it names no setting that keeps the promise.", show_setting(&setting)),
            instead().map(switch_sentence),
        ),
        // On an approximate law a joint setting is the law's extrapolation to a corner no
        // derivation and no sweep checks (digits × SGFS-d: the law's α = 3.35, n = 359 fails in
        // 12 of 40 runs, silently); another sampler's derived defaults are what the sweeps measure,
        // so where one keeps the promise it is named instead (docs/diagnostics.md §15).
        Reach::Kept(setting) => match instead() {
            Some(other) => none(
                String::new(),
                format!(" The law, approximate on this target, puts {} within the promise, but the sweeps measure derived defaults and single sliders, not settings of several sliders together; {other} keeps it at its own derived defaults.", show_setting(&setting)),
                Some(switch_sentence(other)),
            ),
            None => together(&setting, "", String::new()),
        },
        // The sampler's own derived defaults (as a fresh chain starts them, kept within the
        // promise) are a setting the coarse grid may have missed (issue 26: SGHMC at n = 10 said
        // "nor any setting of SGHMC" while its defaults, n = 30, keep the promise).
        Reach::Never { .. } if own_defaults_keep(predictor, specs, params, own).is_some() => {
            let setting = own_defaults_keep(predictor, specs, params, own).unwrap_or_default();
            together(&setting, " (its own defaults on this target)", String::new())
        }
        Reach::Never { closest } => {
            let switch = instead().map(switch_sentence);
            let searched = specs.iter().filter(|s| s.choices.is_empty() && s.visible_if.is_none_or(|w| w.holds(params))).map(|s| s.symbol).collect::<Vec<_>>().join(", ");
            let best = closest.map_or(String::new(), |(setting, share)| {
                let at = match show_setting(&setting) {
                    moved if moved.is_empty() => "the current setting".to_string(),
                    moved => moved,
                };
                format!("; the closest it found within the bias promise, {at}, still has E2 above {E2_CLAIM} in {} % of runs", percent_above(share, crate::promise::FAILURE_SHARE))
            });
            let other = instead().map_or(String::new(), |other| format!(" {other} keeps it at its own derived defaults."));
            none(format!(", nor any setting of {label}"), format!(" A joint search over {searched} finds no setting of {label} that keeps the promise on this target{best}.{other}"), switch)
        }
    }
}

/// The sliders that must move from `params` to the sampler's own derived defaults (`own`: as a
/// fresh chain on this target starts them, [`defaults_that_keep`]) for the promise to be kept,
/// if moving every numeric slider that applies to its default keeps it (the others put back
/// where that still holds).
fn own_defaults_keep(predictor: &Predictor, specs: &'static [ParamSpec], params: &ParamValues, own: &dyn Fn() -> Option<ParamValues>) -> Option<Setting> {
    let defaults = own()?;
    let setting: Setting = specs.iter().filter(|s| s.choices.is_empty() && s.visible_if.is_none_or(|w| w.holds(params))).filter_map(|s| defaults.try_get(s.name).map(|v| (s, v))).collect();
    let keeps = |setting: &Setting| {
        let mut trial = params.clone();
        setting.iter().all(|(s, v)| trial.set(specs, s.name, *v).is_ok()) && predictor.predict(&trial).is_ok_and(|p| p.failure().is_none())
    };
    if !keeps(&setting) {
        return None;
    }
    let setting = back_to_current(setting, params, keeps);
    setting.iter().any(|(s, v)| *v != params.get(s.name)).then_some(setting)
}

/// Points per slider for `sliders` sliders within [`JOINT_BUDGET`] (at least 2: both ends).
fn points_per_slider(sliders: usize) -> usize {
    (2..=JOINT_BUDGET).take_while(|k| k.checked_pow(sliders as u32).is_some_and(|n| n <= JOINT_BUDGET)).last().unwrap_or(2)
}

/// `k` values spread over [lo, hi] as the slider spreads them (log for log sliders, whole numbers
/// for integer ones), each with its distance from `now` in slider units (the range's fraction).
fn slider_points(spec: &ParamSpec, (lo, hi): (f64, f64), k: usize, now: f64) -> Vec<(f64, f64)> {
    let log = spec.log_scale && lo > 0.0;
    let position = |x: f64| if log { (x / lo).ln() / (hi / lo).ln() } else { (x - lo) / (hi - lo) };
    let mut points: Vec<(f64, f64)> = (0..k)
        .map(|i| {
            let t = i as f64 / (k - 1) as f64;
            let x = if log { lo * (hi / lo).powf(t) } else { lo + t * (hi - lo) };
            let x = if spec.integer { x.round() } else { x };
            (x, (position(x) - position(now)).abs())
        })
        .collect();
    points.dedup_by(|a, b| a.0 == b.0);
    points
}

/// The grid's `index`-th setting (mixed radix over the axes) and its L1 distance from now.
fn setting_at(grid: &[(&'static ParamSpec, Vec<(f64, f64)>)], mut index: usize) -> (Setting, f64) {
    let mut setting = Vec::with_capacity(grid.len());
    let mut distance = 0.0;
    for (spec, points) in grid {
        let (value, d) = points[index % points.len()];
        index /= points.len();
        setting.push((*spec, value));
        distance += d;
    }
    (setting, distance)
}

/// The Langevin-type samplers in the order a "no setting" warning considers them: SGFS-f first
/// (SGFS-d's own algorithm with the full matrix), then the simplest.
pub const SWITCH_ORDER: [&str; 5] = ["sgfs_f", "sgld", "osgfs", "sghmc", "sgfs_d"];

/// The first other Langevin-type sampler (in [`SWITCH_ORDER`]) that runs on `model` without a
/// pairing warning and whose derived defaults, as a chain would start them (src/promise.rs
/// src/promise_live.rs `LivePromise::new`), keep the promise by its law: the sampler a "no setting" warning names.
pub fn sampler_that_keeps(own: &str, model: &dyn crate::model::Model) -> Option<&'static str> {
    SWITCH_ORDER.iter().filter(|s| **s != own).find_map(|name| {
        if crate::pairing::pairing_warning(name, model).is_some() {
            return None;
        }
        defaults_that_keep(name, model).and_then(|_| crate::registry::sampler(name).ok()).map(|spec| spec.label)
    })
}

/// The derived defaults of sampler `name` on `model` as a chain starts them (src/promise.rs,
/// src/promise_live.rs `LivePromise::new`: none set by the user), if by its law they keep the
/// promise and the sampler runs there.
pub fn defaults_that_keep(name: &str, model: &dyn crate::model::Model) -> Option<ParamValues> {
    let spec = crate::registry::sampler(name).ok()?;
    let predictor = Predictor::new(name, model)?;
    if !predictor.predicts_mixing() {
        return None;
    }
    let mut params = ParamValues::defaults(spec.params);
    let mut derived = (spec.derive)(model, &params);
    for d in &derived {
        params.set(spec.params, d.name, d.default).ok()?;
    }
    crate::promise::keep_promise_at_defaults(&predictor, spec, &mut params, &mut derived, &|_: &str| false);
    let keeps = predictor.predict(&params).is_ok_and(|p: Prediction| p.failure().is_none());
    let runs = (spec.build)(&params, model, &model.initial_point()).unsupported_reason().is_none();
    (keeps && runs).then_some(params)
}
