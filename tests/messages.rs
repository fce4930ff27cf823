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

/// Every diagnostic a sampler reports has its own help text (the page shows it on hover and tap),
/// not the generic fallback: checked natively for every sampler on a target it runs on.
#[test]
fn every_diagnostic_has_its_own_help() {
    let generic = sgviz::diagnostic_help::help("a name no sampler reports");
    for sampler in sgviz::registry::SAMPLERS {
        let target = if sampler.name == "lipsbps" { "logreg" } else { "gaussian" };
        let mut chain = Chain::new(&ChainConfig::new(target, sampler.name, 1).with("grad_noise", 1.0)).or_else(|_| Chain::new(&ChainConfig::new(target, sampler.name, 1))).unwrap();
        chain.run(200);
        for d in chain.diagnostics() {
            assert_ne!(sgviz::diagnostic_help::help(d.name), generic, "{}: diagnostic '{}' ({}) has no help of its own", sampler.name, d.name, d.label);
        }
    }
}
