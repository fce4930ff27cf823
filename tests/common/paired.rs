//! The paired invariance check of tests/sgais_reseed.rs and tests/sgais_reseed_weight.rs: draws
//! θ_i with log importance weights `log_w` represent a target f; `change[i][s]` is statistic s
//! after minus before a kernel's moves from θ_i. If the kernel leaves f invariant, the weighted
//! mean change E_f[g(Pθ) − g(θ)] is 0; returned per statistic with its standard error (delta
//! method: sd(w·d) / (√n · mean w)).

pub fn weighted_mean_changes<const S: usize>(log_w: &[f64], change: &[[f64; S]]) -> [(f64, f64); S] {
    let max = log_w.iter().copied().fold(f64::MIN, f64::max);
    let w: Vec<f64> = log_w.iter().map(|l| (l - max).exp()).collect();
    let n = w.len() as f64;
    let mean_w = w.iter().sum::<f64>() / n;
    std::array::from_fn(|s| {
        let d: Vec<f64> = w.iter().zip(change).map(|(w, c)| w * c[s]).collect();
        let mean_d = d.iter().sum::<f64>() / n;
        let sd_d = (d.iter().map(|x| (x - mean_d).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        (mean_d / mean_w, sd_d / (n.sqrt() * mean_w))
    })
}
