//! Is the replicas' agreement check calibrated (issue 22; docs/sgais.md §15, "Is the flag true")?
//! The check (src/sgais/agreement.rs) divides the replicas' spread of log Ẑ by the variance each
//! run's weights predict (`ChunkRecord::log_z_var`, Σ over resampling epochs of 1/ESS − 1/M) and
//! flags (R − 1)s²/σ̄² above χ²_{R−1}'s 99 % point. That is only a test of disagreement if σ̄² is the
//! replicas' real error. Here it is measured against the real error over many seeds, at the class
//! preset's sizes (N = 1,500 or 1,000 in chunks and minibatches of 500), each target resolved as
//! the page and the CLI resolve it (`sgviz::sgais::job::resolve`).
//!
//! Oracle, none from the code under test: S independent seeds of one run give S draws of log Ẑ;
//! if the predicted variance is the real one, (S − 1)s²/σ̄² is χ²_{S−1}, whose 99.5 % points are
//! written here (from tables, re-computed from the regularised incomplete gamma).
//!
//! Measured (examples/replica_calibration.rs, seeds 1–80 / 1–400): on the one-component mixture
//! (exact evidence, docs/sgais.md §8) the seeds' sd of log Ẑ is 0.94–1.06 of the predicted one at
//! n = 500, 1,000, 1,500, and groups of four were flagged 1 time in 20 (nominal 1 %): calibrated.
//! On linear regression (exact evidence, (TRUTH.5)) it is 1.36, 1.41 and 1.44 of the predicted,
//! and 10–11 groups of 100 are flagged (nominal 1): the weights' variance is not the replicas'
//! error there, so the flag is wrong ten times as often as it says. `KNOWN_LINREG_UNDERSTATED`
//! records that; the test fails once a fix makes linear regression's prediction calibrated.

use sgviz::sgais::job::resolve;
use sgviz::sgais::run::{RunStatus, SgaisRun};

/// χ²₃₉'s 99.5 % point (40 seeds).
const CHI2_39_UPPER: f64 = 65.476;
/// χ²₉₉'s 99.5 % point (100 seeds).
const CHI2_99_UPPER: f64 = 138.987;

/// The weights' variance understates linear regression's replica error (measured: sd ratio
/// 1.36–1.44 over 400 seeds); false once the predicted variance is calibrated there. Stop 46 tried
/// two variances that count resampled copies (Lee & Whiteley's Eve estimator: ratio 2.12; families
/// of a common ancestor 1–3 resamplings back: 1.35–1.39, seeds 1–100 at n = 1,500; docs/sgais.md
/// §15, "A variance that counts the copies"): neither calibrates it, so this stays true.
/// Stop 47 found no run-dependent lag behind it (examples/lag_probe.rs: the weighted particles sit
/// at the exact annealed targets, |corr| of their offset with the error ≤ 0.21 over 100 seeds) but a
/// persistence of the moves (ρ ≈ 0.45 per temperature at S = 10, ≈ 0 at S = 50 and on the K = 1
/// mixture; docs/sgais.md §15, "Do the particles lag"), not yet turned into a variance.
/// Stop 48 counted the epochs' covariance through each particle's ancestors
/// (src/sgais/epoch_covariance.rs): ratio 1.46 → 1.23 over 200 seeds, still not calibrated, not used.
/// Stop 49 added the covariance between copies of one parent within an epoch (`Ancestry::sibling_term`):
/// with lag 1, 1.19 at n = 1,500 over the same seeds (docs/sgais.md §15, "stop 49"): not used either.
/// Stop 50 gave resampled particles fresh velocities: no ratio below 1.16, and Ẑ biased upward
/// (docs/sgais.md §15, "Fresh velocities at resampling"); reverted, so this stays true.
const KNOWN_LINREG_UNDERSTATED: bool = true;

/// Final (log Ẑ, predicted variance, exact log Z or NaN) of `seeds` runs of `target` with `settings`.
fn final_estimates(target: &str, settings: &[(&str, &str)], seeds: std::ops::RangeInclusive<u64>) -> Vec<(f64, f64, f64)> {
    let settings: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    seeds
        .map(|seed| {
            let resolved = resolve(target, None, &settings, None).unwrap();
            let n = resolved.model.n_data();
            let mut run = SgaisRun::new(resolved.model, resolved.config, n, seed);
            let last = run.run_to_end().last().cloned().expect("a chunk");
            assert_eq!(*run.status(), RunStatus::Finished);
            (last.log_z, last.log_z_var, last.exact_log_z.unwrap_or(f64::NAN))
        })
        .collect()
}

/// (S − 1)s²/σ̄²: the seeds' spread against the mean predicted variance, and a line with both sds.
fn spread_statistic(runs: &[(f64, f64, f64)]) -> (f64, String) {
    let s = runs.len() as f64;
    let mean = runs.iter().map(|r| r.0).sum::<f64>() / s;
    let spread = runs.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / (s - 1.0);
    let predicted = runs.iter().map(|r| r.1).sum::<f64>() / s;
    let statistic = (s - 1.0) * spread / predicted;
    (statistic, format!("{} seeds: sd of log Ẑ {:.3}, predicted sd {:.3}, (S − 1)s²/σ̄² = {statistic:.1}", runs.len(), spread.sqrt(), predicted.sqrt()))
}

/// On the one-component mixture the weights' variance does not understate the replicas' error, so
/// the flag does not fire above its nominal rate: 40 seeds' spread at most χ²₃₉'s 99.5 % point.
/// One-sided, as the flag's false alarms are the question: the spread's left tail (a seed 0.9 nats
/// low in 80) makes the lower side noisy at 40 seeds, which read 21.1 (sd 0.242 against 0.329
/// predicted; χ²₃₉'s 0.5 % point is 20.0), where seeds 1–80 give 0.310 against 0.328. With the
/// resampled epochs' variance left out of `log_z_var` (src/sgais/run.rs `systematic_resample`) it
/// reads predicted sd 0.000, statistic ∞, and fails.
#[test]
fn on_the_one_component_mixture_the_predicted_variance_covers_the_replicas_error() {
    let settings = [("n_points", "1500"), ("n_components", "1"), ("chunk_size", "500"), ("batch_size", "500")];
    let (statistic, line) = spread_statistic(&final_estimates("gmm", &settings, 1..=40));
    println!("K = 1 mixture, N = 1,500: {line}");
    assert!(statistic <= CHI2_39_UPPER, "{line}: above χ²₃₉'s 99.5 % point {CHI2_39_UPPER}: the weights understate the error");
}

/// On linear regression it is not (yet): 100 seeds' spread above χ²₉₉'s 99.5 % point.
/// With the weights' variance doubled (src/sgais/run.rs `epoch_log_z_variance`) it reads 99.4 and fails.
#[test]
fn on_linear_regression_the_predicted_variance_understates_the_replicas_error() {
    let settings = [("n_points", "1500"), ("chunk_size", "500"), ("batch_size", "500")];
    let runs = final_estimates("linreg", &settings, 1..=100);
    let (statistic, line) = spread_statistic(&runs);
    println!("linear regression, N = 1,500: {line}");
    if KNOWN_LINREG_UNDERSTATED {
        assert!(statistic > CHI2_99_UPPER, "{line}: within χ²₉₉'s 99.5 % point {CHI2_99_UPPER}: set KNOWN_LINREG_UNDERSTATED = false and update docs/sgais.md §15");
    } else {
        assert!(statistic <= CHI2_99_UPPER, "{line}: above χ²₉₉'s 99.5 % point {CHI2_99_UPPER}");
    }
    evidence_is_unbiased(&runs);
}

/// 99.9 % two-sided normal point: a mean of 100 seeds' Ẑ/Z this many standard errors from 1 fails.
const Z_999: f64 = 3.29;

/// SGAIS's Ẑ is an importance-sampling estimate, unbiased for Z when the moves leave each annealed
/// target invariant: over the seeds, the mean of Ẑ/Z (the closed-form evidence, (TRUTH.5)) is 1
/// within its Monte-Carlo standard error. Seeds 1–100 read 1.068 ± 0.088 (mean log Ẑ − log Z
/// −0.220). With a fresh velocity N(0, η I) given to every particle at resampling (commit ae5c8a7,
/// docs/sgais.md §15 "stop 50") the same seeds read 1.627 ± 0.146 (mean error +0.202) and fail.
fn evidence_is_unbiased(runs: &[(f64, f64, f64)]) {
    let ratios: Vec<f64> = runs.iter().map(|r| (r.0 - r.2).exp()).collect();
    let s = ratios.len() as f64;
    let mean = ratios.iter().sum::<f64>() / s;
    let se = (ratios.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (s - 1.0) / s).sqrt();
    let mean_error = runs.iter().map(|r| r.0 - r.2).sum::<f64>() / s;
    let line = format!("{} seeds: mean Ẑ/Z {mean:.3} ± {se:.3}, mean log Ẑ − log Z {mean_error:+.3}", runs.len());
    println!("linear regression, N = 1,500: {line}");
    assert!((mean - 1.0).abs() <= Z_999 * se, "{line}: Ẑ biased beyond {Z_999} standard errors");
}
