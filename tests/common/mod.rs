//! Shared by the statistical tests of the derived defaults (tests/pairings.rs,
//! tests/sgld_defaults.rs): the truth of a target at its default settings, and the switch to the
//! long runs of `make soak`; the reference runs of D > 2 targets are shared between test processes
//! through a file (see [`cached_run`]; [`cached_rows`] shares any rows of numbers that way, e.g.
//! tests/bouncy_long.rs's MALA references).

#![allow(dead_code)]

pub mod fixtures;

use sgviz::diagnostics::Moments;
use sgviz::registry;
use sgviz::truth::{truth_for, ReferenceRun};

/// Whether this is the long run of `make soak` (`SGVIZ_PAIRINGS=soak`).
pub fn soak() -> bool {
    std::env::var("SGVIZ_PAIRINGS").is_ok_and(|v| v == "soak")
}

/// The truth and its own error bound per mean and covariance entry.
pub struct Reference {
    pub moments: Moments,
    pub mean_error: Vec<f64>,
    pub cov_error: Vec<Vec<f64>>,
}

impl Reference {
    /// A truth with the same error bound on every entry (closed form: 0; grid: its h/2h bound).
    pub fn uniform(moments: Moments, error: f64) -> Reference {
        let d = moments.mean.len();
        Reference { moments, mean_error: vec![error; d], cov_error: vec![vec![error; d]; d] }
    }
}

/// The truth of `target` at its default settings (src/truth.rs's sources, cheapest first).
pub fn reference(target: &str) -> Reference {
    reference_with(target, &[])
}

/// The truth of `target` with some of its parameters set.
pub fn reference_with(target: &str, settings: &[(&str, f64)]) -> Reference {
    let spec = registry::target(target).unwrap();
    let mut values = sgviz::params::ParamValues::defaults(spec.params);
    for (name, value) in settings {
        values.set(spec.params, name, *value).unwrap();
    }
    let model = (spec.build)(&values, None).unwrap();
    let truth = truth_for(model.as_ref());
    if let Some(moments) = truth.moments {
        return Reference::uniform(moments, truth.error_bound);
    }
    // D > 2 without a closed form: a preconditioned exact MALA run (src/truth.rs); its error is
    // twice its Monte-Carlo standard errors (for a covariance entry, of the two variances'
    // geometric mean).
    let samples = if soak() { 400_000 } else { 100_000 };
    let key = fixtures::run_key(target, settings, samples);
    // A committed fixture when there is one (tests/common/fixtures.rs: the same run, stored).
    let stored = fixtures::stored_rows(&key).map(|rows| run_of_rows(rows).unwrap_or_else(|| panic!("{}: fixture `{key}` has not a run's rows", fixtures::PATH)));
    let (moments, mean_mcse, variance_mcse) = stored.unwrap_or_else(|| cached_run(&key, || {
        let mut run = ReferenceRun::new(model, 7, 20_000, samples);
        run.advance(u64::MAX);
        let r = run.result().expect("the reference run records samples");
        (r.moments, r.mean_mcse, r.variance_mcse)
    }));
    let cov_error = variance_mcse.iter().map(|a| variance_mcse.iter().map(|b| 2.0 * (a * b).sqrt()).collect()).collect();
    Reference { mean_error: mean_mcse.iter().map(|e| 2.0 * e).collect(), cov_error, moments }
}

/// The reference run of `key`, computed once per test binary and shared through a file (see
/// [`cached_rows`]): nextest runs every test in a process of its own, and the same seeded D > 2
/// run (≈ 3–5 CPU s each) was computed by pairings, sgld_defaults and sgfs_fisher_law alike.
fn cached_run(key: &str, compute: impl FnOnce() -> (Moments, Vec<f64>, Vec<f64>)) -> (Moments, Vec<f64>, Vec<f64>) {
    let mut compute = Some(compute);
    let rows = cached_rows(&format!("reference-{key}"), || rows_of_run(&compute.take().unwrap()()));
    // A file of the wrong shape is not read: the run is computed again.
    run_of_rows(rows).unwrap_or_else(|| compute.take().expect("rows just computed have the run's shape")())
}

/// Rows of numbers computed once per test binary and shared between test processes through a
/// file in cargo's CARGO_TARGET_TMPDIR (issue 23, CI time). The file name holds `key` and the test
/// binary's size and modification time, so a rebuilt binary (changed code) never reads rows of the
/// old one; reading gives the numbers `compute` gave (floats written in Rust's shortest
/// round-trip form), and two processes that miss the file at the same time both compute it and
/// write it whole (write, then rename). A file that does not parse is computed again.
pub fn cached_rows(key: &str, compute: impl FnOnce() -> Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let stamp = std::env::current_exe().and_then(|exe| exe.metadata()).map(|m| {
        let modified = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        format!("{}-{modified}", m.len())
    });
    let Ok(stamp) = stamp else { return compute() };
    let name: String = format!("{key}-{stamp}").chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if let Some(cached) = std::fs::read_to_string(&path).ok().and_then(|text| parse_rows(&text)) {
        return cached;
    }
    let rows = compute();
    let partial = path.with_extension(format!("part{}", std::process::id()));
    if std::fs::write(&partial, rows.iter().map(|r| line(r) + "\n").collect::<String>()).is_ok() {
        let _ = std::fs::rename(&partial, &path);
    }
    rows
}

/// One row as [`cached_rows`] writes it: floats in Rust's shortest round-trip form.
fn line(v: &[f64]) -> String {
    v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(" ")
}

/// Inverse of the rows [`cached_rows`] writes; `None` for an empty file or an unparsable number.
pub fn parse_rows(text: &str) -> Option<Vec<Vec<f64>>> {
    let rows: Vec<Vec<f64>> = text.lines().map(|l| l.split(' ').map(|x| x.parse().ok()).collect::<Option<Vec<f64>>>()).collect::<Option<_>>()?;
    (!rows.is_empty()).then_some(rows)
}

fn rows_of_run(run: &(Moments, Vec<f64>, Vec<f64>)) -> Vec<Vec<f64>> {
    [run.0.mean.clone(), run.1.clone(), run.2.clone()].into_iter().chain(run.0.cov.iter().cloned()).collect()
}

/// The file [`cached_run`] writes: mean, mean MCSEs, variance MCSEs, then the covariance rows, one
/// line each, every float in Rust's shortest round-trip form.
pub fn format_run(run: &(Moments, Vec<f64>, Vec<f64>)) -> String {
    rows_of_run(run).iter().map(|r| line(r) + "\n").collect()
}

/// Inverse of [`format_run`]: mean, mean MCSEs, variance MCSEs, then the covariance
/// rows; `None` for anything else (then the run is computed again).
pub fn parse_run(text: &str) -> Option<(Moments, Vec<f64>, Vec<f64>)> {
    run_of_rows(parse_rows(text)?)
}

fn run_of_rows(rows: Vec<Vec<f64>>) -> Option<(Moments, Vec<f64>, Vec<f64>)> {
    let d = rows.first()?.len();
    if rows.len() != 3 + d || rows.iter().any(|r| r.len() != d) {
        return None;
    }
    Some((Moments { mean: rows[0].clone(), cov: rows[3..].to_vec() }, rows[1].clone(), rows[2].clone()))
}

/// Upper normal quantile z with P(Z > z) = p (bisection on a 1.2·10⁻⁷-accurate erfc).
pub fn normal_upper_quantile(p: f64) -> f64 {
    // Numerical Recipes' erfcc (Chebyshev fit).
    let erfc = |x: f64| {
        let z = x.abs();
        let t = 1.0 / (1.0 + 0.5 * z);
        let poly = -z * z - 1.26551223
            + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
        let r = t * poly.exp();
        if x >= 0.0 {
            r
        } else {
            2.0 - r
        }
    };
    let (mut lo, mut hi) = (0.0, 40.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if 0.5 * erfc(mid / std::f64::consts::SQRT_2) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}
