//! Several chains of one setting from over-dispersed starts, for the convergence diagnostics of
//! [`crate::rhat`] (Vehtari et al. 2021 §2: chains started far apart, so that a chain that has not
//! forgotten its start shows as R̂ > 1).

use crate::chain::{Chain, ChainConfig};
use crate::rhat::{convergence, Convergence};

/// How a chain is built from its settings.
pub type ChainBuilder = dyn Fn(&ChainConfig) -> Result<Chain, String>;

/// `k` starting points spread on an ellipse at 80 % of the target's view around its centre (in
/// the first two coordinates; the others keep the target's initial point).
pub fn over_dispersed_starts(chain: &Chain, k: usize) -> Vec<Vec<f64>> {
    let view = chain.model().view();
    let centre = [(view.x_min + view.x_max) / 2.0, (view.y_min + view.y_max) / 2.0];
    let half = [0.4 * (view.x_max - view.x_min), 0.4 * (view.y_max - view.y_min)];
    (0..k)
        .map(|i| {
            let angle = std::f64::consts::TAU * (i as f64 + 0.5) / k as f64;
            let mut start = chain.model().initial_point();
            start[0] = centre[0] + half[0] * angle.cos();
            start[1] = centre[1] + half[1] * angle.sin();
            start
        })
        .collect()
}

/// Run one chain per start (chain i with seed `config.seed + i`) for `steps` steps and return
/// each coordinate's draws by chain: `draws[coordinate][chain]`.
pub fn run_chains(config: &ChainConfig, starts: &[Vec<f64>], steps: u64) -> Result<Vec<Vec<Vec<f64>>>, String> {
    run_chains_with(&Chain::new, config, starts, steps)
}

/// [`run_chains`] with each chain built by `build` (the page builds on a target a worker already
/// built, instead of building it again).
pub fn run_chains_with(build: &ChainBuilder, config: &ChainConfig, starts: &[Vec<f64>], steps: u64) -> Result<Vec<Vec<Vec<f64>>>, String> {
    let mut per_chain = Vec::with_capacity(starts.len());
    for (i, start) in starts.iter().enumerate() {
        let mut c = config.clone();
        c.seed = config.seed.wrapping_add(i as u64);
        let mut chain = build(&c)?;
        chain.restart_at(start)?;
        chain.run(steps);
        per_chain.push(chain);
    }
    let dim = per_chain.first().map_or(0, |c| c.model().dim());
    Ok((0..dim).map(|j| per_chain.iter().map(|c| c.samples().coordinate(j)).collect()).collect())
}

/// R̂, bulk/tail ESS, mean and MCSE per coordinate of `k` chains from over-dispersed starts.
pub fn diagnose(config: &ChainConfig, k: usize, steps: u64) -> Result<Vec<Convergence>, String> {
    diagnose_with(&Chain::new, config, k, steps)
}

/// [`diagnose`] with each chain built by `build`.
pub fn diagnose_with(build: &ChainBuilder, config: &ChainConfig, k: usize, steps: u64) -> Result<Vec<Convergence>, String> {
    let starts = over_dispersed_starts(&build(config)?, k);
    let draws = run_chains_with(build, config, &starts, steps)?;
    Ok(draws.iter().map(|chains| convergence(chains)).collect())
}
