//! Rewind (issue 24): a seeded run is a replayable timeline. Seeking back to step k shows the
//! chain exactly as it was when the run first passed step k (position, moments, every retained
//! sample, gradient count, the page's state), with minibatch SGLD on logistic regression, and
//! with the user's events (a parameter change, a discard, a restart) on the way. The oracle is the
//! state recorded during the first pass, compared bit for bit.

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;

fn lab(target: &str, sampler: &str, seed: u64, settings: &[(&str, &str)]) -> Lab {
    let mut config = ChainConfig::new(target, sampler, seed);
    for (name, value) in settings {
        config = config.with(name, value);
    }
    Lab::new(config, 300, 300, 1.0).unwrap()
}

/// Everything that tells two states of the run apart, as text (f64 printed exactly).
fn snapshot(lab: &Lab) -> String {
    let chain = lab.chain();
    let moments = chain.moments();
    format!(
        "steps {} position {:?} mean {:?} cov {:?} grads {} samples {}\nstate {}",
        chain.steps(),
        chain.position(),
        moments.mean,
        moments.cov,
        chain.grad_evals(),
        lab.samples_csv(),
        lab.state()
    )
}

#[test]
fn seeking_back_to_step_1000_after_3000_reproduces_minibatch_sgld_exactly() {
    let mut lab = lab("logreg", "sgld", 7, &[("n_points", "2000"), ("batch_size", "10")]);
    lab.run(1000);
    let at_1000 = snapshot(&lab);
    lab.run(2000);
    let at_3000 = snapshot(&lab);
    assert_ne!(at_1000, at_3000);
    assert_eq!(lab.seek(1000).unwrap(), 1000);
    assert_eq!(snapshot(&lab), at_1000, "seek back");
    // Playing on from there repeats the run.
    lab.run(2000);
    assert_eq!(snapshot(&lab), at_3000, "played on after the seek");
    assert_eq!(lab.seek(3000).unwrap(), 3000);
    assert_eq!(snapshot(&lab), at_3000, "seek to where it already is");
    assert_eq!(lab.timeline().furthest(), 3000);
}

#[test]
fn the_users_changes_on_the_way_are_replayed_at_their_steps() {
    let mut lab = lab("gaussian", "sgld", 3, &[]);
    lab.run(300);
    lab.set_param("step_size", 0.05).unwrap();
    lab.run(200);
    lab.discard_samples();
    lab.run(100);
    let at_600 = snapshot(&lab);
    lab.run(100);
    lab.restart_at(&[1.5, -1.0]).unwrap();
    lab.run(300);
    let at_1000 = snapshot(&lab);

    assert_eq!(lab.seek(600).unwrap(), 600);
    assert_eq!(snapshot(&lab), at_600, "seek back over a parameter change and a discard");
    assert_eq!(lab.seek(1000).unwrap(), 1000);
    assert_eq!(snapshot(&lab), at_1000, "seek forward over the restart");
    assert_eq!(lab.seek(250).unwrap(), 250);
    lab.run(750);
    assert_eq!(snapshot(&lab), at_1000, "played on from before every event");

    // Changing something while rewound starts a new branch: the old restart is not replayed.
    lab.seek(600).unwrap();
    lab.set_param("step_size", 0.02).unwrap();
    lab.run(400);
    let mut fresh = self::lab("gaussian", "sgld", 3, &[]);
    fresh.run(300);
    fresh.set_param("step_size", 0.05).unwrap();
    fresh.run(200);
    fresh.discard_samples();
    fresh.run(100);
    fresh.set_param("step_size", 0.02).unwrap();
    fresh.run(400);
    assert_eq!(snapshot(&lab), snapshot(&fresh), "the new branch");
    assert_eq!(lab.timeline().furthest(), 1000);
}

#[test]
fn a_bouncy_sampler_rewinds_exactly_too() {
    let mut lab = lab("gaussian", "bps", 11, &[]);
    lab.run(500);
    let at_500 = snapshot(&lab);
    lab.run(1500);
    lab.seek(500).unwrap();
    assert_eq!(snapshot(&lab), at_500);
}
