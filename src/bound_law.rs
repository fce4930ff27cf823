//! lipSBPS's bound law (issue 21; docs/diagnostics.md §16): exact thinning against the global
//! bound N·L (docs/bouncy.md (BPS.10)) proposes events at rate N·L + O(prior) per unit of path
//! time whatever the position, so the page's 5,000 events cover only about 5,000/(N·L) time units
//! of a path that, in law, is exact BPS's (DIAG.17). On the synthetic logistic regression that is
//! 1.5 time units, ≈ 10 crossings of the widest axis: no slider of lipSBPS changes it (the
//! minibatch size changes the acceptance test, not the bound; the refresh rate turns the velocity,
//! not the clock). The error after that path time is predicted from below by the crossing floor
//! of the refresh law ([`RefreshLaw::predict_crossing`], (DIAG.16)); where even the floor breaks
//! the promise the page says so beside the controls (a pairing warning) and names the event count
//! the floor needs, as a lower bound.

use crate::readable::percent_above;
use crate::defaults::{E2_CLAIM, REFERENCE_SAMPLES};
use crate::model::Model;
use crate::promise::FAILURE_SHARE;
use crate::readable::show;
use crate::refresh_law::RefreshLaw;

/// What the bound law predicts for lipSBPS on a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundPrediction {
    /// N·L: proposals per unit of path time (the prior's part averages out over the velocity).
    pub rate: f64,
    /// Path time covered by [`REFERENCE_SAMPLES`] events, 5,000/(N·L).
    pub time: f64,
    /// Crossings of the widest axis at the rms speed in that time, time·√m/σ_widest.
    pub crossings: f64,
    /// The crossing floor's mean E2 and share above [`E2_CLAIM`] after 5,000 events.
    pub mean_e2: f64,
    pub share: f64,
    /// Events the floor needs to keep the promise (a lower bound on what the chain needs).
    pub events_needed: f64,
}

/// None where lipSBPS does not run (no global bound, synthetic noise) or the target has no
/// Gaussian summary within the refresh law's dimensions.
pub fn predict(model: &dyn Model) -> Option<BoundPrediction> {
    if model.synthetic_noise_sd() != 0.0 {
        return None;
    }
    let rate = model.score_projection_bound()? * model.n_data() as f64;
    let law = RefreshLaw::new("lipsbps", model)?;
    let m = 1.0 / law.dim() as f64;
    let share_after = |events: f64| law.predict_crossing(m, events / rate).map(|(_, share)| share);
    let time = REFERENCE_SAMPLES / rate;
    let (mean_e2, share) = law.predict_crossing(m, time)?;
    // Smallest event count the floor accepts (the share falls with time).
    let keeps = |events: f64| share_after(events).is_some_and(|share| share <= FAILURE_SHARE);
    let events_needed = crate::defaults::smallest_where(REFERENCE_SAMPLES, 1e12, keeps).unwrap_or(1e12);
    let crossings = time * m.sqrt() / law.widest_sd();
    Some(BoundPrediction { rate, time, crossings, mean_e2, share, events_needed })
}

/// The pairing warning: lipSBPS's bound leaves too little path time in 5,000 events.
pub fn warning(model: &dyn Model) -> Option<String> {
    let p = predict(model)?;
    if p.share <= FAILURE_SHARE {
        return None;
    }
    // Rounded up to 3 significant figures, so the stated bound is never below the floor's.
    let scale = 10f64.powf(p.events_needed.log10().floor() - 2.0);
    let needed = (p.events_needed / scale).ceil() * scale;
    // The sources (docs/bouncy.md §9, docs/diagnostics.md §16) are in the docs, not the note.
    Some(format!(
        "lipSBPS tests every proposal against one global bound, N·L = {} per unit of path time, wherever the particle is: 5,000 events cover only {} time units, about {:.0} crossings of the widest axis, so E2 is above {E2_CLAIM} in at least {} % of runs (the promise: at most {:.0} %). No slider moves the bound: run to more than {} events, or pick BPS or SBPS.",
        show(p.rate),
        show(p.time),
        p.crossings,
        percent_above(p.share, FAILURE_SHARE),
        100.0 * FAILURE_SHARE,
        show(needed)
    ))
}
