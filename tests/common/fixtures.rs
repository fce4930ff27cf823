//! Committed reference fixtures (issue 23, CI time, tenth round; BENCHMARKS.md "CI time, tenth
//! round (native)"). The long exact MALA references of the D > 2 posteriors that several CI tests
//! compare against (tests/common's `reference_with`: pairings, sgld_defaults, sgfs_fisher_law,
//! sgfs_d_reach; tests/bouncy_long.rs's batch-means references) are stored in
//! tests/fixtures/mala_references.json with their provenance (generator, seed, lengths, the MCSE
//! rows, the CPU they took) and read by `make test` instead of being recomputed in every test
//! process. They are references, not the code under test: the samplers the tests judge still run.
//!
//! Two guards keep a fixture honest:
//! - in `make test`, every read checks the stored log density at the stored mean against the model
//!   built today (relative 10⁻⁹): a changed target (data, prior, defaults) fails at once, naming
//!   the fixture to regenerate;
//! - in `make soak`, tests/reference_fixtures.rs regenerates every fixture with its own generator
//!   and seed and fails if any mean or covariance entry moved by more than z·√2·MCSE (z the
//!   Bonferroni normal quantile at a family-wise level of 10⁻³ over all entries): a drifted
//!   reference generator or model. `SGVIZ_WRITE_FIXTURES=1` writes the regenerated file instead.

#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use sgviz::diagnostics::Moments;
use sgviz::model::Model;
use sgviz::registry;
use sgviz::truth::ReferenceRun;

/// The fixture file, from the package root.
pub const PATH: &str = "tests/fixtures/mala_references.json";

/// One stored reference.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Fixture {
    /// The key the tests look it up by (the same key as their `cached_rows` files).
    pub key: String,
    pub generator: String,
    pub target: String,
    pub settings: String,
    pub seed: u64,
    pub warm_up: u64,
    pub samples: u64,
    /// What the rows are, in order, and how their MCSEs were estimated.
    pub rows_are: String,
    pub cpu_seconds: f64,
    pub commit: String,
    /// log π(mean) of the model the rows were computed on (unnormalised, as `Model::log_density`).
    pub log_density_at_mean: f64,
    pub rows: Vec<Vec<f64>>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct FixtureFile {
    pub about: String,
    pub references: Vec<Fixture>,
}

/// A parameter value: a number set as is, or text parsed by the parameter's spec.
#[derive(Clone, Copy, Debug)]
pub enum Value {
    Number(f64),
    Text(&'static str),
}

/// How a fixture is generated.
#[derive(Clone, Copy, Debug)]
pub enum Generator {
    /// tests/common's `reference_with`: src/truth.rs `ReferenceRun`, seed 7, 20,000 warm-up
    /// steps, `samples` recorded, its own batch-means MCSEs of the means and variances.
    Run { samples: u64 },
    /// tests/bouncy_long.rs's reference: `ReferenceRun` seed 0x5eed, 64 batch means of every mean
    /// and covariance entry.
    Batches { warm_up: u64, sampling: u64 },
}

/// One reference the CI tests read from the file.
#[derive(Clone, Debug)]
pub struct Spec {
    pub target: &'static str,
    pub settings: &'static [(&'static str, Value)],
    pub generator: Generator,
}

const BREAST_CANCER_3: &[(&str, Value)] = &[("dataset", Value::Text("breast_cancer")), ("n_features", Value::Text("3")), ("prior_sd", Value::Text("2.5"))];

/// Every fixture: the D > 2 references `make test` computed more than once or for long (measured
/// in BENCHMARKS.md "CI time, tenth round (native)").
pub fn specs() -> Vec<Spec> {
    let run = |target, settings| Spec { target, settings, generator: Generator::Run { samples: 100_000 } };
    let batches = |target, settings, sampling| Spec { target, settings, generator: Generator::Batches { warm_up: 10_000, sampling } };
    vec![
        run("logreg_dd", &[]),
        run("logreg_sgfs", &[]),
        run("logreg_heldout", &[]),
        run("logreg", &[("dataset", Value::Number(1.0))]),
        run("logreg", &[("dataset", Value::Number(2.0))]),
        batches("logreg_dd", &[], 128_000),
        batches("logreg_sgfs", &[], 128_000),
        batches("logreg_heldout", &[], 128_000),
        batches("logreg", BREAST_CANCER_3, 256_000),
    ]
}

/// The key of a `Generator::Run` reference (tests/common's `reference_with`).
pub fn run_key(target: &str, settings: &[(&str, f64)], samples: u64) -> String {
    format!("{target}-{settings:?}-{samples}")
}

/// The key of a `Generator::Batches` reference (tests/bouncy_long.rs).
pub fn batch_key(target: &str, settings: &[(&str, &str)], warm_up: u64, sampling: u64) -> String {
    format!("bouncy-mala-{target}-{settings:?}-{warm_up}-{sampling}")
}

impl Spec {
    pub fn key(&self) -> String {
        match self.generator {
            Generator::Run { samples } => {
                let settings: Vec<(&str, f64)> = self.settings.iter().map(|(n, v)| (*n, if let Value::Number(x) = v { *x } else { panic!("{n}: a Run fixture's settings are numbers") })).collect();
                run_key(self.target, &settings, samples)
            }
            Generator::Batches { warm_up, sampling } => {
                let settings: Vec<(&str, &str)> = self.settings.iter().map(|(n, v)| (*n, if let Value::Text(x) = v { *x } else { panic!("{n}: a Batches fixture's settings are text") })).collect();
                batch_key(self.target, &settings, warm_up, sampling)
            }
        }
    }

    pub fn model(&self) -> Box<dyn Model> {
        let spec = registry::target(self.target).unwrap();
        let mut values = sgviz::params::ParamValues::defaults(spec.params);
        for (name, value) in self.settings {
            let x = match value {
                Value::Number(x) => *x,
                Value::Text(text) => spec.params.iter().find(|p| p.name == *name).unwrap().parse(text).unwrap(),
            };
            values.set(spec.params, name, x).unwrap();
        }
        (spec.build)(&values, None).unwrap()
    }

    /// The rows the tests read, computed now (what the fixture stores).
    pub fn generate(&self) -> Vec<Vec<f64>> {
        match self.generator {
            Generator::Run { samples } => {
                let mut run = ReferenceRun::new(self.model(), 7, 20_000, samples);
                run.advance(u64::MAX);
                let r = run.result().expect("the reference run records samples");
                [r.moments.mean, r.mean_mcse, r.variance_mcse].into_iter().chain(r.moments.cov).collect()
            }
            Generator::Batches { warm_up, sampling } => {
                let (moments, mean_se, cov_se) = batch_mala_run(self.model(), warm_up, sampling);
                [moments.mean, mean_se].into_iter().chain(moments.cov).chain(cov_se).collect()
            }
        }
    }

    /// Each estimate in the rows (means, then covariance entries j ≤ k) with its MCSE, for the
    /// soak's drift check. A `Run` reference has MCSEs of the variances only: a covariance entry's
    /// is taken as √(se_jj · se_kk), as tests/common's error bound does.
    pub fn estimates(&self, rows: &[Vec<f64>]) -> Vec<(String, f64, f64)> {
        let d = rows[0].len();
        let (cov, se): (&[Vec<f64>], Box<dyn Fn(usize, usize) -> f64>) = match self.generator {
            Generator::Run { .. } => (&rows[3..3 + d], Box::new(|j, k| (rows[2][j] * rows[2][k]).sqrt())),
            Generator::Batches { .. } => (&rows[2..2 + d], Box::new(|j, k| rows[2 + d + j][k])),
        };
        let mut out: Vec<(String, f64, f64)> = (0..d).map(|j| (format!("mean[{j}]"), rows[0][j], rows[1][j])).collect();
        for j in 0..d {
            for k in j..d {
                out.push((format!("cov[{j}][{k}]"), cov[j][k], se(j, k)));
            }
        }
        out
    }

    /// How many rows of which length a fixture of this spec has.
    pub fn rows_shape_ok(&self, rows: &[Vec<f64>], dim: usize) -> bool {
        let expected = match self.generator {
            Generator::Run { .. } => 3 + dim,
            Generator::Batches { .. } => 2 + 2 * dim,
        };
        rows.len() == expected && rows.iter().all(|r| r.len() == dim && r.iter().all(|x| x.is_finite()))
    }
}

/// The fixture file as committed (None when it is missing or does not parse).
/// CPU seconds of the calling thread (user + system, Linux).
pub fn thread_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

pub fn read_file() -> Option<FixtureFile> {
    let text = std::fs::read_to_string(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(PATH)).ok()?;
    serde_json::from_str(&text).ok()
}

/// The stored rows of `key` when it is a fixture, after checking them against today's model:
/// panics naming the fixture when the model changed (log density at the stored mean off by more
/// than 10⁻⁹ relative) or the rows have the wrong shape. `None` when `key` is not a fixture or
/// `SGVIZ_NO_FIXTURES` is set (then the caller computes the reference as before).
pub fn stored_rows(key: &str) -> Option<Vec<Vec<f64>>> {
    if std::env::var_os("SGVIZ_NO_FIXTURES").is_some() {
        return None;
    }
    let spec = specs().into_iter().find(|s| s.key() == key)?;
    let file = read_file().unwrap_or_else(|| panic!("{PATH} is missing or does not parse: regenerate it (tests/reference_fixtures.rs)"));
    let fixture = file.references.into_iter().find(|f| f.key == key).unwrap_or_else(|| panic!("{PATH} has no fixture `{key}`: regenerate it (tests/reference_fixtures.rs)"));
    check_against_model(&spec, &fixture).unwrap_or_else(|e| panic!("{e}"));
    Some(fixture.rows)
}

/// The stored fixture still describes the model built today (see [`stored_rows`]).
pub fn check_against_model(spec: &Spec, fixture: &Fixture) -> Result<(), String> {
    let model = spec.model();
    if !spec.rows_shape_ok(&fixture.rows, model.dim()) {
        return Err(format!("{PATH}: fixture `{}` does not have the rows of a D = {} reference: regenerate it (tests/reference_fixtures.rs)", fixture.key, model.dim()));
    }
    let today = model.log_density(&fixture.rows[0]);
    let stored = fixture.log_density_at_mean;
    if !((today - stored).abs() <= 1e-9 * stored.abs().max(1.0)) {
        return Err(format!("{PATH}: fixture `{}` was computed on another model (log density at its mean {stored} then, {today} now): regenerate it (tests/reference_fixtures.rs)", fixture.key));
    }
    Ok(())
}

/// A long exact MALA run (dense preconditioner adapted during warm-up, then frozen; src/truth.rs)
/// and batch-means MCSEs of every mean and covariance entry over 64 batches (moved here from
/// tests/bouncy_long.rs unchanged, so that the soak can regenerate its fixtures).
pub fn batch_mala_run(model: Box<dyn Model>, warm_up: u64, sampling: u64) -> (Moments, Vec<f64>, Vec<Vec<f64>>) {
    let d = model.dim();
    let mut run = ReferenceRun::new(model, 0x5eed, warm_up, sampling);
    run.advance(warm_up);
    let batches = 64;
    let per_batch = sampling / batches;
    // Per batch: Σx and Σxxᵀ.
    let mut sums = vec![vec![0.0; d + d * d]; batches as usize];
    for b in 0..batches as usize {
        for _ in 0..per_batch {
            run.advance(1);
            let x = run.position();
            for j in 0..d {
                sums[b][j] += x[j];
                for k in 0..d {
                    sums[b][d + j * d + k] += x[j] * x[k];
                }
            }
        }
    }
    let n = per_batch as f64;
    let batch_means: Vec<Vec<f64>> = sums.iter().map(|s| s.iter().map(|v| v / n).collect()).collect();
    let mean: Vec<f64> = (0..d).map(|j| batch_means.iter().map(|m| m[j]).sum::<f64>() / batches as f64).collect();
    // Each batch's average of (x − mean)(x − mean)ᵀ about the overall mean.
    let centred = |m: &Vec<f64>, j: usize, k: usize| m[d + j * d + k] - mean[j] * m[k] - m[j] * mean[k] + mean[j] * mean[k];
    let se = |values: Vec<f64>| {
        let b = values.len() as f64;
        let avg = values.iter().sum::<f64>() / b;
        let var = values.iter().map(|v| (v - avg).powi(2)).sum::<f64>() / (b - 1.0);
        (avg, (var / b).sqrt())
    };
    let mean_se = (0..d).map(|j| se(batch_means.iter().map(|m| m[j]).collect()).1).collect();
    let mut cov = vec![vec![0.0; d]; d];
    let mut cov_se = vec![vec![0.0; d]; d];
    for j in 0..d {
        for k in 0..d {
            let (c, s) = se(batch_means.iter().map(|m| centred(m, j, k)).collect());
            cov[j][k] = c;
            cov_se[j][k] = s;
        }
    }
    (Moments { mean, cov }, mean_se, cov_se)
}
