//! The measured mixing signal where no law exists (issue 21, docs/diagnostics.md §8): on a 2-D
//! target without a Gaussian summary (banana, funnel, …), where src/promise.rs cannot predict the
//! error after 5,000 samples, the chain's own retained samples since the last slider move measure
//! it. Batch means (docs/diagnostics.md §3, the sample mean's standard error, applied to the products
//! (x_a − x̄_a)(x_b − x̄_b) whose means are the covariance entries) give the covariance of the
//! entries' Monte-Carlo error, scaled from the n samples measured to [`REFERENCE_SAMPLES`]; E2 is
//! drawn from that Gaussian error as in src/promise.rs (§7; bias taken as 0: a measured signal cannot
//! see it), and the setting is warned when more than [`FAILURE_SHARE`] of the draws exceed
//! [`E2_CLAIM`]. Measured from [`REFERENCE_SAMPLES`] samples on, so it speaks of what the run
//! has shown, not of a guess.
//!
//! Implemented here; tested in tests/toy_sweep.rs (40 seeds × 5,000 samples: warned settings fail,
//! silent ones keep the promise) and this file's unit tests (independent draws: no warning; a
//! chain stuck for whole batches: a warning).

use crate::defaults::{E2_CLAIM, REFERENCE_SAMPLES};
use crate::params::{ParamSpec, ParamValues};
use crate::promise::FAILURE_SHARE;
use crate::ring::RingBuffer;
use crate::setting_warning::{Failure, SettingWarning};
use nalgebra::DMatrix;

/// Most recent samples measured (4 × the reference: the estimate's cost stays within a frame).
pub const MAX_MEASURED: usize = 20_000;

/// Batches of the batch-means estimator (few enough that a batch spans many autocorrelation
/// times at 5,000 samples, enough for a covariance of the 3 entries of a 2-D target).
pub const BATCHES: usize = 20;

/// Mean E2 and share of runs above [`E2_CLAIM`] after [`REFERENCE_SAMPLES`] samples, measured from
/// the last `n` points of `samples` (None below [`REFERENCE_SAMPLES`] points or above 2-D).
pub fn measured_error(samples: &RingBuffer, n: usize) -> Option<(f64, f64)> {
    let (d, n) = (samples.dim(), n.min(samples.len()).min(MAX_MEASURED));
    if d > 2 || (n as f64) < REFERENCE_SAMPLES {
        return None;
    }
    let batch = n / BATCHES;
    let first = samples.len() - batch * BATCHES;
    let point = |k: usize| samples.get(first + k);
    let total = (batch * BATCHES) as f64;
    let mean: Vec<f64> = (0..d).map(|a| (0..batch * BATCHES).map(|k| point(k)[a]).sum::<f64>() / total).collect();
    let pairs: Vec<(usize, usize)> = (0..d).flat_map(|a| (a..d).map(move |b| (a, b))).collect();
    // Batch means of the centred products, one row per batch.
    let means = DMatrix::from_fn(BATCHES, pairs.len(), |k, i| {
        let (a, b) = pairs[i];
        (k * batch..(k + 1) * batch).map(|j| (point(j)[a] - mean[a]) * (point(j)[b] - mean[b])).sum::<f64>() / batch as f64
    });
    let entry = |i: usize| means.column(i).mean();
    // Cov of an entry's mean over n samples ≈ Cov(batch means)/B; at T samples scaled by n/T.
    let scale_to_reference = total / REFERENCE_SAMPLES;
    let cov = DMatrix::from_fn(pairs.len(), pairs.len(), |i, j| {
        let s: f64 = (0..BATCHES).map(|k| (means[(k, i)] - entry(i)) * (means[(k, j)] - entry(j))).sum();
        s / (BATCHES - 1) as f64 / BATCHES as f64 * scale_to_reference
    });
    let norm: f64 = pairs.iter().enumerate().map(|(i, &(a, b))| entry(i).abs() * if a == b { 1.0 } else { 2.0 }).sum();
    if norm <= 1e-20 * (1.0 + mean.iter().map(|m| m * m).sum::<f64>()) {
        // The chain has not moved: covariance 0, E2 = 1 whatever the truth (NaN: no spread to scale).
        return Some((f64::NAN, 1.0));
    }
    crate::promise::draw_e2(&DMatrix::zeros(d, d), &cov, &pairs, norm).ok()
}

/// The measured warning of a chain whose `samples_since_clear` last points are in `samples`.
pub fn measured_warning(samples: &RingBuffer, samples_since_clear: u64, specs: &'static [ParamSpec], params: &ParamValues) -> Option<SettingWarning> {
    let n = usize::try_from(samples_since_clear).unwrap_or(usize::MAX);
    let (mean_e2, share) = measured_error(samples, n)?;
    let param = specs.iter().find(|s| s.primary && s.visible_if.is_none_or(|w| w.holds(params))).map_or(specs[0].name, |s| s.name);
    if !mean_e2.is_finite() {
        // No spread at all: every proposal rejected, or steps too small to move (E2 = 1 against
        // any truth).
        let last = crate::promise::show(n.min(MAX_MEASURED) as f64);
        let text = format!("Change the step size: the chain does not move (its last {last} samples are one point, E2 = 1).");
        let detail = format!("Measured on this chain: its last {last} samples are all the same point, so its covariance is 0 (E2 = 1). The chain does not move at this setting: every proposal is rejected, or the steps are too small; change the step size.");
        return Some(SettingWarning { param, failure: Failure::Mixing, text, detail });
    }
    if share <= FAILURE_SHARE {
        return None;
    }
    // E2's Monte Carlo part falls as 1/√samples: the count that brings its mean to half the claim.
    let needed = REFERENCE_SAMPLES * (mean_e2 / (0.5 * E2_CLAIM)).powi(2);
    let show = crate::promise::show;
    let text = format!(
        "Let it run to about {} samples: measured here, E2 above {E2_CLAIM} in {:.0} % of runs of {} samples (at most {:.0} %).",
        show(needed),
        100.0 * share,
        show(REFERENCE_SAMPLES),
        100.0 * FAILURE_SHARE
    );
    let detail = format!(
        "Measured on this chain (no law predicts this target: its curvature varies too much for a Gaussian view): from its last {} samples, the covariance error E2 after {} samples is {} on average and above {E2_CLAIM} in {:.0} % of runs (the promise: at most {:.0} %). The chain mixes too slowly here for {} samples: let it run to about {} samples (the error falls as 1/√samples); any bias is not measured.",
        show(n.min(MAX_MEASURED) as f64),
        show(REFERENCE_SAMPLES),
        show(mean_e2),
        100.0 * share,
        100.0 * FAILURE_SHARE,
        show(REFERENCE_SAMPLES),
        show(needed)
    );
    Some(SettingWarning { param, failure: Failure::Mixing, text, detail })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{chain_rng, fill_standard_normal};

    fn ring(points: impl Iterator<Item = [f64; 2]>) -> (RingBuffer, usize) {
        let mut r = RingBuffer::new(2, 100_000);
        let mut n = 0;
        for p in points {
            r.push(&p);
            n += 1;
        }
        (r, n)
    }

    /// 10,000 independent N(0, I) draws: the entries' error after 5,000 samples is that of i.i.d.
    /// samples, sd √(2/5000) = 0.02 on each variance, E2 ≈ 0.02 ≪ 0.3: never warned.
    #[test]
    fn independent_draws_keep_the_promise() {
        let mut rng = chain_rng(3);
        let mut z = [0.0; 2];
        let (r, n) = ring((0..10_000).map(|_| {
            fill_standard_normal(&mut rng, &mut z);
            z
        }));
        let (mean, share) = measured_error(&r, n).unwrap();
        assert!(mean < 0.06 && share == 0.0, "{mean} {share}");
    }

    /// A chain that sits at one of 0, 1, 3 for 500 samples at a time (10,000 samples, 20 blocks
    /// of 7, 7 and 6, so each batch is one block): by hand, mean 1.25, Var x₀ = 1.4875, the batch
    /// means of (x₀ − 1.25)² have sd 1.181, so at 5,000 samples the variance's relative error has
    /// sd σ = 1.181·√(2/20)/1.4875 = 0.2633. x₁ = x₀/2 makes all three entries err alike, so
    /// E2 = σ|Z|: mean σ√(2/π) = 0.2101, share above 0.3 erfc(0.3/(σ√2)) = 0.2545 (> 10 %: warned).
    #[test]
    fn a_chain_stuck_for_whole_batches_is_warned() {
        let (r, n) = ring((0..10_000).map(|k| {
            let s = [0.0, 1.0, 3.0][(k / 500) % 3];
            [s, 0.5 * s]
        }));
        let (mean, share) = measured_error(&r, n).unwrap();
        // Monte Carlo error of the 2,000 draws: 4 sd.
        assert!((mean - 0.2101).abs() < 4.0 * 0.2633 * (1.0 - 2.0 / std::f64::consts::PI).sqrt() / 2000f64.sqrt(), "{mean}");
        assert!((share - 0.2545).abs() < 4.0 * (0.2545f64 * 0.7455 / 2000.0).sqrt(), "{share}");
        assert!(measured_warning(&r, n as u64, crate::sampler::sghmc::SPEC.params, &ParamValues::defaults(crate::sampler::sghmc::SPEC.params)).is_some_and(|w| w.text.contains("above 0.3 in 25 %") || w.text.contains("above 0.3 in 26 %") || w.text.contains("above 0.3 in 24 %")));
        assert!(measured_error(&r, 4_999).is_none(), "below 5,000 samples nothing is measured");
    }

    /// A chain that never moves (every proposal rejected): covariance 0, E2 = 1 against any
    /// truth; the batch means have nothing to scale by, and the warning says the chain is stuck.
    #[test]
    fn a_chain_that_never_moves_is_warned() {
        let (r, n) = ring((0..6_000).map(|_| [0.3, -1.0]));
        let spec = crate::sampler::hmc::SPEC.params;
        let w = measured_warning(&r, n as u64, spec, &ParamValues::defaults(spec)).expect("a stuck chain is warned");
        assert!(w.text.starts_with("Change the step size:") && w.text.contains("one point"), "{}", w.text);
        assert!(w.detail.contains("all the same point"), "{}", w.detail);
    }
}
