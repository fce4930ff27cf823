//! Unit tests of src/sgais/prefix.rs: the replica agreement check on the log Ẑ so far, at the
//! deepest checkpoint two replicas share (docs/sgais.md §14). Oracles are hand-worked numbers.

use sgviz::sgais::prefix::prefix_check;
use sgviz::sgais::replicas::ReplicaResult;
use sgviz::sgais::run::{ChunkRecord, RunStatus};

/// A replica that has reported `chunks` = [(log Ẑ, predicted variance)] at n = 100, 200, ….
fn replica(replica: usize, chunks: &[(f64, f64)], status: RunStatus) -> ReplicaResult {
    let records = chunks
        .iter()
        .enumerate()
        .map(|(k, &(log_z, log_z_var))| ChunkRecord {
            n: 100 * (k + 1),
            log_z,
            exact_log_z: None,
            annealing_steps: 1,
            ess: 10.0,
            min_step_ess: 5.0,
            datum_evals: 0,
            learning_rate: 0.1,
            noise_ratio: 0.0,
            log_z_var,
            boosted: false,
        })
        .collect();
    ReplicaResult { replica, seed: replica as u64, particles: 10, records, status, datum_evals: 0, seconds: None }
}

/// Replicas at 3, 2 and 0 chunks: the deepest checkpoint two share is the second (n = 200), with
/// log Ẑ −20 and −26 there. Hand-worked: mean −23, s² = (3² + 3²)/1 = 18, sd √18, se √18/√2 = 3,
/// range 6; predicted variances 1 and 3 → σ̄² = 2, statistic (2 − 1)·18/2 = 9 > 6.635 (χ²₁'s
/// 99 % point, Abramowitz & Stegun 26.8): the two replicas disagree already at n = 200. The
/// third chunk of replica 0 (−1,000) is not comparable and is not used; neither is any final value.
#[test]
fn the_check_is_made_at_the_deepest_checkpoint_two_replicas_share() {
    let results = [
        replica(0, &[(-10.0, 0.5), (-20.0, 1.0), (-1000.0, 1.0)], RunStatus::Running),
        replica(1, &[(-11.0, 0.5), (-26.0, 3.0)], RunStatus::Running),
        replica(2, &[], RunStatus::Running),
    ];
    let p = prefix_check(&results).expect("two replicas share n = 200");
    assert_eq!((p.n, p.replicas, p.log_z.count, p.log_z.mean, p.log_z.max - p.log_z.min), (200, 2, 2, -23.0, 6.0));
    assert!((p.log_z.sd.unwrap() - 18f64.sqrt()).abs() < 1e-12 && (p.log_z.se.unwrap() - 3.0).abs() < 1e-12);
    let a = p.agreement.as_ref().expect("two finite pairs");
    assert_eq!((a.replicas, a.statistic, a.within_sd), (2, 9.0, 2f64.sqrt()));
    assert!(a.disagree, "statistic 9 > 6.635");
    assert!(p.text.starts_with("So far, at n = 200 (2 replicas there): Replicas DISAGREE"), "{}", p.text);
}

/// With predicted variances 9 and 9 the same two values agree: statistic 18/9 = 2 < 6.635.
/// Three replicas at the same depth are all counted (mean of −20, −26, −23 is −23).
#[test]
fn agreeing_replicas_and_all_replicas_at_the_depth_are_counted() {
    let two = [replica(0, &[(-20.0, 9.0)], RunStatus::Running), replica(1, &[(-26.0, 9.0)], RunStatus::Finished)];
    let p = prefix_check(&two).unwrap();
    assert_eq!((p.n, p.agreement.as_ref().unwrap().statistic), (100, 2.0));
    assert!(!p.agreement.unwrap().disagree && p.text.contains("Replicas agree"));
    let three = [replica(0, &[(-20.0, 9.0)], RunStatus::Running), replica(1, &[(-26.0, 9.0)], RunStatus::Running), replica(2, &[(-23.0, 9.0)], RunStatus::Running)];
    let q = prefix_check(&three).unwrap();
    assert_eq!((q.replicas, q.log_z.mean, q.log_z.count), (3, -23.0, 3));
}

/// Nothing to compare: one replica with chunks, or two with none.
#[test]
fn fewer_than_two_replicas_with_a_chunk_give_no_check() {
    assert!(prefix_check(&[replica(0, &[(-1.0, 1.0), (-2.0, 1.0)], RunStatus::Running), replica(1, &[], RunStatus::Running)]).is_none());
    assert!(prefix_check(&[replica(0, &[], RunStatus::Running), replica(1, &[], RunStatus::Running)]).is_none());
    assert!(prefix_check(&[replica(0, &[(-1.0, 1.0)], RunStatus::Finished)]).is_none());
}

/// The page's combination carries the check per variant (src/sgais/page.rs `GroupSummary::prefix`):
/// the same numbers as [`prefix_check`] on that variant's replicas, none for a variant alone.
#[test]
fn the_page_summary_carries_the_check_per_variant() {
    use sgviz::sgais::page::{combine, PageRun};
    let run = |label: &str, result: ReplicaResult| PageRun { label: label.into(), ais_n: None, variant: None, n_total: 300, result };
    let runs = vec![
        run("A", replica(0, &[(-20.0, 1.0), (-40.0, 1.0)], RunStatus::Running)),
        run("A", replica(1, &[(-26.0, 3.0)], RunStatus::Running)),
        run("B", replica(0, &[(-5.0, 1.0)], RunStatus::Running)),
    ];
    let page = combine(&runs);
    let a = page.groups.iter().find(|g| g.label == "A").unwrap();
    assert_eq!(a.prefix.as_ref().map(|p| (p.n, p.replicas, p.log_z.mean)), Some((100, 2, -23.0)));
    assert!(page.groups.iter().find(|g| g.label == "B").unwrap().prefix.is_none());
}
