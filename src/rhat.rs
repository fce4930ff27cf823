//! Convergence diagnostics users know from Stan and ArviZ, on several chains of one coordinate:
//! rank-normalised split-R̂, bulk and tail effective sample size, and the Monte Carlo standard
//! error of the mean (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021, "Rank-normalization,
//! folding, and localization: an improved R̂ for assessing convergence of MCMC", Bayesian
//! Analysis 16(2); eq. numbers below are that paper's). The definitions follow the reference
//! implementations (ArviZ `rhat(method="rank")`, `ess(method="bulk"|"tail")`, `mcse(method="mean")`).

/// The diagnostics of one coordinate over `M` chains.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Convergence {
    /// max(bulk R̂, tail R̂) (§4.2): split-R̂ of the rank-normalised draws and of the folded draws.
    pub rhat: f64,
    /// Bulk ESS: ESS of the rank-normalised split chains (§4.3).
    pub ess_bulk: f64,
    /// Tail ESS: the smaller ESS of the indicators I(θ ≤ q₀.₀₅) and I(θ ≤ q₀.₉₅) (§4.3).
    pub ess_tail: f64,
    /// Mean over all draws.
    pub mean: f64,
    /// Monte Carlo standard error of the mean: sd / √ESS of the split chains (§4.4).
    pub mcse_mean: f64,
}

/// Split every chain into its first and last halves (the middle draw of an odd length is dropped).
pub fn split_chains(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let half = chains.iter().map(Vec::len).min().unwrap_or(0) / 2;
    chains.iter().flat_map(|c| [c[..half].to_vec(), c[c.len() - half..].to_vec()]).collect()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn variance(x: &[f64]) -> f64 {
    let m = mean(x);
    x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() as f64 - 1.0)
}

/// Basic R̂ of equal-length chains (eqs. 1–4): √(((N − 1)/N · W + B/N) / W).
pub fn basic_rhat(chains: &[Vec<f64>]) -> f64 {
    let n = chains[0].len() as f64;
    let means: Vec<f64> = chains.iter().map(|c| mean(c)).collect();
    let between = n * variance(&means);
    let within = mean(&chains.iter().map(|c| variance(c)).collect::<Vec<_>>());
    ((between / within + n - 1.0) / n).sqrt()
}

/// Rank-normalisation (eq. 14): z = Φ⁻¹((r − 3/8) / (S + 1/4)) with the pooled ranks r of all S
/// draws, ties given their average rank.
pub fn rank_normalise(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let all: Vec<f64> = chains.iter().flatten().copied().collect();
    let s = all.len();
    let mut order: Vec<usize> = (0..s).collect();
    order.sort_by(|&a, &b| all[a].total_cmp(&all[b]));
    let mut rank = vec![0.0; s];
    let mut i = 0;
    while i < s {
        let mut j = i;
        while j + 1 < s && all[order[j + 1]] == all[order[i]] {
            j += 1;
        }
        let average = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            rank[k] = average;
        }
        i = j + 1;
    }
    let mut out = Vec::with_capacity(chains.len());
    let mut k = 0;
    for c in chains {
        out.push(c.iter().map(|_| {
            let z = normal_quantile((rank[k] - 0.375) / (s as f64 + 0.25));
            k += 1;
            z
        }).collect());
    }
    out
}

/// Biased autocovariance (divisor n) of one chain at lags 0..n.
fn autocovariance(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let m = mean(x);
    let d: Vec<f64> = x.iter().map(|v| v - m).collect();
    (0..n).map(|t| d[..n - t].iter().zip(&d[t..]).map(|(a, b)| a * b).sum::<f64>() / n as f64).collect()
}

/// Effective sample size of equal-length chains (eq. 10, with the multi-chain autocorrelation of
/// eq. 9 and Geyer's initial monotone sequence): S / τ̂, τ̂ ≥ 1 / log₁₀ S. NaN ("not yet") below 5
/// draws per chain: the first pair after Γ₀ needs lags 2 and 3 inside the loop's reach n − 3 (at
/// n = 4 the reference code's index t − 2 would be −1: ArviZ then returns S·log₁₀ S, this code panicked).
pub fn ess(chains: &[Vec<f64>]) -> f64 {
    let (m, n) = (chains.len(), chains[0].len());
    if n < 5 {
        return f64::NAN;
    }
    let acov: Vec<Vec<f64>> = chains.iter().map(|c| autocovariance(c)).collect();
    let mean_acov = |t: usize| acov.iter().map(|a| a[t]).sum::<f64>() / m as f64;
    let nf = n as f64;
    let mean_var = mean_acov(0) * nf / (nf - 1.0);
    let mut var_plus = mean_var * (nf - 1.0) / nf;
    if m > 1 {
        var_plus += variance(&chains.iter().map(|c| mean(c)).collect::<Vec<_>>());
    }
    let rho = |t: usize| 1.0 - (mean_var - mean_acov(t)) / var_plus;
    let mut rho_hat = vec![0.0; n];
    let (mut even, mut odd) = (1.0, rho(1));
    rho_hat[0] = even;
    rho_hat[1] = odd;
    // Geyer's initial positive sequence: sums of adjacent pairs while they are positive.
    let mut t = 1;
    while t < n - 3 && even + odd > 0.0 {
        even = rho(t + 1);
        odd = rho(t + 2);
        if even + odd >= 0.0 {
            rho_hat[t + 1] = even;
            rho_hat[t + 2] = odd;
        }
        t += 2;
    }
    let max_t = t - 2;
    if even > 0.0 {
        rho_hat[max_t + 1] = even;
    }
    // Geyer's initial monotone sequence: pair sums may not increase.
    let mut t = 1;
    while t + 2 <= max_t {
        if rho_hat[t + 1] + rho_hat[t + 2] > rho_hat[t - 1] + rho_hat[t] {
            rho_hat[t + 1] = (rho_hat[t - 1] + rho_hat[t]) / 2.0;
            rho_hat[t + 2] = rho_hat[t + 1];
        }
        t += 2;
    }
    let s = (m * n) as f64;
    let tau = -1.0 + 2.0 * rho_hat[..=max_t].iter().sum::<f64>() + rho_hat[max_t + 1];
    s / tau.max(1.0 / s.log10())
}

/// Linear-interpolation quantile of all draws (numpy's default), p ∈ [0, 1].
fn quantile(chains: &[Vec<f64>], p: f64) -> f64 {
    let mut all: Vec<f64> = chains.iter().flatten().copied().collect();
    all.sort_by(f64::total_cmp);
    let h = p * (all.len() - 1) as f64;
    let (lo, frac) = (h.floor() as usize, h - h.floor());
    if lo + 1 < all.len() { all[lo] + frac * (all[lo + 1] - all[lo]) } else { all[lo] }
}

/// R̂, bulk and tail ESS, mean and MCSE of one coordinate over `chains` (each at least 4 draws; with fewer than 10 the split halves hold fewer than 5 and every ESS and the MCSE are NaN, "not yet").
pub fn convergence(chains: &[Vec<f64>]) -> Convergence {
    let split = split_chains(chains);
    let bulk_rhat = basic_rhat(&rank_normalise(&split));
    let median = quantile(chains, 0.5);
    let folded: Vec<Vec<f64>> = chains.iter().map(|c| c.iter().map(|v| (v - median).abs()).collect()).collect();
    let tail_rhat = basic_rhat(&rank_normalise(&split_chains(&folded)));
    let indicator = |q: f64| -> Vec<Vec<f64>> { split.iter().map(|c| c.iter().map(|&v| if v <= q { 1.0 } else { 0.0 }).collect()).collect() };
    let ess_tail = ess(&indicator(quantile(chains, 0.05))).min(ess(&indicator(quantile(chains, 0.95))));
    let all: Vec<f64> = chains.iter().flatten().copied().collect();
    Convergence {
        rhat: bulk_rhat.max(tail_rhat),
        ess_bulk: ess(&rank_normalise(&split)),
        ess_tail,
        mean: mean(&all),
        mcse_mean: (variance(&all) / ess(&split)).sqrt(),
    }
}

/// Φ⁻¹(p): P. J. Acklam's rational approximation (2003; relative error < 1.15e-9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.383577518672690e2, -3.066479806614716e1, 2.506628277459239];
    const B: [f64; 5] = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
    const C: [f64; 6] = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
    const D: [f64; 4] = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let tail = |q: f64| (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0);
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}
