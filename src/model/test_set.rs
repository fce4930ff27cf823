//! A held-out test set for a classifier target (Welling & Teh 2011 §5.2: train on 80 % of the
//! data, test on the other 20 %): the rows the model was NOT trained on, and the accuracy of a
//! posterior-predictive probability on them. Pure data; src/heldout.rs tracks it over a run.

/// Test rows with the bias column appended (so z = rowᵀθ), labels 0/1.
#[derive(Clone, Debug, PartialEq)]
pub struct TestSet {
    /// Row-major, `labels.len()` × `dim`.
    pub rows: Vec<f64>,
    pub labels: Vec<f64>,
    pub dim: usize,
}

impl TestSet {
    /// Rows `features` (n × d, row-major) with a bias column of ones appended.
    pub fn with_intercept(d: usize, features: &[f64], labels: Vec<f64>) -> TestSet {
        let rows = features.chunks(d.max(1)).flat_map(|x| x.iter().copied().chain(std::iter::once(1.0))).collect();
        TestSet { rows, labels, dim: d + 1 }
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// p_i = σ(rowᵢᵀθ), the predicted probability of label 1 for every test row.
    pub fn probabilities(&self, theta: &[f64]) -> Vec<f64> {
        self.rows.chunks(self.dim).map(|x| 1.0 / (1.0 + (-x.iter().zip(theta).map(|(a, b)| a * b).sum::<f64>()).exp())).collect()
    }

    /// Fraction of test rows whose predicted probability `p` (averaged over samples by the caller)
    /// is on the side of ½ of their label; p = ½ exactly counts as wrong (no decision).
    pub fn accuracy(&self, p: &[f64]) -> f64 {
        let right = p.iter().zip(&self.labels).filter(|(p, y)| (**y == 1.0 && **p > 0.5) || (**y == 0.0 && **p < 0.5)).count();
        right as f64 / self.len().max(1) as f64
    }

    /// Accuracy of always predicting the more frequent label (the baseline a classifier must beat).
    pub fn majority_accuracy(&self) -> f64 {
        let ones = self.labels.iter().filter(|y| **y == 1.0).count() as f64;
        ones.max(self.len() as f64 - ones) / self.len().max(1) as f64
    }
}
