//! Rank-normalised split-R̂, bulk/tail ESS and MCSE (Vehtari et al. 2021) against a separate,
//! deliberately naive implementation written here from the paper and Stan's definitions (ranks by
//! counting, Φ⁻¹ by bisection on a series for erf, Geyer's sequence as running minima of pair
//! sums), against hand-worked values, and on real chains: 4 chains started in the two modes of the
//! Welling–Teh mixture give R̂ > 1.1; 4 over-dispersed chains on the Gaussian give R̂ < 1.01; and
//! the same through the page's entry point, `Lab::multichain_json`.

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;
use sgviz::multichain::{diagnose, run_chains};
use sgviz::rhat::{basic_rhat, convergence, ess, rank_normalise, split_chains};

// ---- the separate reference -------------------------------------------------------------------

fn r_mean(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v;
    }
    s / x.len() as f64
}

fn r_var(x: &[f64]) -> f64 {
    let m = r_mean(x);
    let mut s = 0.0;
    for v in x {
        s += (v - m).powi(2);
    }
    s / (x.len() - 1) as f64
}

/// Φ(x) = ½(1 + erf(x/√2)), erf by its Maclaurin series (exact to ~1e-14 for |x| < 6).
fn r_phi(x: f64) -> f64 {
    let z = x / std::f64::consts::SQRT_2;
    let (mut term, mut sum, mut n) = (z, z, 0.0);
    while term.abs() > 1e-17 * sum.abs().max(1e-300) && n < 400.0 {
        n += 1.0;
        term *= -z * z / n;
        sum += term / (2.0 * n + 1.0);
    }
    0.5 * (1.0 + 2.0 / std::f64::consts::PI.sqrt() * sum)
}

fn r_probit(p: f64) -> f64 {
    let (mut lo, mut hi) = (-9.0, 9.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if r_phi(mid) < p { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

fn r_split(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    for c in chains {
        let h = c.len() / 2;
        out.push(c[0..h].to_vec());
        out.push(c[c.len() - h..].to_vec());
    }
    out
}

/// Average ranks by counting (O(S²)), then z = Φ⁻¹((r − 3/8)/(S + 1/4)).
fn r_rank_normalise(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let all: Vec<f64> = chains.concat();
    let s = all.len() as f64;
    chains
        .iter()
        .map(|c| {
            c.iter()
                .map(|&x| {
                    let below = all.iter().filter(|&&y| y < x).count() as f64;
                    let equal = all.iter().filter(|&&y| y == x).count() as f64;
                    r_probit((below + (equal + 1.0) / 2.0 - 0.375) / (s + 0.25))
                })
                .collect()
        })
        .collect()
}

/// Paper eqs. 1–4: var⁺ = (N−1)/N · W + B/N, R̂ = √(var⁺/W).
fn r_rhat(chains: &[Vec<f64>]) -> f64 {
    let n = chains[0].len() as f64;
    let m = chains.len() as f64;
    let means: Vec<f64> = chains.iter().map(|c| r_mean(c)).collect();
    let grand = r_mean(&means);
    let b = n / (m - 1.0) * means.iter().map(|x| (x - grand).powi(2)).sum::<f64>();
    let w = chains.iter().map(|c| r_var(c)).sum::<f64>() / m;
    (((n - 1.0) / n * w + b / n) / w).sqrt()
}

/// Stan's ESS: ρ̂_t = 1 − (W − mean_m γ̂_{t,m}) / var⁺ (γ̂ the biased autocovariance), pairs
/// Γ_k = ρ̂_2k + ρ̂_2k+1 kept while positive, made monotone by running minima, τ̂ = −1 + 2ΣΓ + the
/// first dropped pair's even term when it is positive.
fn r_ess(chains: &[Vec<f64>]) -> f64 {
    let n = chains[0].len();
    let m = chains.len() as f64;
    let gamma = |t: usize| -> f64 {
        let mut total = 0.0;
        for c in chains {
            let mu = r_mean(c);
            let mut s = 0.0;
            for i in 0..n - t {
                s += (c[i] - mu) * (c[i + t] - mu);
            }
            total += s / n as f64;
        }
        total / m
    };
    let w = chains.iter().map(|c| r_var(c)).sum::<f64>() / m;
    let means: Vec<f64> = chains.iter().map(|c| r_mean(c)).collect();
    let var_plus = w * (n as f64 - 1.0) / n as f64 + r_var(&means);
    let rho = |t: usize| if t == 0 { 1.0 } else { 1.0 - (w - gamma(t)) / var_plus };
    let mut pairs = vec![rho(0) + rho(1)];
    let mut k = 1;
    let tail_even;
    loop {
        if 2 * k + 1 > n - 2 {
            panic!("the reference needs chains long enough for a negative pair");
        }
        let (even, odd) = (rho(2 * k), rho(2 * k + 1));
        if even + odd < 0.0 {
            tail_even = even.max(0.0);
            break;
        }
        pairs.push(even + odd);
        k += 1;
    }
    for i in 1..pairs.len() {
        pairs[i] = pairs[i].min(pairs[i - 1]);
    }
    let tau = -1.0 + 2.0 * pairs.iter().sum::<f64>() + tail_even;
    let s = m * n as f64;
    s / tau.max(1.0 / s.log10())
}

fn r_quantile(chains: &[Vec<f64>], p: f64) -> f64 {
    let mut all = chains.concat();
    all.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let h = p * (all.len() - 1) as f64;
    let i = h.floor() as usize;
    all[i] + (h - i as f64) * (all[(i + 1).min(all.len() - 1)] - all[i])
}

/// Four AR(1) chains x_t = φ x_{t−1} + e_t with different offsets (an LCG and Box–Muller of our own).
fn ar_chains(n: usize, phi: f64, offsets: &[f64], seed: u64) -> Vec<Vec<f64>> {
    let mut state = seed;
    let mut uniform = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    offsets
        .iter()
        .map(|&offset| {
            let mut x = 0.0;
            (0..n)
                .map(|_| {
                    let e = (-2.0 * uniform().ln()).sqrt() * (std::f64::consts::TAU * uniform()).cos();
                    x = phi * x + e;
                    x + offset
                })
                .collect()
        })
        .collect()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-12)
}

// ---- tests ---------------------------------------------------------------------------------------

#[test]
fn hand_worked_values() {
    // Chains (1, 2, 3) and (4, 5, 6): W = 1, B = 3 · var(2, 5) = 13.5, R̂ = √(2/3 + 4.5).
    let rhat = basic_rhat(&[vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]]);
    assert!((rhat - (2.0f64 / 3.0 + 4.5).sqrt()).abs() < 1e-12, "{rhat}");
    // Splitting drops the middle draw of an odd length.
    assert_eq!(split_chains(&[vec![1.0, 2.0, 3.0, 4.0, 5.0]]), vec![vec![1.0, 2.0], vec![4.0, 5.0]]);
    // Ranks with a tie: draws (3, 1, 3, 2) have ranks (3.5, 1, 3.5, 2), S = 4.
    let z = rank_normalise(&[vec![3.0, 1.0], vec![3.0, 2.0]]);
    let expected = |r: f64| r_probit((r - 0.375) / 4.25);
    for (got, r) in [(z[0][0], 3.5), (z[0][1], 1.0), (z[1][0], 3.5), (z[1][1], 2.0)] {
        assert!((got - expected(r)).abs() < 1e-8, "rank {r}: {got} vs {}", expected(r));
    }
    // Independent draws: ESS of white noise is close to S (within its sampling spread).
    let white = ar_chains(1000, 0.0, &[0.0; 4], 9);
    let e = ess(&white);
    assert!((e / 4000.0 - 1.0).abs() < 0.15, "white-noise ESS {e}");
}

#[test]
fn agrees_with_the_separate_implementation() {
    for (phi, offsets, seed) in [(0.5, [0.0, 0.0, 0.0, 0.0], 1), (0.9, [0.0, 0.3, -0.2, 0.1], 2), (0.7, [0.0, 0.0, 0.25, 0.25], 3)] {
        let chains = ar_chains(600, phi, &offsets, seed);
        let got = convergence(&chains);
        let split = r_split(&chains);
        let z = r_rank_normalise(&split);
        let median = r_quantile(&chains, 0.5);
        let folded: Vec<Vec<f64>> = chains.iter().map(|c| c.iter().map(|v| (v - median).abs()).collect()).collect();
        let rhat = r_rhat(&z).max(r_rhat(&r_rank_normalise(&r_split(&folded))));
        let indicator = |q: f64| -> Vec<Vec<f64>> { split.iter().map(|c| c.iter().map(|&v| f64::from(u8::from(v <= q))).collect()).collect() };
        let ess_tail = r_ess(&indicator(r_quantile(&chains, 0.05))).min(r_ess(&indicator(r_quantile(&chains, 0.95))));
        let all = chains.concat();
        let mcse = (r_var(&all) / r_ess(&split)).sqrt();
        let what = format!("φ = {phi}, offsets {offsets:?}: {got:?}");
        assert!(close(got.rhat, rhat, 1e-7), "R̂ {} vs {rhat}; {what}", got.rhat);
        assert!(close(got.ess_bulk, r_ess(&z), 1e-6), "bulk ESS {} vs {}; {what}", got.ess_bulk, r_ess(&z));
        assert!(close(got.ess_tail, ess_tail, 1e-9), "tail ESS {} vs {ess_tail}; {what}", got.ess_tail);
        assert!(close(got.mean, r_mean(&all), 1e-12), "{what}");
        assert!(close(got.mcse_mean, mcse, 1e-9), "MCSE {} vs {mcse}; {what}", got.mcse_mean);
    }
}

#[test]
fn a_large_r_hat_agrees_with_the_separate_implementation() {
    // Chains 3 sd apart: R̂ ≫ 1 (their ESS sequences do not turn negative: only R̂ is compared).
    let chains = ar_chains(600, 0.7, &[0.0, 0.0, 3.0, 3.0], 3);
    let got = convergence(&chains).rhat;
    let z = r_rank_normalise(&r_split(&chains));
    let median = r_quantile(&chains, 0.5);
    let folded: Vec<Vec<f64>> = chains.iter().map(|c| c.iter().map(|v| (v - median).abs()).collect()).collect();
    let rhat = r_rhat(&z).max(r_rhat(&r_rank_normalise(&r_split(&folded))));
    assert!(rhat > 1.5 && close(got, rhat, 1e-7), "{got} vs {rhat}");
}

#[test]
fn chains_that_differ_only_in_scale_are_caught_by_the_folded_r_hat() {
    // Same centre, two chains three times wider: the bulk R̂ sees little, the folded R̂ a lot.
    let mut chains = ar_chains(600, 0.5, &[0.0; 4], 4);
    for c in &mut chains[2..] {
        for v in c.iter_mut() {
            *v *= 3.0;
        }
    }
    let got = convergence(&chains).rhat;
    let median = r_quantile(&chains, 0.5);
    let folded: Vec<Vec<f64>> = chains.iter().map(|c| c.iter().map(|v| (v - median).abs()).collect()).collect();
    let (bulk, tail) = (r_rhat(&r_rank_normalise(&r_split(&chains))), r_rhat(&r_rank_normalise(&r_split(&folded))));
    assert!(tail > 1.1 && bulk < tail, "bulk {bulk}, folded {tail}");
    assert!(close(got, tail, 1e-7), "{got} vs {tail}");
}

/// Steps per chain: the first 2,000 steps each (what the page draws in 2 s at its default speed).
const MIXTURE_STEPS: u64 = 2_000;

#[test]
fn four_chains_started_in_the_two_modes_of_the_mixture_do_not_agree() {
    // Modes near (0, 1) and (1, −1) (Welling & Teh 2011 §5.1; label swap θ ↔ (θ₁ + θ₂, −θ₂)).
    let config = ChainConfig::new("mixture", "sgld", 21);
    let starts = vec![vec![0.0, 1.0], vec![0.0, 1.0], vec![1.0, -1.0], vec![1.0, -1.0]];
    let draws = run_chains(&config, &starts, MIXTURE_STEPS).unwrap();
    let theta2 = convergence(&draws[1]);
    assert!(theta2.rhat > 1.1, "θ₂: {theta2:?}");
    // The separate implementation says the same.
    let z = r_rank_normalise(&r_split(&draws[1]));
    assert!(r_rhat(&z) > 1.1);
}

#[test]
fn four_over_dispersed_chains_on_the_gaussian_agree() {
    let config = ChainConfig::new("gaussian", "sgld", 5);
    let result = diagnose(&config, 4, 20_000).unwrap();
    for (j, c) in result.iter().enumerate() {
        assert!(c.rhat < 1.01, "θ{}: {c:?}", j + 1);
        // The truth is N(0, Σ) with unit variances: the mean within 4 MCSE of 0.
        assert!(c.mean.abs() < 4.0 * c.mcse_mean, "θ{}: {c:?}", j + 1);
    }
}

/// The page's "Run 4 chains" runs 4 chains as long as the run on screen. 20 s of class time: its
/// speed (20 steps a frame) × 1,200 frames.
const CLASS_STEPS: u64 = 20 * 1_200;

fn page_run(target: &str, seed: u64, steps: u64) -> serde_json::Value {
    let lab = Lab::new(ChainConfig::new(target, "sgld", seed), 200, 200, 1.0).unwrap();
    lab.multichain_json(4, steps).unwrap()
}

#[test]
fn the_page_run_on_the_mixture_early_on_shows_its_over_dispersed_chains_disagree() {
    // 2,000 steps: 100 frames, under 2 s of the page's default speed.
    let result = page_run("mixture", 1, 2_000);
    let worst = result["coordinates"].as_array().unwrap().iter().map(|c| c["rhat"].as_f64().unwrap()).fold(0.0, f64::max);
    assert!(worst > 1.1, "{result}");
}

#[test]
fn the_page_run_on_the_gaussian_agrees_and_its_means_are_within_their_mcse_of_the_truth() {
    let result = page_run("gaussian", 1, CLASS_STEPS);
    assert_eq!(result["chains"], 4);
    for c in result["coordinates"].as_array().unwrap() {
        let (rhat, mean, mcse) = (c["rhat"].as_f64().unwrap(), c["mean"].as_f64().unwrap(), c["mcse_mean"].as_f64().unwrap());
        assert!(rhat < 1.01, "{c}");
        // The truth is N(0, Σ) (closed form): the mean within 4 MCSE of 0.
        assert!(mean.abs() < 4.0 * mcse, "{c}");
        assert!(c["ess_bulk"].as_f64().unwrap() > 100.0 && c["ess_tail"].as_f64().unwrap() > 100.0, "{c}");
    }
}

#[test]
fn the_page_run_refuses_a_single_chain_and_names_the_setting() {
    let lab = Lab::new(ChainConfig::new("gaussian", "sgld", 1), 200, 200, 1.0).unwrap();
    assert!(lab.multichain_json(1, CLASS_STEPS).unwrap_err().starts_with("chains:"));
}

#[test]
fn the_starts_are_spread_over_the_view_inside_it() {
    let chain = sgviz::chain::Chain::new(&ChainConfig::new("mixture", "sgld", 1)).unwrap();
    let view = chain.model().view();
    let (w, h) = (view.x_max - view.x_min, view.y_max - view.y_min);
    let starts = sgviz::multichain::over_dispersed_starts(&chain, 4);
    assert_eq!(starts.len(), 4);
    for (i, a) in starts.iter().enumerate() {
        assert!(a[0] > view.x_min && a[0] < view.x_max && a[1] > view.y_min && a[1] < view.y_max, "{a:?} outside {view:?}");
        for b in &starts[i + 1..] {
            // Over-dispersed: every two starts at least a quarter of the view apart.
            assert!((a[0] - b[0]).hypot(a[1] - b[1]) >= 0.25 * w.min(h), "{a:?} and {b:?} in {view:?}");
        }
    }
}

/// Issue 23, sixteenth pass: R̂ barely moves when every draw is shifted by 10⁸ (it depends on the
/// draws only through their deviations). Chains (0.1, 0.7, 0.2, 0.5) and (0.3, 0.9, 0.6, 0.4) by
/// hand: means 0.375 and 0.55, chain variances 0.2275/3 and 0.21/3, so W = 0.4375/6; B = 4 ·
/// 2 · 0.0875² = 0.06125; R̂² = (¾W + B/4)/W = 0.07/(0.4375/6) = 0.96. Shifted by 10⁸ the draws
/// are rounded to 1.5·10⁻⁸, which moves R̂ by about 10⁻⁸; a variance whose terms are (v + m)(v − m)
/// (Σv² − n·m² in disguise) keeps 2m·Σ(v − m), with m's rounding, and is off by far more.
#[test]
fn r_hat_barely_moves_when_every_draw_is_shifted_by_1e8() {
    for shift in [0.0, 1e8] {
        let chains: Vec<Vec<f64>> = [[0.1, 0.7, 0.2, 0.5], [0.3, 0.9, 0.6, 0.4]].iter().map(|c| c.iter().map(|v| v + shift).collect()).collect();
        let r = basic_rhat(&chains);
        assert!((r - 0.96f64.sqrt()).abs() < 1e-6, "shift {shift}: R̂ = {r}, by hand √0.96 = {}", 0.96f64.sqrt());
    }
}

/// Issue 23, sixteenth pass: with fewer than 4 draws per chain there is no autocorrelation
/// sequence to sum (Geyer's pairs need lags 0–3), and the ESS is "not yet" (NaN), not a number.
#[test]
fn three_draws_per_chain_have_no_ess() {
    assert!(ess(&[vec![0.0, 1.0, 2.0], vec![2.0, 0.5, 1.0]]).is_nan());
}
