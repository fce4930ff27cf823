//! Distribution shift (SGAIS paper §6.2, Fig. 5; docs/sgais.md §9): the final log Ẑ of a K-component
//! mixture fitted to the data in order and to the same points shuffled are two estimates of one
//! number, log p(y_1..y_N) (the evidence does not depend on the order of exchangeable data). The
//! paper's point is that they agree. When they differ by more than `shift::agreement_threshold`
//! (max(10, n/1,000) nats) the page says that in one order the particles did not keep up with the
//! posterior and "the higher estimate is the better one" (`shift::agreement_sentence`). This test
//! holds the page to that: for K = 7 (whose components match the 7 generating clusters, so the
//! Laplace reference of `sgais::laplace_reference`, mode plus log 7!, applies), whenever the page
//! finds a disagreement, the higher estimate is the closer one to the reference. It prints, per
//! order, the median over particles of log p(D | θ) + log p(θ) on all N points and how many
//! generating clusters the particles' components sit on (`sgais::coverage`), and the issue's
//! criterion (0.1 % of |log Ẑ|).
//!
//! Measured (docs/sgais.md §10): at the mixture's defaults the orders do *not* agree within 0.1 %
//! for K = 5 (628 nats) and K = 7 (8,673 nats) at N = 10⁵, nor for K = 7 at N = 12,000; issue 22's
//! agreement is not reached. At N = 12,000 (the CI settings below) the lower, in-order K = 7 run
//! ends with its particles on more of the generating clusters than the shuffled run's (a median of
//! 3 against 2) but at a *lower* median log posterior (−48,217.4 against −47,131.5; measured in
//! issue 22's thirteenth round, this test's printout): neither order's particles reach the
//! posterior at these settings, and the in-order ones do not end in a better mode.
//!
//! CI: K = 7 on the first N = 12,000 points with the lecture preset's settings (M = 25, ESS* = 12.5,
//! K = 10 SGHMC steps, lr = 0.02 so that its six runs fit two slides; www/sgais-plan.js `shiftLecture`;
//! ≈ 15 CPU-s at opt-level 3), the surprise rule off as in that preset. Measured: reference
//! −44,248.9, in order −49,011.6, shuffled −47,444.1.
//! `SGVIZ_SGAIS_SHIFT_SOAK=1` (`make soak`): K = 7 at the paper's N = 10⁵ at the mixture's defaults,
//! which on the shift data include the surprise rule (`surprise_rule` auto, docs/sgais.md §10), as
//! on the page (several CPU-minutes).

use sgviz::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use sgviz::sgais::coverage::median_clusters_covered;
use sgviz::sgais::laplace_reference::laplace_log_evidence;
use sgviz::sgais::job::resolve;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::shift::agreement_threshold;

fn soak() -> bool {
    std::env::var("SGVIZ_SGAIS_SHIFT_SOAK").is_ok_and(|v| v != "0")
}

/// What one finished run says: log Ẑ, the median over particles of the unnormalised log posterior
/// log p(D | θ) + log p(θ) on all the data, and the median number of clusters covered.
struct Final {
    log_z: f64,
    log_posterior: f64,
    covered: usize,
}

/// SGAIS seed 1 on the first `n` shifting points (data seed 1), in order or shuffled, with `extra`
/// settings over the mixture's defaults.
fn final_run(components: usize, n: usize, shuffled: bool, extra: &[(&str, &str)]) -> Final {
    let scenario = if shuffled { "shift_shuffled" } else { "shift" };
    let mut settings: Vec<(String, String)> = vec![("n_points".into(), n.to_string()), ("n_components".into(), components.to_string()), ("scenario".into(), scenario.into())];
    settings.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let resolved = resolve("gmm", None, &settings, None).unwrap();
    assert_eq!(resolved.model.n_data(), n);
    let model = resolved.model.clone();
    let mut run = SgaisRun::new(resolved.model, resolved.config, n, 1);
    run.run_to_end();
    assert_eq!(*run.status(), RunStatus::Finished);
    let mut log_posterior: Vec<f64> = run.particles().iter().map(|p| (0..n).map(|i| model.log_lik(i, p)).sum::<f64>() + model.log_prior(p)).collect();
    log_posterior.sort_by(f64::total_cmp);
    Final { log_z: run.log_z(), log_posterior: log_posterior[log_posterior.len() / 2], covered: median_clusters_covered(run.particles(), components) }
}

#[test]
fn when_the_orders_disagree_the_higher_estimate_is_the_closer_to_the_reference() {
    let lecture: &[(&str, &str)] = &[("particles", "25"), ("target_ess", "12.5"), ("burn_in_steps", "10"), ("learning_rate", "0.02"), ("surprise_rule", "off")];
    let (n, extra): (usize, &[(&str, &str)]) = if soak() { (100_000, &[]) } else { (12_000, lecture) };
    let k = 7;
    let reference = laplace_log_evidence(&GaussianMixture::new(2, k, generate_cluster_data(n, ClusterSchedule::Shift { shuffled: false }, 1)).unwrap());
    let (a, b) = (final_run(k, n, false, extra), final_run(k, n, true, extra));
    let line = format!(
        "K = {k}, N = {n}: Laplace reference {reference:.1}; in order log Ẑ {:.1} (median log posterior {:.1}, covers {} clusters), shuffled {:.1} ({:.1}, covers {}); difference {:.1} (the page's threshold {:.0}; the issue's 0.1 % {:.1})",
        a.log_z,
        a.log_posterior,
        a.covered,
        b.log_z,
        b.log_posterior,
        b.covered,
        a.log_z - b.log_z,
        agreement_threshold(n),
        1e-3 * reference.abs()
    );
    println!("{line}");
    if (a.log_z - b.log_z).abs() > agreement_threshold(n) {
        let (lower, higher) = if a.log_z < b.log_z { (a.log_z, b.log_z) } else { (b.log_z, a.log_z) };
        assert!((higher - reference).abs() < (lower - reference).abs(), "{line}: the page calls the higher estimate the better one, but the lower is closer to the reference");
    }
}
