//! The surprise rule of src/sgais/surprise.rs (docs/sgais.md §10, (SGAIS.18)–(SGAIS.19)) against an
//! oracle it does not use: Bayesian linear regression, whose posterior after n data is exactly
//! Gaussian (`LinearRegression::posterior_after`, docs/truth.md §5), so exact posterior draws stand
//! in for perfectly mixed particles and new chunks from the same generator are exchangeable data.
//!
//! - (SGAIS.18): over independent data sets and chunks, the mean of the sample variance of
//!   L = log p(C | θ) over exact posterior draws is d(m/n)(1 + m/n) + ½d(m/n)²; checked at m = n
//!   (where the two correction terms make 2.5× the leading d·m/n) and m = n/10, within 4 standard
//!   errors of the mean (the spread of the ratios over the replications).
//! - (SGAIS.19): with M = 50 draws and ESS* = 25 (the defaults), stationary chunks are flagged at
//!   most at the rule's false-alarm rate 10⁻³ (at most 2 of the 400 chunks here; Poisson(0.4)
//!   exceeds 2 with probability 0.008), while a chunk from a shifted process (responses + 3σ) is.
//!
//! Dropping the factor (1 + m/n) from (SGAIS.18) (src/sgais/surprise.rs `stationary_variance`)
//! makes the first test read 1.824 ± 0.057 at m = n and fail.
//!
//! Runtime: 0.2 CPU-s each for the linear-regression tests, 5.6 CPU-s for the mixture's (opt-level 3).

use sgviz::model::linear::LinearRegression;
use sgviz::model::Model;
use sgviz::sgais::surprise::{chunk_surprise, log_lik_variance, stationary_variance};

#[path = "common/linear_posterior.rs"]
mod linear_posterior;
use linear_posterior::{linear_model, posterior_draws};

/// L_i = Σ_{j∈range} log p(y_j | θ_i).
fn chunk_log_liks(model: &dyn Model, draws: &[Vec<f64>], range: std::ops::Range<usize>) -> Vec<f64> {
    draws.iter().map(|theta| range.clone().map(|j| model.log_lik(j, theta)).sum()).collect()
}

/// s²(L) / (SGAIS.18) for `chunks` chunks of m after n, on `sets` data sets (each its own posterior):
/// the ratios, one per (data set, chunk).
fn variance_ratios(n: usize, m: usize, sets: u64, chunks: usize, draws: usize) -> Vec<f64> {
    let mut ratios = Vec::new();
    for set in 1..=sets {
        let model = linear_model(n + chunks * m, set);
        let theta = posterior_draws(&model, n, draws, 100 + set);
        let expected = stationary_variance(model.dim(), n, m);
        for c in 0..chunks {
            let start = n + c * m;
            ratios.push(log_lik_variance(&chunk_log_liks(&model, &theta, start..start + m)) / expected);
        }
    }
    ratios
}

#[test]
fn the_log_likelihood_variance_of_an_exchangeable_chunk_is_as_derived() {
    for (n, m) in [(400, 400), (4_000, 400)] {
        let ratios = variance_ratios(n, m, 40, 5, 100);
        let count = ratios.len() as f64;
        let mean = ratios.iter().sum::<f64>() / count;
        let se = (ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (count - 1.0) / count).sqrt();
        println!("n = {n}, m = {m}: mean s²/(SGAIS.18) = {mean:.3} ± {se:.3}");
        assert!((mean - 1.0).abs() < 4.0 * se, "n = {n}, m = {m}: mean s²(L)/(SGAIS.18) = {mean:.3} ± {se:.3}, expected 1");
    }
}

#[test]
fn stationary_chunks_are_rarely_flagged_and_a_shifted_chunk_is() {
    let (n, m, particles, target_ess) = (1_000, 1_000, 50, 25.0);
    let mut flagged = 0;
    let mut total = 0;
    for set in 1..=40u64 {
        let model = linear_model(n + 10 * m, set);
        let theta = posterior_draws(&model, n, particles, 500 + set);
        for c in 0..10 {
            let start = n + c * m;
            let s = chunk_surprise(&chunk_log_liks(&model, &theta, start..start + m), model.dim(), n, m, target_ess);
            flagged += s.surprising as usize;
            total += 1;
        }
    }
    assert!(flagged <= 2, "{flagged} of {total} stationary chunks flagged (false-alarm rate 10⁻³)");
    // The same first 1,000 data, then a chunk whose responses are shifted by 3 noise sds: the
    // posterior of the first data disagrees with it, and L varies with the intercept b.
    let model = linear_model(n + m, 1);
    let theta = posterior_draws(&model, n, particles, 7);
    let rows: Vec<f64> = (0..n + m).flat_map(|i| model.design_row(i)[..5].to_vec()).collect();
    let responses: Vec<f64> = (0..n + m).map(|i| model.response(i) + if i >= n { 3.0 * model.noise_sd() } else { 0.0 }).collect();
    let shifted = LinearRegression::new(5, rows, responses, model.noise_sd(), model.prior_sd());
    let s = chunk_surprise(&chunk_log_liks(&shifted, &theta, n..n + m), shifted.dim(), n, m, target_ess);
    assert!(s.surprising, "a chunk shifted by 3σ: s² = {:.1}, threshold {:.1}", s.variance, s.threshold);
}

/// The rule's verdicts on the mixture of the shift reproducer (docs/sgais.md §10): K = 5, the first
/// 2,000 shift points (3 clusters, then 5 from n = 1,000), the mixture's defaults without the
/// extra work, SGAIS seed 1, run until the second chunk's first annealing step: in order the
/// change point's chunk is flagged, shuffled (the same points, stationary) it is not; the first
/// chunk (from the prior) is flagged in both. 5.6 CPU-s.
#[test]
fn the_change_point_chunk_of_the_shift_data_is_flagged_and_its_shuffled_twin_is_not() {
    use sgviz::sgais::job::resolve;
    use sgviz::sgais::run::SgaisRun;
    for (scenario, expected) in [("shift", true), ("shift_shuffled", false)] {
        let settings: Vec<(String, String)> = vec![("n_points".into(), "2000".into()), ("n_components".into(), "5".into()), ("scenario".into(), scenario.into())];
        let resolved = resolve("gmm", None, &settings, None).unwrap();
        let config = sgviz::sgais::SgaisConfig { surprise_boost: None, ..resolved.config };
        let mut run = SgaisRun::new(resolved.model, config, 2_000, 1);
        while run.surprises().len() < 2 {
            run.advance(1);
        }
        let [first, second] = [run.surprises()[0], run.surprises()[1]];
        println!("{scenario}: chunk ending {}: s² = {:.1}, threshold {:.1}", second.n, second.variance, second.threshold);
        assert!(first.surprising, "{scenario}: the first chunk starts from the prior");
        assert_eq!(second.n, 2_000);
        assert_eq!(second.surprising, expected, "{scenario}: s² = {:.1}, threshold {:.1}", second.variance, second.threshold);
    }
}

/// The extra work reaches the run (src/sgais/run.rs): the first chunk is always surprising, so with
/// `SurpriseBoost::MEASURED` it anneals with twice the SGHMC moves per temperature and a target ESS
/// of 0.9 M (never fewer temperatures), hence at least twice the SGHMC datum evaluations of the
/// same chunk without the boost; only the gradient-noise estimate, the same in both, is not
/// doubled. Unwired (the boost ignored), the two counts are equal. Linear regression, 400 points.
#[test]
fn a_boosted_first_chunk_costs_at_least_twice_the_moves() {
    use sgviz::sgais::job::resolve;
    use sgviz::sgais::run::SgaisRun;
    use sgviz::sgais::surprise::SurpriseBoost;
    let first_chunk_evals = |boost: Option<SurpriseBoost>| {
        let settings: Vec<(String, String)> = vec![("n_points".into(), "400".into())];
        let resolved = resolve("linreg", None, &settings, None).unwrap();
        let config = sgviz::sgais::SgaisConfig { surprise_boost: boost, ..resolved.config };
        let mut run = SgaisRun::new(resolved.model, config, 400, 1);
        while run.records().is_empty() {
            run.advance(1);
        }
        assert!(run.surprises()[0].surprising, "the first chunk starts from the prior");
        run.datum_evals() as f64
    };
    let (plain, boosted) = (first_chunk_evals(None), first_chunk_evals(Some(SurpriseBoost::MEASURED)));
    assert!(boosted > 1.5 * plain, "boosted first chunk {boosted} datum evaluations vs {plain} without the boost");
}
