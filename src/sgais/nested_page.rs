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

#[cfg(test)]
mod tests {
    use super::*;

    fn result(n: usize, log_z: f64, se: f64, finished: bool) -> NestedResult {
        NestedResult { seed: 1, live_points: 25, n, log_z, log_z_se: se, information: 25.0 * se * se, iterations: 10, log_volume: -1.0, datum_evals: 1000, finished, problem: None, seconds: Some(2.0) }
    }

    /// Hand-worked: two replicas at n = 100 (−10 ± 3, −12 ± 4) → mean −11, SE √(9 + 16)/2 = 2.5;
    /// an unfinished run at n = 50 gives no point.
    #[test]
    fn replicas_combine_to_the_mean_with_the_pooled_standard_error() {
        let points = combine_nested(&[result(100, -10.0, 3.0, true), result(50, -5.0, 1.0, false), result(100, -12.0, 4.0, true)]);
        assert_eq!(points.len(), 1);
        let p = &points[0];
        assert_eq!((p.n, p.replicas, p.finished), (100, 2, 2));
        assert!((p.log_z + 11.0).abs() < 1e-12 && (p.log_z_se - 2.5).abs() < 1e-12, "{p:?}");
        let mut chart = ChartSpec::default();
        add_nested_points(&mut chart, &points);
        assert_eq!(chart.series[0].points, vec![(100.0, -0.11)]);
        assert!((chart.series[0].error_bars[0] - 0.025).abs() < 1e-15);
    }

    /// A spec builds replica r of the CLI's `--ns` run on the first n data, with `ns_…` settings
    /// taken by the nested sampler and the others by the target; unknown names are refused.
    #[test]
    fn specs_build_the_clis_replica_and_refuse_unknown_names() {
        let spec: NestedSpec = serde_json::from_str(r#"{"target": "linreg", "settings": [["n_points", "300"], ["ns_live_points", "7"], ["learning_rate", "0.05"]], "seed": 3, "replica": 1, "ns_n": 200}"#).unwrap();
        let (mut run, seed) = spec.build(None).unwrap();
        assert_eq!(seed, nested_seed(replica_seed(3, 1)));
        let r = run.run_to_end();
        assert_eq!((r.n, r.live_points, r.seed), (200, 7, seed));
        let bad = NestedSpec { settings: vec![("bogus".into(), "1".into())], ..spec.clone() };
        assert!(bad.build(None).err().unwrap().contains("unknown parameter 'bogus'"));
        // A bad nested-sampling value names the control the panel shows, not the internal name.
        let few = NestedSpec { settings: vec![("ns_live_points".into(), "1".into())], ..spec.clone() };
        assert_eq!(few.build(None).err().unwrap(), "Nested sampling: live points (M_NS): 1 is out of range; allowed: a whole number in [2, 1000]");
        let text = NestedSpec { settings: vec![("ns_steps".into(), "many".into())], ..spec };
        assert_eq!(text.build(None).err().unwrap(), "Nested sampling: steps per replacement (K_NS): 'many' is not a number; allowed: a whole number in [1, 1000]");
    }

    /// The exact log Z comes from the SGAIS checkpoint at the same n, and only from that one.
    #[test]
    fn a_point_takes_the_exact_log_z_of_the_checkpoint_at_its_n() {
        let mut points = combine_nested(&[result(100, -10.0, 3.0, true), result(200, -20.0, 3.0, true)]);
        with_exact(&mut points, &[(50, -4.0), (100, -9.5), (150, -15.0)]);
        let exact: Vec<(usize, Option<f64>)> = points.iter().map(|p| (p.n, p.exact_log_z)).collect();
        assert_eq!(exact, vec![(100, Some(-9.5)), (200, None)]);
    }
}
