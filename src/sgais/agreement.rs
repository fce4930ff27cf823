//! Do independent replicas agree within the error their own weights predict? An R̂-like check
//! (Gelman & Rubin 1992 compare between- and within-chain variance; here "within" is the variance
//! of log Ẑ that each run's importance weights predict, [`super::run::ChunkRecord::log_z_var`]).
//!
//! Rule: with R ≥ 2 finished replicas, sample variance s² of their log Ẑ and mean predicted
//! variance σ̄², a run whose particles mix has (R − 1)s²/σ̄² ≈ χ²_{R−1}. The replicas are flagged
//! as disagreeing when (R − 1)s²/σ̄² exceeds the 99 % quantile of χ²_{R−1} (Wilson–Hilferty
//! approximation), i.e. when their scatter is too large for the weights' own error to explain:
//! the particles are stuck in different modes or the moves do not equilibrate, and the weights'
//! ESS — which only looks at one run — cannot show it.

use super::format::group_digits;
use serde::{Deserialize, Serialize};

/// The between-replica spread of log Ẑ against the within-run prediction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    pub replicas: usize,
    /// Sample standard deviation s of the replicas' log Ẑ.
    pub between_sd: f64,
    /// max − min of the replicas' log Ẑ.
    pub range: f64,
    /// √σ̄²: the standard deviation of one log Ẑ that the runs' weights predict.
    pub within_sd: f64,
    /// R̂-like ratio s/σ̄ (≈ 1 when the replicas agree as well as their weights predict), i.e.
    /// √(statistic/(R − 1)): ∞ for scatter that σ̄ = 0 cannot explain, 0 for no scatter at all.
    pub ratio: f64,
    /// (R − 1)s²/σ̄², compared with `threshold`.
    pub statistic: f64,
    /// 99 % quantile of χ²_{R−1}.
    pub threshold: f64,
    /// statistic > threshold.
    pub disagree: bool,
    /// [`Agreement::sentence`], for the page.
    pub text: String,
}

/// z of the standard normal's 99 % quantile.
const Z_99: f64 = 2.326_347_874_040_841;

/// 99 % quantile of χ²_k by Wilson–Hilferty: k(1 − 2/(9k) + z√(2/(9k)))³ (within 1–2 % for k ≥ 1).
pub fn chi_square_99(k: usize) -> f64 {
    let k = k as f64;
    let c = 2.0 / (9.0 * k);
    k * (1.0 - c + Z_99 * c.sqrt()).powi(3)
}

/// The check for final log Ẑ values and their predicted variances (same order); None with fewer
/// than two finite pairs.
pub fn agreement(log_z: &[f64], predicted_var: &[f64]) -> Option<Agreement> {
    let pairs: Vec<(f64, f64)> = log_z.iter().zip(predicted_var).map(|(&z, &v)| (z, v)).filter(|(z, v)| z.is_finite() && v.is_finite()).collect();
    let r = pairs.len();
    if r < 2 {
        return None;
    }
    let mean = pairs.iter().map(|p| p.0).sum::<f64>() / r as f64;
    let s2 = pairs.iter().map(|p| (p.0 - mean).powi(2)).sum::<f64>() / (r - 1) as f64;
    let within = pairs.iter().map(|p| p.1).sum::<f64>() / r as f64;
    let statistic = if within > 0.0 { (r - 1) as f64 * s2 / within } else if s2 > 0.0 { f64::INFINITY } else { 0.0 };
    let threshold = chi_square_99(r - 1);
    let max = pairs.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let min = pairs.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let mut check = Agreement {
        replicas: r,
        between_sd: s2.sqrt(),
        range: max - min,
        within_sd: within.sqrt(),
        ratio: (statistic / (r - 1) as f64).sqrt(),
        statistic,
        threshold,
        disagree: statistic > threshold,
        text: String::new(),
    };
    check.text = check.sentence();
    Some(check)
}

impl Agreement {
    /// The check in words, with its numbers and the rule.
    pub fn sentence(&self) -> String {
        let numbers = format!(
            "the {} replicas' log Ẑ have sd {} nats (range {}), while each run's weights predict sd {} (ratio {:.1}; flagged when (R − 1)·sd²/predicted² > {:.1}, the 99 % point of χ² with R − 1 = {} degrees of freedom)",
            self.replicas,
            group_digits(self.between_sd, 2),
            group_digits(self.range, 2),
            group_digits(self.within_sd, 2),
            self.ratio,
            self.threshold,
            self.replicas - 1
        );
        if self.disagree {
            format!("Replicas DISAGREE: {numbers}. They scatter more than their weights predict: their particles settle in different places (modes the moves do not leave), or the moves between resamplings are too short to make resampled copies independent (docs/sgais.md §15). Either way each run's ± understates its error: judge log Ẑ by the replicas' spread, not by the ESS.")
        } else {
            format!("Replicas agree: {numbers}.")
        }
    }
}
