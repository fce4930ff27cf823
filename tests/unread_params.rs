//! The registry's `unread` (src/spec.rs): which target parameters a sampler never reads, the one
//! field the page (hidden slider), links (dropped with a notice) and the CLI (`--set` refused,
//! `--help`) read. Oracle from elsewhere: the chain itself, run at two values of the parameter on
//! one seed. A sampler that reads it moves differently; one that does not takes the same path.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::registry::SAMPLERS;
use std::process::Command;

/// The chain's position after `steps` on the Gaussian toy, seed 3, at gradient noise `s`; None
/// where the sampler refuses the target (lipSBPS needs bounded scores, no toy target has them).
fn position_at(sampler: &str, s: f64, steps: u64) -> Option<Vec<f64>> {
    let mut chain = Chain::new(&ChainConfig::new("gaussian", sampler, 3).with("grad_noise", s)).ok()?;
    chain.run(steps);
    Some(chain.position().to_vec())
}

#[test]
fn unread_lists_grad_noise_exactly_for_the_samplers_whose_path_ignores_it() {
    let mut checked = 0;
    for spec in SAMPLERS {
        // 200 steps: every sampler here draws a gradient in its first steps (bouncy ones at
        // their first event candidate), so s = 5 moves a sampler that reads it.
        let Some(quiet) = position_at(spec.name, 0.0, 200) else { continue };
        let ignores = position_at(spec.name, 5.0, 200).is_some_and(|noisy| noisy == quiet);
        let listed = spec.unread.iter().any(|u| u.param == "grad_noise");
        assert_eq!(listed, ignores, "{}: registry says unread = {listed}, its path with s = 0 vs 5 identical = {ignores}", spec.name);
        checked += 1;
    }
    assert!(checked >= SAMPLERS.len() - 1, "only {checked} samplers run on the Gaussian toy");
}

#[test]
fn the_cli_refuses_an_unread_setting_and_help_names_it() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_sgviz")).args(args).output().expect("binary runs");
    for command in [&["sample", "--steps", "1", "--seed", "1"][..], &["defaults"][..]] {
        let mut args = vec![command[0], "--target", "gaussian", "--sampler", "mala", "--set", "grad_noise=5"];
        args.extend(&command[1..]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--set grad_noise: sampler 'mala' never reads it"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    }
    // The same setting for a minibatch sampler is accepted.
    let ok = run(&["defaults", "--target", "gaussian", "--sampler", "sgld", "--set", "grad_noise=5"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let help = String::from_utf8_lossy(&run(&["--help"]).stdout).to_string();
    for name in ["mala", "hmc", "bps"] {
        assert!(help.contains(&format!("  {name} ignores grad_noise: ")), "{help}");
    }
    assert!(!help.contains("sgld ignores"), "{help}");
}
