//! Direct manipulation in the core: the slow-motion decomposition of one SGLD / SGHMC / SGFS step
//! into its parts (they are the step's own: they sum to the step, recording does not change the
//! chain, each part is the formula it names), and restarting a chain at a dragged point.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::lab::Lab;

/// Chain on `target` with `sampler` and settings, recording parts.
fn recording(target: &str, sampler: &str, settings: &[(&str, &str)]) -> Chain {
    let mut config = ChainConfig::new(target, sampler, 7);
    for (name, value) in settings {
        config = config.with(name, value);
    }
    let mut chain = Chain::new(&config).unwrap();
    chain.record_parts(true);
    chain
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// Over `steps` steps: the parts start where the previous step ended and sum to the step taken.
fn parts_sum_to_the_steps(chain: &mut Chain, steps: usize, names: &[&str]) {
    for k in 0..steps {
        let before = chain.position().to_vec();
        chain.run(1);
        let parts = chain.last_parts().expect("parts recorded");
        assert_eq!(parts.parts.iter().map(|p| p.name).collect::<Vec<_>>(), names);
        assert_eq!(parts.start, before, "step {k} starts where the chain was");
        let end = parts.end();
        let step = norm(&before.iter().zip(chain.position()).map(|(a, b)| b - a).collect::<Vec<_>>());
        let gap = norm(&end.iter().zip(chain.position()).map(|(a, b)| a - b).collect::<Vec<_>>());
        assert!(gap <= 1e-9 * (step + 1e-300) + 1e-14, "step {k}: parts sum to {end:?}, chain at {:?}", chain.position());
    }
}

const SG_PARTS: [&str; 3] = ["drift", "minibatch_noise", "injected_noise"];

#[test]
fn sgld_sghmc_and_sgfs_parts_sum_to_each_step() {
    parts_sum_to_the_steps(&mut recording("gaussian", "sgld", &[("batch_size", "10"), ("step_size", "0.05")]), 200, &SG_PARTS);
    parts_sum_to_the_steps(&mut recording("logreg", "sgld", &[("batch_size", "10"), ("sgld_precond", "1")]), 200, &SG_PARTS);
    parts_sum_to_the_steps(&mut recording("gaussian", "sghmc", &[("batch_size", "10")]), 200, &["momentum", "drift", "minibatch_noise", "injected_noise"]);
    parts_sum_to_the_steps(&mut recording("logreg", "sgfs_f", &[("sgfs_alpha", "1")]), 200, &SG_PARTS);
    parts_sum_to_the_steps(&mut recording("logreg", "sgfs_d", &[("sgfs_alpha", "1")]), 200, &SG_PARTS);
}

#[test]
fn recording_parts_does_not_change_the_chain() {
    // Preconditioned SGLD (RMSprop, M ≠ I) takes its own branch of the update: the same draws too.
    let cases = [("gaussian", "sgld", 0), ("gaussian", "sghmc", 0), ("logreg", "sgfs_f", 0), ("logreg", "sgfs_d", 0), ("logreg", "sgld", 1)];
    for (target, sampler, precond) in cases {
        let mut config = ChainConfig::new(target, sampler, 3).with("batch_size", 10);
        if precond == 1 {
            config = config.with("sgld_precond", 1);
        }
        let mut plain = Chain::new(&config).unwrap();
        let mut recorded = Chain::new(&config).unwrap();
        recorded.record_parts(true);
        plain.run(300);
        recorded.run(300);
        assert_eq!(plain.position(), recorded.position(), "{sampler} on {target} (preconditioner {precond})");
        assert!(plain.last_parts().is_none(), "{sampler}: nothing recorded unless asked");
    }
}

#[test]
fn sgld_drift_is_half_epsilon_times_the_full_gradient_and_the_full_batch_has_no_minibatch_noise() {
    let mut chain = recording("gaussian", "sgld", &[("batch_size", "100"), ("step_size", "0.05")]);
    let model = chain.shared_model();
    for _ in 0..50 {
        chain.run(1);
        let parts = chain.last_parts().unwrap();
        let mut grad = vec![0.0; 2];
        model.grad_log_density(&parts.start, &mut grad);
        let drift = &parts.parts[0].vector;
        for j in 0..2 {
            assert!((drift[j] - 0.025 * grad[j]).abs() <= 1e-12 * (1.0 + grad[j].abs()), "drift {drift:?} vs ε/2 ∇ = {grad:?}");
        }
        // The toy's 100 pseudo-data are all used: the minibatch gradient is the full one.
        assert!(norm(&parts.parts[1].vector) <= 1e-9 * norm(drift) + 1e-12, "minibatch part {:?}", parts.parts[1].vector);
    }
}

/// The injected part of SGLD is N(0, εI): its mean square per coordinate is ε.
#[test]
fn sgld_injected_noise_has_variance_epsilon() {
    let mut chain = recording("gaussian", "sgld", &[("batch_size", "10"), ("step_size", "0.05")]);
    let steps = 40_000;
    let mut squares = [0.0f64; 2];
    for _ in 0..steps {
        chain.run(1);
        let noise = &chain.last_parts().unwrap().parts[2].vector;
        squares[0] += noise[0] * noise[0];
        squares[1] += noise[1] * noise[1];
    }
    // Independent N(0, ε) draws: the mean square has relative standard error √(2/steps) = 0.7 %.
    for s in squares {
        let ratio = s / steps as f64 / 0.05;
        assert!((ratio - 1.0).abs() < 5.0 * (2.0 / steps as f64).sqrt(), "injected variance / ε = {ratio}");
    }
}

#[test]
fn samplers_without_a_decomposition_record_nothing() {
    for sampler in ["mala", "hmc", "bps"] {
        let mut chain = recording("gaussian", sampler, &[]);
        chain.run(20);
        assert!(chain.last_parts().is_none(), "{sampler}");
    }
}

#[test]
fn restart_moves_the_chain_to_the_dropped_point_and_marks_the_trace() {
    let mut lab = Lab::new(ChainConfig::new("gaussian", "sgld", 1), 400, 400, 1.0).unwrap();
    lab.run(3000);
    // Drop at the pixel of the data point (1.5, −2): the state reports it as the new start.
    let (px, py) = lab.projection().to_pixel(1.5, -2.0);
    let point = lab.restart_at_pixel(px, py).unwrap();
    assert!((point[0] - 1.5).abs() < 1e-9 && (point[1] + 2.0).abs() < 1e-9, "{point:?}");
    let state = lab.state();
    assert_eq!(state["position"][0].as_f64().unwrap(), point[0]);
    assert_eq!(state["start"][1].as_f64().unwrap(), point[1]);
    assert_eq!(state["restarts"][0].as_u64().unwrap(), 3000);
    lab.run(1);
    let trace = lab.chart("trace").unwrap();
    let marker = trace.markers.iter().find(|m| m.label.starts_with("restart")).expect("restart marker");
    assert_eq!(marker.x, 3000.0);
    // The first sample after the restart is one step from the dropped point.
    let series = &trace.series[0].points;
    let after = series.iter().find(|(x, _)| *x == 3000.0).expect("sample 3000 in the trace").1;
    assert!((after - 1.5).abs() < 1.0, "first sample after the restart at {after}");
    // Bad drops are refused with a message and change nothing.
    assert!(lab.restart_at_pixel(f64::NAN, 3.0).unwrap_err().contains("finite"));
    assert!(lab.restart_at(&[1.0]).unwrap_err().contains("2 coordinates"));
    assert!(lab.restart_at(&[1.0, f64::INFINITY]).unwrap_err().contains("finite"));
    assert_eq!(lab.chain().restarts().len(), 1);
}

#[test]
fn the_trace_shows_or_names_a_marker_however_long_the_chain_runs() {
    let config = ChainConfig::new("logreg", "osgfs", 1).with("n_points", 10000).with("true_w", 2).with("true_b", -1).with("start_at", 1).with("osgfs_collect", 1);
    let mut lab = Lab::new(config, 400, 400, 1.0).unwrap();
    lab.run(60_000);
    let trace = lab.chart("trace").unwrap();
    let marker = trace.markers.iter().find(|m| m.label.starts_with("burn-in")).expect("burn-in marker");
    let xs: Vec<f64> = trace.series[0].points.iter().map(|p| p.0).collect();
    // Since issue 26's review (stop 40) a marker far before the window is not fitted into the axis
    // (that squeezed 60,000 samples' window into a smear): the legend names it, by the step eq. 17
    // fired at (review s44), and it sits at that step's trace position: collecting from step 1,
    // step F is sample F − 1.
    let fired = lab.state()["diagnostics"].as_array().unwrap().iter().find(|d| d["name"] == "burn_in_over_step").and_then(|d| d["value"].as_f64()).expect("eq. 17 fired");
    assert_eq!(marker.x, fired - 1.0, "{}", marker.label);
    let in_view = xs[0] <= marker.x && marker.x <= *xs.last().unwrap();
    let named = marker.label.contains("before this window") && marker.label.replace(',', "").contains(&format!("at step {fired:.0}"));
    assert!(in_view || named, "marker {} ('{}') neither in the trace window {}..{} nor named before it", marker.x, marker.label, xs[0], xs.last().unwrap());
    assert!(xs.len() <= 2_000, "thinned to the trace's point budget: {}", xs.len());
}
