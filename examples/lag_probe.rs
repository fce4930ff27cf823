//! Do linear regression's replicas err because their particles lag the annealed targets by a
//! run-dependent amount (docs/sgais.md §15, "Is the flag true", stop 47)? SGAIS on linear regression
//! at the class preset's sizes, many seeds; at every chunk end it compares the weighted particles
//! with the exact posterior of the prefix ((TRUTH.5): precision A, mean m): the mean's offset
//! d² = (μ̂ − m)ᵀA(μ̂ − m) (≈ dim/ESS for particles drawn from the posterior), and the spread's
//! ratio tr(AΣ̂)/dim (1 for the right width). Over the seeds it prints the means of both and their
//! correlation with the run's error log Ẑ − log Z, and the error's sd against the predicted sd.
//!
//! `cargo run --release --example lag_probe -- SEEDS [name=value ...]`, e.g. `-- 100 n_points=1500
//! chunk_size=500 batch_size=500`.

use nalgebra::{DMatrix, DVector};
use sgviz::model::linear::{self, LinearRegression};
use sgviz::params::ParamValues;
use sgviz::sgais::job::resolve;
use sgviz::sgais::run::SgaisRun;

/// (error of log Ẑ, predicted variance, d², width ratio, mean d² over the chunk's temperatures) at one chunk end.
type Probe = (f64, f64, f64, f64, f64);

fn exact_model(settings: &[(String, String)]) -> LinearRegression {
    let get = |name: &str, default: f64| settings.iter().find(|(k, _)| k == name).map_or(default, |(_, v)| v.parse().expect("number"));
    let overrides = [
        ("n_points".to_string(), get("n_points", 1500.0)),
        ("n_features".to_string(), get("n_features", 5.0)),
        ("noise_sd".to_string(), get("noise_sd", 1.0)),
        ("prior_sd".to_string(), 1.0),
        ("data_seed".to_string(), get("data_seed", 1.0)),
    ];
    LinearRegression::synthetic(&ParamValues::resolve(linear::PARAMS, &overrides).expect("params"))
}

/// Weighted mean and covariance of the particles.
fn weighted_moments(particles: &[Vec<f64>], log_weights: &[f64]) -> (DVector<f64>, DMatrix<f64>) {
    let top = log_weights.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = log_weights.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = w.iter().sum();
    let dim = particles[0].len();
    let mut mean = DVector::zeros(dim);
    for (p, wi) in particles.iter().zip(&w) {
        mean += DVector::from_column_slice(p) * (wi / total);
    }
    let mut cov = DMatrix::zeros(dim, dim);
    for (p, wi) in particles.iter().zip(&w) {
        let x = DVector::from_column_slice(p) - &mean;
        cov += &x * x.transpose() * (wi / total);
    }
    (mean, cov)
}

fn probe_seed(settings: &[(String, String)], exact: &LinearRegression, seed: u64) -> Vec<Probe> {
    let resolved = resolve("linreg", None, settings, None).expect("valid settings");
    let n = resolved.model.n_data();
    let mut run = SgaisRun::new(resolved.model, resolved.config, n, seed);
    let mut probes = Vec::new();
    let mut tempered = Vec::new();
    while *run.status() == sgviz::sgais::run::RunStatus::Running {
        let finished = run.advance(1);
        if let Some((range, lambda)) = run.annealing_state() {
            let (precision, m) = tempered_posterior(exact, range, lambda);
            tempered.push(offset_and_width(&run, &precision, &m).0);
        }
        for record in finished {
            let (precision, m) = exact.posterior_after(record.n);
            let (d2, width) = offset_and_width(&run, &precision, &m);
            tempered.push(d2);
            let lag = mean(&tempered);
            tempered.clear();
            probes.push((record.log_z - exact.log_evidence_after(record.n), record.log_z_var, d2, width, lag));
        }
    }
    probes
}

/// The exact annealed target of the chunk `range` at λ: precision and right-hand side are linear
/// in λ between the posteriors before and after the chunk.
fn tempered_posterior(exact: &LinearRegression, range: std::ops::Range<usize>, lambda: f64) -> (DMatrix<f64>, DVector<f64>) {
    let (p0, m0) = exact.posterior_after(range.start);
    let (p1, m1) = exact.posterior_after(range.end);
    let (b0, b1) = (&p0 * &m0, &p1 * &m1);
    let precision = &p0 + (&p1 - &p0) * lambda;
    let rhs = &b0 + (&b1 - &b0) * lambda;
    let mean = precision.clone().cholesky().expect("SPD").solve(&rhs);
    (precision, mean)
}

/// d² of the weighted particles' mean from m under `precision`, and tr(AΣ̂)/dim.
fn offset_and_width(run: &SgaisRun, precision: &DMatrix<f64>, m: &DVector<f64>) -> (f64, f64) {
    let (mu, cov) = weighted_moments(run.particles(), run.log_weights());
    let offset = &mu - m;
    ((offset.transpose() * precision * &offset)[(0, 0)], (precision * &cov).trace() / m.len() as f64)
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn correlation(x: &[f64], y: &[f64]) -> f64 {
    let (mx, my) = (mean(x), mean(y));
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds: u64 = args.get(1).map_or(40, |s| s.parse().expect("SEEDS"));
    let settings: Vec<(String, String)> = args.iter().skip(2).map(|pair| pair.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).expect("name=value")).collect();
    let exact = exact_model(&settings);
    let runs: Vec<Vec<Probe>> = (1..=seeds).map(|seed| probe_seed(&settings, &exact, seed)).collect();
    for c in 0..runs[0].len() {
        let column = |f: fn(&Probe) -> f64| runs.iter().map(|r| f(&r[c])).collect::<Vec<f64>>();
        let (error, var, d2, width, lag) = (column(|p| p.0), column(|p| p.1), column(|p| p.2), column(|p| p.3), column(|p| p.4));
        let lag_sum: Vec<f64> = runs.iter().map(|r| r[..=c].iter().map(|p| p.4).sum()).collect();
        let m = mean(&error);
        let sd = (error.iter().map(|e| (e - m).powi(2)).sum::<f64>() / (error.len() - 1) as f64).sqrt();
        let previous_d2: Vec<f64> = if c > 0 { runs.iter().map(|r| r[c - 1].2).collect() } else { d2.clone() };
        println!(
            "chunk {c}: error mean {m:+.3} sd {sd:.3} (predicted {:.3}); d² mean {:.3}, corr(error, d²) {:+.2}, corr(error, previous d²) {:+.2}; width mean {:.3}, corr(error, width) {:+.2}; over the chunk's temperatures d² mean {:.3}, corr(error, it) {:+.2}, corr(error, its sum so far) {:+.2}",
            mean(&var).sqrt(),
            mean(&d2),
            correlation(&error, &d2),
            correlation(&error, &previous_d2),
            mean(&width),
            correlation(&error, &width),
            mean(&lag),
            correlation(&error, &lag),
            correlation(&error, &lag_sum)
        );
    }
}
