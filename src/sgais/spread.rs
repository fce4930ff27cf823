//! The spread of a number over independent replicas (mean, sd, standard error, range): what the
//! SGAIS summaries, charts and warnings report (replicas.rs, warning.rs).

use serde::{Deserialize, Serialize};

/// Mean, standard deviation, standard error of the mean, min and max of finite values. With one
/// value sd and se are None (no spread can be measured).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub count: usize,
    pub mean: f64,
    pub sd: Option<f64>,
    pub se: Option<f64>,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// None when no value is finite.
    pub fn of(values: &[f64]) -> Option<Spread> {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let count = finite.len();
        if count == 0 {
            return None;
        }
        let mean = finite.iter().sum::<f64>() / count as f64;
        let sd = (count > 1).then(|| (finite.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (count - 1) as f64).sqrt());
        Some(Spread {
            count,
            mean,
            sd,
            se: sd.map(|s| s / (count as f64).sqrt()),
            min: finite.iter().copied().fold(f64::INFINITY, f64::min),
            max: finite.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        })
    }
}
