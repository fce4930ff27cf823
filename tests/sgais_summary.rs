//! The SGAIS summary the page and `sgviz evidence` print (src/sgais/replicas.rs, `summarise`), on
//! hand-made replica results (issue 23): every number and the sentences are worked out here by hand
//! from the records, so no SGAIS run is needed and nothing is taken from the code under test.
//!
//! Four replicas of M = 50 particles over two chunks (n = 100, 200), exact log Z(y≤200) = −10.2:
//! three finished with final log Ẑ −10.0, −10.3, −10.2; the fourth diverged after its first chunk.
//! By hand: mean −10.1667, deviations (1/6, −2/15, −1/30), sd = √(0.046667/2) = 0.15275,
//! se = sd/√3 = 0.088192; error mean +0.0333 (0.38 se: no warning); ESS 45, 35, 40 (min 35 ≥ 5 % of
//! 50: no warning); pooled log mean Ẑ = −10 + ln((1 + e^−0.3 + e^−0.2)/3) = −10.158781.

use sgviz::sgais::replicas::{summarise, ReplicaResult};
use sgviz::sgais::run::{ChunkRecord, RunStatus};

fn record(n: usize, log_z: f64, annealing_steps: usize, ess: f64) -> ChunkRecord {
    ChunkRecord {
        n,
        log_z,
        exact_log_z: Some(if n == 100 { -5.1 } else { -10.2 }),
        annealing_steps,
        ess,
        min_step_ess: ess,
        datum_evals: 0,
        learning_rate: 0.01,
        noise_ratio: 0.0,
        log_z_var: 0.04,
        boosted: false,
    }
}

fn replica(replica: usize, status: RunStatus, records: Vec<ChunkRecord>, datum_evals: u64, seconds: Option<f64>) -> ReplicaResult {
    ReplicaResult { replica, seed: 11 + replica as u64, particles: 50, records, status, datum_evals, seconds }
}

fn four_replicas() -> Vec<ReplicaResult> {
    vec![
        replica(0, RunStatus::Finished, vec![record(100, -5.0, 3, 40.0), record(200, -10.0, 4, 45.0)], 1_000, Some(1.0)),
        replica(1, RunStatus::Finished, vec![record(100, -5.2, 5, 42.0), record(200, -10.3, 6, 35.0)], 1_200, Some(2.0)),
        replica(2, RunStatus::Finished, vec![record(100, -5.1, 4, 44.0), record(200, -10.2, 5, 40.0)], 1_400, None),
        replica(3, RunStatus::Diverged("θ became NaN".into()), vec![record(100, -4.0, 9, 10.0)], 500, Some(9.0)),
    ]
}

fn close(a: f64, b: f64, label: &str) {
    assert!((a - b).abs() < 1e-5, "{label}: {a} vs {b}");
}

#[test]
fn the_summary_of_four_hand_made_replicas_states_the_hand_worked_numbers() {
    let results = four_replicas();
    assert_eq!(results.iter().map(|r| r.log_z()).collect::<Vec<_>>(), vec![Some(-10.0), Some(-10.3), Some(-10.2), Some(-4.0)], "log Ẑ after each replica's last chunk");
    assert_eq!(replica(4, RunStatus::Running, Vec::new(), 0, None).log_z(), None);
    let s = summarise(&results);
    assert_eq!((s.replicas, s.finished, s.n, s.particles), (4, 3, 200, 50));
    let z = s.log_z.as_ref().unwrap();
    assert_eq!(z.count, 3);
    close(z.mean, -10.166667, "mean log Ẑ");
    close(z.sd.unwrap(), 0.152753, "sd");
    close(z.se.unwrap(), 0.088192, "se");
    assert_eq!((z.min, z.max), (-10.3, -10.0));
    assert_eq!(s.exact_log_z, Some(-10.2));
    close(s.error.as_ref().unwrap().mean, 0.033333, "error");
    close(s.log_z_pooled.unwrap(), -10.158781, "pooled");
    let ess = s.ess.as_ref().unwrap();
    assert_eq!((ess.count, ess.min), (3, 35.0));
    close(ess.mean, 40.0, "ESS");
    close(s.datum_evals.as_ref().unwrap().mean, 1_200.0, "datum evaluations over the finished");
    let seconds = s.seconds.as_ref().unwrap();
    assert_eq!(seconds.count, 2, "a finished replica without a wall time is left out");
    close(seconds.mean, 1.5, "seconds");
    assert_eq!(s.problems, vec!["replica 3 (seed 14): θ became NaN".to_string()]);
    assert!(s.warning.is_none(), "{:?}", s.warning);
    assert_eq!(
        s.text,
        "log Ẑ = −10.17 ± 0.09 (mean ± standard error over 3 independent replicas; their sd is 0.15); exact log Z = −10.20, error +0.03 ± 0.09 nats."
    );
    assert!(s.ess_note.contains(" Here: 40.0 on average over 3 replicas (min 35.0). Replicas agree: the 3 replicas' log Ẑ have sd 0.15 nats (range 0.30), while each run's weights predict sd 0.20"), "{}", s.ess_note);

    // The curve: the first checkpoint counts all four replicas (the diverged one reached it).
    assert_eq!(s.curve.len(), 2);
    let (first, second) = (&s.curve[0], &s.curve[1]);
    assert_eq!((first.n, first.log_z.count, first.exact_log_z), (100, 4, Some(-5.1)));
    close(first.log_z.mean, -4.825, "first checkpoint log Ẑ");
    close(first.annealing_steps.mean, 5.25, "first checkpoint annealing steps");
    close(first.ess.as_ref().unwrap().mean, 34.0, "first checkpoint ESS");
    assert_eq!((second.n, second.log_z.count, second.exact_log_z), (200, 3, Some(-10.2)));
    close(second.annealing_steps.mean, 5.0, "second checkpoint annealing steps");
}

#[test]
fn one_replica_none_and_a_negative_error_are_worded_by_hand() {
    let results = four_replicas();
    let one = summarise(&results[1..2]);
    assert_eq!(one.text, "log Ẑ = −10.30 (one replica: run several to measure its spread); exact log Z = −10.20, error −0.10 nats.");
    assert!(one.ess_note.ends_with(" Here: 35.0."), "{}", one.ess_note);
    assert!(one.log_z_pooled.is_some_and(|p| (p + 10.3).abs() < 1e-12));
    let none = summarise(&results[3..]);
    assert_eq!(none.text, "No replica of 1 finished, so there is no estimate yet.");
    assert_eq!((none.finished, none.n), (0, 0));
    assert!(none.log_z.is_none() && none.log_z_pooled.is_none() && none.error.is_none());
    // A collapsed ESS (1 of 50) and an error of many standard errors are both stated.
    let mut collapsed = four_replicas();
    for r in &mut collapsed[..3] {
        let last = r.records.last_mut().unwrap();
        last.ess = 1.0;
        last.exact_log_z = Some(-12.0);
    }
    let warned = summarise(&collapsed[..3]);
    let warning = warned.warning.as_deref().unwrap();
    assert!(warning.contains("ESS 1.0 of M = 50") && warning.contains("+1.8 nats"), "{warning}");
    assert!(warned.text.ends_with(&format!(" {warning}")), "{}", warned.text);
}

/// SplitMix64 written out from its definition (Steele, Lea & Flood 2014; Vigna's splitmix64.c):
/// state += 0x9e3779b97f4a7c15, then the two xor-shift-multiply rounds and a final xor-shift.
fn splitmix64_next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn replica_seeds_are_splitmix64_of_the_seed_and_replica_and_replica_zero_replays_the_seed() {
    use sgviz::sgais::replicas::{replica_seed, split_mix};
    // The published first outputs of splitmix64 seeded with 1234567 pin the reference above.
    let mut state = 1_234_567u64;
    let published = [6_457_827_717_110_365_317u64, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423];
    for expected in published {
        let before = state;
        assert_eq!(splitmix64_next(&mut state), expected);
        assert_eq!(split_mix(before), expected, "split_mix is one splitmix64 step from state {before}");
    }
    for seed in [0u64, 7, 1_234_567] {
        assert_eq!(replica_seed(seed, 0), seed, "replica 0 replays the seed");
        for r in 1..4u64 {
            let mut inner = r;
            let scrambled = splitmix64_next(&mut inner);
            let mut outer = seed ^ scrambled;
            assert_eq!(replica_seed(seed, r as usize), splitmix64_next(&mut outer), "seed {seed}, replica {r}");
        }
    }
}
