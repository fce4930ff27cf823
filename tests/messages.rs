//! User-facing messages (issue 26): a divergence names the control that fixes it — the sampler's
//! own step parameter from the registry (SGHMC's learning rate η, not SGLD's ε).

use sgviz::chain::{Chain, ChainConfig, ChainStatus};

fn divergence_message(sampler: &str, settings: &[(&str, f64)]) -> String {
    let config = settings.iter().fold(ChainConfig::new("gaussian", sampler, 1).with("sd1", 0.05).with("sd2", 0.05), |c, (n, v)| c.with(n, v));
    let mut chain = Chain::new(&config).unwrap();
    chain.run(20_000);
    match chain.status() {
        ChainStatus::Diverged(message) => message.clone(),
        other => panic!("{sampler} {settings:?}: expected a divergence, got {other:?}"),
    }
}

#[test]
fn sghmc_divergence_names_its_learning_rate_eta_not_epsilon() {
    let message = divergence_message("sghmc", &[("sghmc_lr", 0.9), ("friction", 0.0)]);
    assert!(message.contains("reduce η (the “Learning rate” slider)"), "{message}");
    assert!(!message.contains('ε'), "{message}");
}

#[test]
fn sgld_divergence_names_its_step_size_epsilon() {
    let message = divergence_message("sgld", &[("step_size", 10.0)]);
    assert!(message.contains("reduce ε (the “Step size” slider)"), "{message}");
}
