//! Distribution shift (SGAIS paper §6.2, Fig. 5; docs/sgais.md §9): the final log Ẑ of a K-component
//! mixture fitted to the data in order and to the same points shuffled are two estimates of one
//! number, log p(y_1..y_N) (the evidence does not depend on the order of exchangeable data). The
//! paper's point is that they agree; when they do not, the page says "the particles were trapped in
//! a local mode in one of the orders … the higher estimate is the better one"
//! whenever they differ by more than `shift::agreement_threshold` (max(10, n/1,000) nats). This test
//! holds the page to that sentence: for every K, either the page finds the orders in agreement, or
//! the lower run's particles cover fewer of the generating clusters than the higher run's (median
//! over particles, `sgais::coverage`) — it missed part of the posterior, which is what "trapped in a
//! local mode" means. It prints the issue's criterion (0.1 % of |log Ẑ|) beside.
//!
//! Measured (docs/sgais.md §9): at the mixture's defaults the orders do *not* yet agree within
//! 0.1 % for K = 5 at N = 10⁵ (628 nats), nor for K = 7 at N = 12,000; issue 22's agreement is
//! not reached, and this test checks the explanation the page gives instead.
//!
//! CI: K = 7 on the first N = 12,000 points with the lecture preset's settings (M = 25, ESS* = 12.5,
//! K = 10 SGHMC steps; www/sgais.js `shiftLecture`; ≈ 10 CPU-s at opt-level 3).
//! `SGVIZ_SGAIS_SHIFT_SOAK=1` (`make soak`): K = 3, 5 and 7 at the paper's N = 10⁵ at the mixture's
//! defaults (≈ 6 CPU-minutes).

use sgviz::sgais::coverage::median_clusters_covered;
use sgviz::sgais::job::resolve;
use sgviz::sgais::run::{RunStatus, SgaisRun};
use sgviz::sgais::shift::agreement_threshold;

fn soak() -> bool {
    std::env::var("SGVIZ_SGAIS_SHIFT_SOAK").is_ok_and(|v| v != "0")
}

/// Final log Ẑ and the median number of clusters the particles cover, for SGAIS seed 1 on the first
/// `n` shifting points (data seed 1), in order or shuffled, with `extra` settings over the defaults.
fn final_run(components: usize, n: usize, shuffled: bool, extra: &[(&str, &str)]) -> (f64, usize) {
    let scenario = if shuffled { "shift_shuffled" } else { "shift" };
    let mut settings: Vec<(String, String)> = vec![("n_points".into(), n.to_string()), ("n_components".into(), components.to_string()), ("scenario".into(), scenario.into())];
    settings.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let resolved = resolve("gmm", None, &settings, None).unwrap();
    assert_eq!(resolved.model.n_data(), n);
    let mut run = SgaisRun::new(resolved.model, resolved.config, n, 1);
    run.run_to_end();
    assert_eq!(*run.status(), RunStatus::Finished);
    (run.log_z(), median_clusters_covered(run.particles(), components))
}

#[test]
fn in_order_and_shuffled_agree_or_the_lower_one_missed_clusters() {
    let lecture: &[(&str, &str)] = &[("particles", "25"), ("target_ess", "12.5"), ("burn_in_steps", "10")];
    let (n, ks, extra): (usize, Vec<usize>, &[(&str, &str)]) = if soak() { (100_000, vec![3, 5, 7], &[]) } else { (12_000, vec![7], lecture) };
    let mut failures = Vec::new();
    for k in ks {
        let ((in_order, covered_in_order), (shuffled, covered_shuffled)) = (final_run(k, n, false, extra), final_run(k, n, true, extra));
        let tolerance = 1e-3 * in_order.abs().max(shuffled.abs());
        let page_says_trapped = (in_order - shuffled).abs() > agreement_threshold(n);
        let (lower, higher) = if in_order < shuffled { (covered_in_order, covered_shuffled) } else { (covered_shuffled, covered_in_order) };
        let line = format!(
            "K = {k}, N = {n}: in order {in_order:.1} (covers {covered_in_order} clusters), shuffled {shuffled:.1} (covers {covered_shuffled}), difference {:.1} (the page's threshold {:.0}; the issue's 0.1 % {tolerance:.1})",
            in_order - shuffled,
            agreement_threshold(n)
        );
        println!("{line}");
        if page_says_trapped && lower >= higher {
            failures.push(format!("{line}: the page says trapped, but the lower run does not cover fewer clusters"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
