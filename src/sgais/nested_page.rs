//! Nested sampling as a page baseline (issue 22): what a Web Worker needs to run one nested-sampling
//! run ([`NestedSpec`] → [`super::nested::NestedRun`]) beside SGAIS and AIS, and how the page combines
//! the posted [`NestedResult`]s: per data size n the replicas' mean log Ẑ with the standard error
//! √(Σ SE_r²)/R (each SE_r = √(H/M), Skilling 2006 §5; docs/sgais.md §7), their wall time and
//! per-datum evaluations ([`combine_nested`]), drawn as points with ± SE bars on the evidence chart
//! ([`add_nested_points`]). Replica r runs with seed `nested_seed(replica_seed(seed, r))`, so
//! replica r at n = N replays `sgviz evidence --seed K --ns` replica r exactly.

use super::job::resolve;
use super::nested::{nested_seed, NestedConfig, NestedResult, NestedRun, NESTED_PARAMS};
use super::replicas::replica_seed;
use crate::data::Dataset;
use crate::params::ParamValues;
use crate::plot::chart::{ChartSpec, Series, Style};
use plotters::style::RGBColor;
use serde::{Deserialize, Serialize};

/// Colour of the nested-sampling points: purple, apart from SGAIS blue, AIS red and the exact black.
pub const NS_COLOUR: RGBColor = RGBColor(117, 42, 160);

/// One nested-sampling run from the page, as JSON: the SGAIS panel's target and settings (the
/// SGAIS-only settings are ignored; `ns_…` settings set [`NESTED_PARAMS`]), the user's seed, the
/// replica, and the data size n (the first n data).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NestedSpec {
    pub target: String,
    #[serde(default)]
    pub preset: Option<String>,
    #[serde(default)]
    pub settings: Vec<(String, String)>,
    pub seed: u64,
    #[serde(default)]
    pub replica: usize,
    pub ns_n: usize,
}

impl NestedSpec {
    /// The run and its seed; bad settings are refused with what is allowed.
    pub fn build(&self, data: Option<&Dataset>) -> Result<(NestedRun, u64), String> {
        let (values, settings) = split_nested_settings(&self.settings)?;
        let resolved = resolve(&self.target, self.preset.as_deref(), &settings, data)?;
        let seed = nested_seed(replica_seed(self.seed, self.replica));
        let n = self.ns_n.clamp(1, resolved.model.n_data());
        Ok((NestedRun::new(resolved.model, NestedConfig::from_values(&values), n, seed), seed))
    }
}

/// The values of [`NESTED_PARAMS`] among `settings` (defaults for the others) and the remaining
/// settings, for the target and SGAIS. A bad value is refused with the control's label and symbol,
/// as the panel shows it ("Nested sampling: live points (M_NS): 1 is out of range; allowed: a whole number in [2, 1000]").
pub fn split_nested_settings(settings: &[(String, String)]) -> Result<(ParamValues, Vec<(String, String)>), String> {
    let (ns_settings, rest): (Vec<_>, Vec<_>) = settings.iter().cloned().partition(|(name, _)| NESTED_PARAMS.iter().any(|p| p.name == name));
    let mut values = ParamValues::defaults(NESTED_PARAMS);
    for (name, text) in &ns_settings {
        let spec = NESTED_PARAMS.iter().find(|p| p.name == name).expect("partitioned by name");
        let named = |e: String| format!("{} ({}): {}", spec.label, spec.symbol, e.strip_prefix(&format!("{name}: ")).unwrap_or(&e));
        values.set(NESTED_PARAMS, name, spec.parse(text).map_err(named)?).map_err(named)?;
    }
    Ok((values, rest))
}

/// The replicas of nested sampling at one data size, combined.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NestedPoint {
    pub n: usize,
    /// Replicas posted and finished.
    pub replicas: usize,
    pub finished: usize,
    /// Mean log Ẑ over the finished replicas.
    pub log_z: f64,
    /// √(Σ SE_r²)/R, the standard error of that mean from each run's √(H/M).
    pub log_z_se: f64,
    /// Mean wall seconds and per-datum evaluations per finished replica.
    pub seconds: Option<f64>,
    pub datum_evals: f64,
    /// Problems reported by runs that stopped early.
    pub problems: Vec<String>,
    /// The exact log Z at this n where the model has one (linear regression), read from the SGAIS
    /// curve's checkpoint at the same n ([`with_exact`]); None otherwise.
    pub exact_log_z: Option<f64>,
}

/// Each point's exact log Z from `exact` (checkpoints `(n, exact log Z)` of the SGAIS curves at
/// the same data: the first n points of the same data set), where a checkpoint has its n.
pub fn with_exact(points: &mut [NestedPoint], exact: &[(usize, f64)]) {
    for p in points.iter_mut() {
        p.exact_log_z = exact.iter().find(|(n, _)| *n == p.n).map(|(_, z)| *z);
    }
}

/// Combine finished runs by data size (ascending n); sizes without a finished run are left out.
pub fn combine_nested(results: &[NestedResult]) -> Vec<NestedPoint> {
    let mut sizes: Vec<usize> = results.iter().map(|r| r.n).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .filter_map(|n| {
            let at: Vec<&NestedResult> = results.iter().filter(|r| r.n == n).collect();
            let done: Vec<&NestedResult> = at.iter().copied().filter(|r| r.finished && r.log_z.is_finite()).collect();
            if done.is_empty() {
                return None;
            }
            let r = done.len() as f64;
            let seconds: Vec<f64> = done.iter().filter_map(|x| x.seconds).collect();
            Some(NestedPoint {
                n,
                replicas: at.len(),
                finished: done.len(),
                log_z: done.iter().map(|x| x.log_z).sum::<f64>() / r,
                log_z_se: done.iter().map(|x| x.log_z_se.powi(2)).sum::<f64>().sqrt() / r,
                seconds: (!seconds.is_empty()).then(|| seconds.iter().sum::<f64>() / seconds.len() as f64),
                datum_evals: done.iter().map(|x| x.datum_evals as f64).sum::<f64>() / r,
                problems: at.iter().filter_map(|x| x.problem.clone()).collect(),
                exact_log_z: None,
            })
        })
        .collect()
}

/// Nested sampling's points on the evidence chart (log Ẑ/n against n, ± SE/n bars).
pub fn add_nested_points(chart: &mut ChartSpec, points: &[NestedPoint]) {
    let shown: Vec<&NestedPoint> = points.iter().filter(|p| p.n > 0).collect();
    if shown.is_empty() {
        return;
    }
    let mut series = Series::new("nested sampling ± SE", shown.iter().map(|p| (p.n as f64, p.log_z / p.n as f64)).collect(), NS_COLOUR, Style::Points);
    series.error_bars = shown.iter().map(|p| p.log_z_se / p.n as f64).collect();
    chart.series.push(series);
}
