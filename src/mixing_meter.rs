//! The measured mixing signal where no law exists (issue 21, docs/diagnostics.md §8): wherever
//! src/promise.rs cannot predict the error after 5,000 samples — MALA, HMC and the bouncy family on
//! every target (they have no bias law: their promise is Monte-Carlo error only), the Langevin-type
//! samplers on targets without a Gaussian summary (banana, funnel, …) or with a state beyond the
//! error law's size — the chain's own retained samples since the last slider move measure it.
//! Batch means (docs/diagnostics.md §3, the sample mean's standard error, applied to the products
//! (x_a − x̄_a)(x_b − x̄_b) whose means are the covariance entries) give the covariance of the
//! entries' Monte-Carlo error, scaled from the n samples measured to [`REFERENCE_SAMPLES`]; E2 is
//! drawn from that Gaussian error as in src/promise.rs (§7; bias taken as 0: a measured signal cannot
//! see it), and the setting is warned when more than [`FAILURE_SHARE`] of the draws exceed
//! [`E2_CLAIM`] even at the error covariance's 90 % lower confidence bound ([`LOWER_BOUND_FACTOR`],
//! docs/diagnostics.md (DIAG.10): the signal's own spread). Measured from [`REFERENCE_SAMPLES`]
//! samples on (events for the bouncy family, src/chain/promise_count.rs), so it speaks of what
//! the run has shown, not of a guess; before that, from [`EARLY_SAMPLES`] on, only what the run already
//! shows for certain: a chain whose retained samples are all one point (every Metropolis–Hastings
//! proposal rejected) does not move.
//!
//! The warning sits beside the slider moved off its derived default (the one that caused it), and
//! names that default as the value to set; at the defaults it sits beside the first primary slider
//! and says how many samples would keep the promise.
//!
//! Implemented here; tested in tests/toy_sweep.rs and tests/toy_sweep_more.rs (40 seeds × 5,000
//! samples: warned settings fail, silent ones keep the promise) and this file's unit tests
//! (independent draws: no warning; a chain stuck for whole batches: a warning; a chain that never
//! moves: warned from [`EARLY_SAMPLES`] samples).

use crate::readable::percent_above;
use crate::defaults::{E2_CLAIM, REFERENCE_SAMPLES};
use crate::params::{ParamSpec, ParamValues};
use crate::promise::FAILURE_SHARE;
use crate::ring::RingBuffer;
use crate::setting_warning::{Failure, SettingWarning};
use crate::spec::DerivedParam;
use nalgebra::DMatrix;

/// Most recent samples measured (4 × the reference: the estimate's cost stays within a frame).
pub const MAX_MEASURED: usize = 20_000;

/// Largest dimension measured. Its d(d + 1)/2 covariance entries (231 at d = 21) get their error
/// covariance from [`BATCHES`] batch means: rank at most 19, drawn from exactly through its root,
/// the centred batch means themselves ([`batch_root`], 20 normals a draw). A read costs about
/// d²/2·[`MAX_MEASURED`] products plus 2 × 2,000 draws of d²/2 × 20 (docs/diagnostics.md §7,
/// "s48"; 32 is a cap on that cost, not timed: ≈ 10⁷ products at d = 32).
pub const MAX_DIM: usize = 32;

/// Up to this dimension the error covariance is formed and drawn from by its eigen-root, as
/// measured by every sweep before s48 (the same draws, bit for bit); above it, by the batch root.
pub const FULL_ROOT_DIM: usize = 6;

/// Samples since the last slider move from which a chain that has not moved is warned.
pub const EARLY_SAMPLES: usize = 500;

/// Batches of the batch-means estimator (few enough that a batch spans many autocorrelation
/// times at 5,000 samples, enough for a covariance of the 3 entries of a 2-D target).
pub const BATCHES: usize = 20;

/// The signal's own Monte-Carlo spread (docs/diagnostics.md §8, "the threshold"): the error
/// covariance estimated from [`BATCHES`] batch means is, for Gaussian batch means, Σ·χ²_{B−1}/(B−1)
/// along each direction. The warning asserts "more than [`FAILURE_SHARE`] of runs fail", so it
/// fires only when the share is above it at the covariance's one-sided 90 % lower confidence
/// bound, Σ̂·(B − 1)/χ²_{B−1, 0.90}: a setting exactly at the line is then warned in at most 10 % of
/// runs — the share of failing runs the promise itself allows — and fewer where several directions
/// share the error (their sum has more degrees of freedom). χ²_{19, 0.90} = 27.2036 (tables;
/// checked by this file's tests against the χ² density integrated numerically).
pub const CHI2_19_UPPER_10: f64 = 27.2036;

/// The factor (B − 1)/χ²_{B−1, 0.90} that takes the estimated error covariance to its lower bound.
pub const LOWER_BOUND_FACTOR: f64 = (BATCHES - 1) as f64 / CHI2_19_UPPER_10;

/// Fewest points the batch means are taken over (2 per batch). A bouncy chain that moves slowly
/// draws few points per event (lipSBPS on the logistic regression: ≈ 315 points in 5,000 events);
/// batches of a few points, strongly autocorrelated, underestimate the error, so a warning from
/// them errs towards silence, never towards a false alarm.
const MIN_POINTS: usize = 2 * BATCHES;

/// What the signal measured: E2 after [`REFERENCE_SAMPLES`] (samples, or events for the bouncy
/// family) as the batch means estimate it — its mean and share above [`E2_CLAIM`] — and the share
/// at the 90 % lower bound of the error covariance ([`LOWER_BOUND_FACTOR`]), which decides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub mean_e2: f64,
    pub share: f64,
    pub lower_share: f64,
}

/// E2 after [`REFERENCE_SAMPLES`] promise units (samples; events for the bouncy family), measured
/// from the last `n` recorded points of `samples` (the points since the last slider move), each
/// worth `units_per_point` promise units (1 for a discrete-time sampler; events per path point for
/// the bouncy family, whose points are the path drawn at equal times). None before `n` points are
/// worth [`REFERENCE_SAMPLES`] units, with fewer than [`MIN_POINTS`] points, or above [`MAX_DIM`].
/// Every point since the move is measured while the ring holds it, thinned to at most
/// [`MAX_MEASURED`] (the estimate's cost stays within a frame): the batches span the whole run
/// the promise speaks of, not only its end (docs/diagnostics.md §8).
pub fn measured_error(samples: &RingBuffer, n: usize, units_per_point: f64) -> Option<Measured> {
    let (d, window) = (samples.dim(), n.min(samples.len()));
    if d > MAX_DIM || (n as f64) * units_per_point < REFERENCE_SAMPLES || window < MIN_POINTS {
        return None;
    }
    let stride = window.div_ceil(MAX_MEASURED);
    let batch = window / stride / BATCHES;
    let used = batch * BATCHES;
    let first = samples.len() - used * stride;
    let point = |k: usize| samples.get(first + k * stride);
    let total = used as f64;
    let mean: Vec<f64> = (0..d).map(|a| (0..used).map(|k| point(k)[a]).sum::<f64>() / total).collect();
    let pairs: Vec<(usize, usize)> = (0..d).flat_map(|a| (a..d).map(move |b| (a, b))).collect();
    // Batch means of the centred products, one row per batch.
    let means = DMatrix::from_fn(BATCHES, pairs.len(), |k, i| {
        let (a, b) = pairs[i];
        (k * batch..(k + 1) * batch).map(|j| (point(j)[a] - mean[a]) * (point(j)[b] - mean[b])).sum::<f64>() / batch as f64
    });
    let entry = |i: usize| means.column(i).mean();
    // Cov of an entry's mean over the window ≈ Cov(batch means)/B; after the reference count,
    // scaled by (units the window spans)/reference.
    let scale_to_reference = (used * stride) as f64 * units_per_point.max(0.0) / REFERENCE_SAMPLES;
    let norm: f64 = pairs.iter().enumerate().map(|(i, &(a, b))| entry(i).abs() * if a == b { 1.0 } else { 2.0 }).sum();
    if norm <= 1e-20 * (1.0 + mean.iter().map(|m| m * m).sum::<f64>()) {
        // The chain has not moved: covariance 0, E2 = 1 whatever the truth (NaN: no spread to scale).
        return Some(Measured { mean_e2: f64::NAN, share: 1.0, lower_share: 1.0 });
    }
    let zero = DMatrix::zeros(d, d);
    if d > FULL_ROOT_DIM {
        let root = batch_root(&means, scale_to_reference);
        if root.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let (mean_e2, share) = crate::promise::draw_e2_from_root(&zero, &root, &pairs, norm);
        let (_, lower_share) = crate::promise::draw_e2_from_root(&zero, &(root * LOWER_BOUND_FACTOR.sqrt()), &pairs, norm);
        return Some(Measured { mean_e2, share, lower_share });
    }
    let cov = DMatrix::from_fn(pairs.len(), pairs.len(), |i, j| {
        let s: f64 = (0..BATCHES).map(|k| (means[(k, i)] - entry(i)) * (means[(k, j)] - entry(j))).sum();
        s / (BATCHES - 1) as f64 / BATCHES as f64 * scale_to_reference
    });
    let (mean_e2, share) = crate::promise::draw_e2(&zero, &cov, &pairs, norm).ok()?;
    let (_, lower_share) = crate::promise::draw_e2(&zero, &(cov * LOWER_BOUND_FACTOR), &pairs, norm).ok()?;
    Some(Measured { mean_e2, share, lower_share })
}

/// R with RRᵀ the batch-means error covariance (Cov(batch means)/B × `scale`): column k is batch
/// k's centred means × √(scale/((B − 1)·B)). `means` holds one row per batch, one column per entry.
pub fn batch_root(means: &DMatrix<f64>, scale: f64) -> DMatrix<f64> {
    let b = means.nrows();
    let factor = (scale / ((b - 1) * b) as f64).sqrt();
    DMatrix::from_fn(means.ncols(), b, |i, k| (means[(k, i)] - means.column(i).mean()) * factor)
}

/// Whether the last `n` (at least [`EARLY_SAMPLES`]) points of `samples` are all one point.
fn stuck(samples: &RingBuffer, n: usize) -> bool {
    let n = n.min(samples.len()).min(MAX_MEASURED);
    if n < EARLY_SAMPLES {
        return false;
    }
    let last = samples.get(samples.len() - 1);
    (samples.len() - n..samples.len()).all(|k| samples.get(k) == last)
}

/// The slider the warning sits beside and its derived default: the first numeric slider that
/// applies and was moved off its default, else the first primary one (default None: nothing moved).
pub fn culprit(specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam]) -> (&'static ParamSpec, Option<f64>) {
    let applies = |s: &&'static ParamSpec| s.choices.is_empty() && s.visible_if.is_none_or(|w| w.holds(params));
    let default = |s: &ParamSpec| derived.iter().find(|d| d.name == s.name).map_or(s.default, |d| d.default);
    let moved = specs.iter().filter(applies).find(|s| params.try_get(s.name).is_some_and(|v| (v - default(s)).abs() > 1e-9 * default(s).abs().max(1e-300)));
    match moved {
        Some(s) => (s, Some(default(s))),
        None => (specs.iter().filter(applies).find(|s| s.primary).unwrap_or(&specs[0]), None),
    }
}

/// The measured warning of a chain whose `samples_since_clear` last points are in `samples`.
/// `remedy`, where given, is what the warning opens with instead of sending the moved slider back
/// to its derived default: a set-back remedy must keep the promise, and where a law or a
/// measurement says the default fails too the caller names what works (src/chain/promise_count.rs).
/// It is put in whole, whatever it contains, and the detail names it too.
pub fn measured_warning(samples: &RingBuffer, samples_since_clear: u64, units_per_point: f64, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam], remedy: Option<String>) -> Option<SettingWarning> {
    let n = usize::try_from(samples_since_clear).unwrap_or(usize::MAX);
    let (spec, default) = culprit(specs, params, derived);
    let param = spec.name;
    let show = crate::promise::show;
    let instead = remedy.is_some();
    let set_back = remedy.or_else(|| default.map(|v| format!("Set {} {} back to {} (now {})", spec.label.to_lowercase(), spec.symbol, show(v), show(params.get(param)))));
    let does_not_move = || {
        // No spread at all: every proposal rejected, or steps too small to move (E2 = 1 against
        // any truth).
        let last = show(n.min(samples.len()).min(MAX_MEASURED) as f64);
        let remedy = set_back.clone().unwrap_or_else(|| "Change the step size".to_string());
        let text = format!("{remedy}: the chain does not move (its last {last} samples are one point, E2 = 1).");
        let detail = format!("Measured on this chain: its last {last} samples are all the same point, so its covariance is 0 (E2 = 1). The chain does not move at this setting: every proposal is rejected, or the steps are too small; change the step size.");
        Some(SettingWarning { param, failure: Failure::Mixing, text, detail })
    };
    if stuck(samples, n) {
        return does_not_move();
    }
    let Measured { mean_e2, share, lower_share } = measured_error(samples, n, units_per_point)?;
    if !mean_e2.is_finite() {
        return does_not_move();
    }
    if lower_share <= FAILURE_SHARE {
        return None;
    }
    // E2's Monte Carlo part falls as 1/√samples: the count that brings its mean to half the claim.
    let needed = REFERENCE_SAMPLES * (mean_e2 / (0.5 * E2_CLAIM)).powi(2);
    // The bouncy family's unit is the event (the path's points are many per event).
    let unit = if units_per_point == 1.0 { "samples" } else { "events" };
    // A run already past that count is not told to run to it (issue 26: "Let it run to about
    // 53,600 events" at 240,000), nor that it is past what it needs: the count is the 1/√samples
    // projection of the error this run measures, and a run past it that still fails refutes it
    // (sbps-hyperbola: "past the about 102,000 it needs" at 240,000 events with E2 0.948 against
    // the truth; on separated modes the windows see one mode at a time). It is told only what
    // is measured: runs of 5,000 are too short.
    let have = samples_since_clear as f64 * units_per_point;
    let past = have >= needed;
    let run_on = || if past { format!("Runs of {} {unit} are too short here", show(REFERENCE_SAMPLES)) } else { format!("Let it run to about {} {unit}", show(needed)) };
    let refuted = format!("this run ({} {unit}) is already past the {} that a 1/√samples fall of the error projects, so here it falls more slowly (regions or modes the chain visits rarely) and no count is promised", show(have), show(needed));
    let remedy = set_back.clone().unwrap_or_else(run_on);
    let text = format!(
        // (The promise's "at most 10 %" is in the detail: the short text stays within two lines
        // beside the slider with the longer remedies, e.g. "Choose HMC (exact) in the Sampler menu".)
        "{remedy}: measured here, E2 above {E2_CLAIM} in at least {} % of runs of {} {unit}.",
        percent_above(lower_share, FAILURE_SHARE),
        show(REFERENCE_SAMPLES),
    );
    let detail = format!(
        "Measured on this chain (no law predicts its error after {} {unit} here): from its last {} samples, the covariance error E2 after {} {unit} is {} on average and above {E2_CLAIM} in {} % of runs, at least {} % at the estimate's 90 % lower confidence bound (the promise: at most {:.0} %). The chain mixes too slowly here for {} {unit}: {}; any bias is not measured.",
        show(REFERENCE_SAMPLES),
        show(n.min(MAX_MEASURED) as f64),
        show(REFERENCE_SAMPLES),
        show(mean_e2),
        percent_above(share, FAILURE_SHARE),
        percent_above(lower_share, FAILURE_SHARE),
        100.0 * FAILURE_SHARE,
        show(REFERENCE_SAMPLES),
        match default {
            _ if instead => format!("{}, or let it run to more than {} {unit} (the error falls as 1/√samples where the chain explores the whole target)", lower_first(set_back.as_deref().unwrap_or_default()), show(needed)),
            Some(v) if past => format!("set {} back to its derived default {}; {refuted}", spec.symbol, show(v)),
            None if past => refuted,
            Some(v) => format!("set {} back to its derived default {}, or let it run to about {} {unit} (the error falls as 1/√samples)", spec.symbol, show(v), show(needed)),
            None => format!("let it run to about {} {unit} (the error falls as 1/√samples)", show(needed)),
        }
    );
    Some(SettingWarning { param, failure: Failure::Mixing, text, detail })
}

/// `text` with its first letter in lower case (a remedy quoted inside a sentence).
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}
