//! A measuring probe for the SGHMC law's failure share (docs/diagnostics.md §7, s46 addendum):
//! `SGVIZ_TAIL=1` (or `=zero`, a start at the mean) prints the law's prediction against 2,000
//! simulated runs of its own linear recursion (x' = Ax + w, 5,000 samples each) at lesson
//! settings; `SGVIZ_TAIL_REAL=η` runs the real chain (SGHMC, n = 100, κ = 0.2; with
//! `SGVIZ_TAIL_STEP3=1` n = 10, β̂ = 0, κ derived) over `SGVIZ_TAIL_RUNS` seeds;
//! `SGVIZ_TAIL_REPLICA=η` a plain re-implementation of that update at n = N (exact gradient),
//! seeds 1–4,000 in blocks of 200. A probe, not a test: it measures and prints, asserts nothing.
//!
//! `SGVIZ_TAIL=1 cargo run --release --example law_tail` (and the other variables likewise)

use nalgebra::{DMatrix, DVector};
use sgviz::chain::{Chain, ChainConfig};
use sgviz::diagnostics::Moments;
use sgviz::rng::{chain_rng, fill_standard_normal};

/// The Gaussian toy's exact moments (its closed form, src/truth.rs).
fn gaussian_truth() -> Moments {
    let spec = sgviz::registry::target("gaussian").unwrap();
    let model = (spec.build)(&sgviz::params::ParamValues::defaults(spec.params), None).unwrap();
    sgviz::truth::truth_for(model.as_ref()).moments.expect("the Gaussian's closed form")
}

fn main() {
    tail();
    real();
    replica();
}

fn simulate_share(sampler: &str, settings: &[(&str, f64)], runs: usize) {
    let config = settings.iter().fold(ChainConfig::new("gaussian", sampler, 1), |c, (n, v)| c.with(n, v));
    let c = Chain::new(&config).unwrap();
    let law = sgviz::promise::drawn_law(sampler, c.sampler_params(), c.model()).unwrap();
    let pred = sgviz::promise::Predictor::new(sampler, c.model()).unwrap().predict(c.sampler_params());
    let truth = &gaussian_truth().cov;
    let (lc, m) = law.chain.clone().unwrap();
    let (n, d) = (m.nrows(), lc.dim);
    let a = lc.transition.clone();
    let q = &m - &a * &m * a.transpose();
    let qe = q.clone().symmetric_eigen();
    let qr = &qe.eigenvectors * DMatrix::from_diagonal(&qe.eigenvalues.map(|l| l.max(0.0).sqrt()));
    let me = m.clone().symmetric_eigen();
    let mr = &me.eigenvectors * DMatrix::from_diagonal(&me.eigenvalues.map(|l| l.max(0.0).sqrt()));
    let mut rng = chain_rng(77);
    let t = 5000;
    let mut z = vec![0.0; n];
    let (mut over, mut sum) = (0, 0.0);
    let mut e2s = vec![];
    for _ in 0..runs {
        fill_standard_normal(&mut rng, &mut z);
        let mut x = &mr * DVector::from_column_slice(&z);
        if std::env::var("SGVIZ_TAIL").unwrap() == "zero" { x *= 0.0; }
        let mut s1 = DVector::zeros(d);
        let mut s2 = DMatrix::zeros(d, d);
        for _ in 0..t {
            fill_standard_normal(&mut rng, &mut z);
            x = &a * &x + &qr * DVector::from_column_slice(&z);
            let th = x.rows(0, d).into_owned();
            s1 += &th;
            s2 += &th * th.transpose();
        }
        let mean = &s1 / t as f64;
        let cov = &s2 / t as f64 - &mean * mean.transpose();
        let mut num = 0.0;
        let mut den = 0.0;
        for i in 0..d { for j in 0..d { num += (cov[(i, j)] - truth[i][j]).abs(); den += truth[i][j].abs(); } }
        let e2 = num / den;
        sum += e2;
        e2s.push(e2);
        over += usize::from(e2 > 0.3);
    }
    e2s.sort_by(f64::total_cmp);
    println!("TAIL {sampler} {settings:?}: law {pred:?}\n   simulated {runs} runs: share {:.3}, mean {:.3}, median {:.3}", over as f64 / runs as f64, sum / runs as f64, e2s[runs / 2]);
}

fn tail() {
    if std::env::var("SGVIZ_TAIL").is_err() { return; }
    for eta in [0.004, 0.00499, 0.0055, 0.0065] {
        simulate_share("sghmc", &[("batch_size", 100.0), ("friction", 0.2), ("sghmc_lr", eta)], 2000);
    }
    simulate_share("sghmc", &[("batch_size", 10.0), ("beta_hat", 0.0), ("sghmc_lr", 9.233e-4)], 2000);
    simulate_share("sgld", &[], 2000);
}

fn real() {
    let Ok(eta) = std::env::var("SGVIZ_TAIL_REAL") else { return };
    let eta: f64 = eta.parse().unwrap();
    let truth = gaussian_truth();
    let (mut over, mut e2s) = (0, vec![]);
    let mut pooled = [[0.0; 2]; 2];
    let runs: u64 = std::env::var("SGVIZ_TAIL_RUNS").map_or(200, |r| r.parse().unwrap());
    let step3 = std::env::var("SGVIZ_TAIL_STEP3").is_ok();
    for seed in 1..=runs {
        let config = ChainConfig::new("gaussian", "sghmc", seed).with("sghmc_lr", eta);
        let config = if step3 { config.with("batch_size", 10.0).with("beta_hat", 0.0) } else { config.with("batch_size", 100.0).with("friction", 0.2) };
        let mut c = Chain::new(&config).unwrap();
        if seed == 1 { println!("params {:?}", c.sampler_params()); }
        while c.promise_samples() < 5000 { c.run(5000 - c.promise_samples()); }
        let m = c.moments();
        for a in 0..2 { for b in 0..2 { pooled[a][b] += (m.cov[a][b] + (m.mean[a] - truth.mean[a]) * (m.mean[b] - truth.mean[b])) / runs as f64; } }
        let mut num = 0.0; let mut den = 0.0;
        for a in 0..2 { for b in 0..2 { num += (m.cov[a][b] - truth.cov[a][b]).abs(); den += truth.cov[a][b].abs(); } }
        e2s.push(num / den);
        over += usize::from(num / den > 0.3);
        if seed % 200 == 0 { println!("BLOCK to {seed}: {over}"); }
    }
    e2s.sort_by(f64::total_cmp);
    println!("REAL η {eta}: {over}/{runs}, median {:.3}, mean {:.3}, pooled {pooled:?}, truth {:?}", e2s[runs as usize / 2], e2s.iter().sum::<f64>() / runs as f64, truth.cov);
}

fn replica() {
    let Ok(eta) = std::env::var("SGVIZ_TAIL_REPLICA") else { return };
    let eta: f64 = eta.parse().unwrap();
    let truth = gaussian_truth().cov;
    let p = nalgebra::Matrix2::new(1.0, 0.9, 0.9, 1.0).try_inverse().unwrap();
    let (alpha, sd) = (0.2, (2.0 * 0.2 * eta).sqrt());
    for (lo, hi) in (0..20u64).map(|b| (1 + 200 * b, 200 * (b + 1))) {
        let mut over = 0;
        let mut sum = 0.0;
        for seed in lo..=hi {
            let mut rng = chain_rng(seed);
            let (mut th, mut v) = ([0.0f64; 2], [0.0f64; 2]);
            let (mut s1, mut s2) = ([0.0; 2], [[0.0; 2]; 2]);
            for _ in 0..5000 {
                let g = [-(p[(0, 0)] * th[0] + p[(0, 1)] * th[1]), -(p[(1, 0)] * th[0] + p[(1, 1)] * th[1])];
                for j in 0..2 {
                    v[j] += eta * g[j] - alpha * v[j] + sd * sgviz::rng::standard_normal(&mut rng);
                    th[j] += v[j];
                }
                for a in 0..2 { s1[a] += th[a]; for b in 0..2 { s2[a][b] += th[a] * th[b]; } }
            }
            let mut num = 0.0;
            for a in 0..2 { for b in 0..2 { num += (s2[a][b] / 5000.0 - s1[a] * s1[b] / 25e6 - truth[a][b]).abs(); } }
            let e2 = num / 3.8;
            sum += e2;
            over += usize::from(e2 > 0.3);
        }
        println!("REPLICA η {eta} seeds {lo}–{hi}: {over} over, mean {:.3}", sum / (hi - lo + 1) as f64);
    }
}
