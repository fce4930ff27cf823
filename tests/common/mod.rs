//! Shared by the statistical tests of the derived defaults (tests/pairings.rs,
//! tests/sgld_defaults.rs): the truth of a target at its default settings, and the switch to the
//! long runs of `make soak`; the reference runs of D > 2 targets are shared between test processes
//! through a file (see [`cached_run`]).

#![allow(dead_code)]

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
    let key = format!("{target}-{settings:?}-{samples}");
    let (moments, mean_mcse, variance_mcse) = cached_run(&key, || {
        let mut run = ReferenceRun::new(model, 7, 20_000, samples);
        run.advance(u64::MAX);
        let r = run.result().expect("the reference run records samples");
        (r.moments, r.mean_mcse, r.variance_mcse)
    });
    let cov_error = variance_mcse.iter().map(|a| variance_mcse.iter().map(|b| 2.0 * (a * b).sqrt()).collect()).collect();
    Reference { mean_error: mean_mcse.iter().map(|e| 2.0 * e).collect(), cov_error, moments }
}

/// The reference run of `key`, computed once per test binary and shared through a file in cargo's
/// CARGO_TARGET_TMPDIR (issue 23, CI time): nextest runs every test in a process of its own, and the
/// same seeded D > 2 run (≈ 3–5 CPU s each) was computed by pairings, sgld_defaults and
/// sgfs_fisher_law alike. The file name holds the key and the test binary's size and modification
/// time, so a rebuilt binary (changed code) never reads a run of the old one; reading it gives the
/// numbers the run gives (floats written in Rust's shortest round-trip form), and two processes
/// that miss it at the same time both compute it and write it whole (write, then rename).
fn cached_run(key: &str, compute: impl FnOnce() -> (Moments, Vec<f64>, Vec<f64>)) -> (Moments, Vec<f64>, Vec<f64>) {
    let stamp = std::env::current_exe().and_then(|exe| exe.metadata()).map(|m| {
        let modified = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        format!("{}-{modified}", m.len())
    });
    let Ok(stamp) = stamp else { return compute() };
    let name: String = format!("reference-{key}-{stamp}").chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if let Some(cached) = std::fs::read_to_string(&path).ok().and_then(|text| parse_run(&text)) {
        return cached;
    }
    let run = compute();
    let partial = path.with_extension(format!("part{}", std::process::id()));
    if std::fs::write(&partial, format_run(&run)).is_ok() {
        let _ = std::fs::rename(&partial, &path);
    }
    run
}

/// The file [`cached_run`] writes: mean, mean MCSEs, variance MCSEs, then the covariance rows, one
/// line each, every float in Rust's shortest round-trip form.
pub fn format_run(run: &(Moments, Vec<f64>, Vec<f64>)) -> String {
    let line = |v: &[f64]| v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(" ");
    let mut text = format!("{}\n{}\n{}\n", line(&run.0.mean), line(&run.1), line(&run.2));
    for row in &run.0.cov {
        text += &format!("{}\n", line(row));
    }
    text
}

/// Inverse of [`format_run`]: mean, mean MCSEs, variance MCSEs, then the covariance
/// rows; `None` for anything else (then the run is computed again).
pub fn parse_run(text: &str) -> Option<(Moments, Vec<f64>, Vec<f64>)> {
    let rows: Vec<Vec<f64>> = text.lines().map(|l| l.split(' ').map(|x| x.parse().ok()).collect::<Option<Vec<f64>>>()).collect::<Option<_>>()?;
    let d = rows.first()?.len();
    if rows.len() != 3 + d || rows.iter().any(|r| r.len() != d) {
        return None;
    }
    Some((Moments { mean: rows[0].clone(), cov: rows[3..].to_vec() }, rows[1].clone(), rows[2].clone()))
}
