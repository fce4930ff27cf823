//! Bayesian logistic regression: y_i ∈ {0, 1}, P(y_i = 1 | θ) = σ(x_iᵀw + b), prior θ ~ N(0, σ_p² I).
//! Parameters are ordered [w_1..w_d, b] (ALGORITHMS.md §0). Per-datum score (the gradient of
//! ℓ_i = y_i log σ(z_i) + (1 − y_i) log(1 − σ(z_i)), z_i = x_iᵀw + b): g_i = (y_i − σ(z_i)) [x_i, 1].

use super::{Model, View};
use crate::data::Dataset;
use crate::params::{ParamSpec, ParamValues};
use crate::registry::{TargetKind, TargetSpec};
use crate::rng::{chain_rng, standard_normal, uniform};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("prior_sd", "Prior scale", "σ_p", "Std. dev. of the N(0, σ_p²) prior on every weight and the bias", 0.01, 1e4, 10.0),
    ParamSpec::integer("n_points", "Data points (synthetic)", "N", "Size of the generated data set (ignored when data are loaded)", 10.0, 1e6, 1000.0, true),
    ParamSpec::linear("true_w", "True slope (synthetic)", "w*", "Slope used to generate synthetic labels", -10.0, 10.0, 1.5),
    ParamSpec::linear("true_b", "True bias (synthetic)", "b*", "Bias used to generate synthetic labels", -10.0, 10.0, -0.5),
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the synthetic data generator", 0.0, 1e9, 1.0, false),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "logreg",
    label: "Logistic regression",
    description: "Bayesian logistic regression; synthetic slope + bias (2-D posterior) or a loaded data set",
    kind: TargetKind::Regression,
    params: PARAMS,
    build: |values, data| {
        let prior_sd = values.get("prior_sd");
        let model = match data {
            Some(d) => LogisticRegression::from_dataset(d, prior_sd)?,
            None => LogisticRegression::synthetic_1d(values),
        };
        Ok(Box::new(model))
    },
};

/// The logistic function σ(z) = 1/(1 + e^{−z}), computed without overflow.
#[inline]
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// log σ(z), stable for large |z|.
#[inline]
pub fn log_sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        -(-z).exp().ln_1p()
    } else {
        z - z.exp().ln_1p()
    }
}

/// Features X (N × d, row-major), labels y ∈ {0,1}, Gaussian prior.
#[derive(Clone, Debug)]
pub struct LogisticRegression {
    d: usize,
    features: Vec<f64>,
    labels: Vec<f64>,
    prior_sd: f64,
    names: Vec<String>,
}

impl LogisticRegression {
    /// A model over given features and labels; labels must be 0/1 and both classes present.
    pub fn new(d: usize, features: Vec<f64>, labels: Vec<f64>, prior_sd: f64, names: Vec<String>) -> Result<Self, String> {
        if let Some((i, y)) = labels.iter().enumerate().find(|(_, y)| **y != 0.0 && **y != 1.0) {
            return Err(format!("row {}: label {y} is not 0 or 1 (logistic regression needs 0/1 labels in the last column)", i + 2));
        }
        let ones = labels.iter().filter(|y| **y == 1.0).count();
        if ones == 0 || ones == labels.len() {
            return Err(format!("all {} labels are {}: logistic regression needs both classes", labels.len(), labels[0]));
        }
        Ok(LogisticRegression { d, features, labels, prior_sd, names })
    }

    pub fn from_dataset(data: &Dataset, prior_sd: f64) -> Result<Self, String> {
        let mut names = data.feature_names.clone();
        names.push("bias".into());
        Self::new(data.n_features(), data.features.clone(), data.responses.clone(), prior_sd, names)
    }

    /// One standard-normal feature, labels from σ(w* x + b*): the whole posterior is 2-D.
    pub fn synthetic_1d(values: &ParamValues) -> Self {
        let n = values.get_usize("n_points");
        let (w, b) = (values.get("true_w"), values.get("true_b"));
        let mut rng = chain_rng(values.get("data_seed") as u64);
        let mut features = Vec::with_capacity(n);
        let mut labels = Vec::with_capacity(n);
        for _ in 0..n {
            let x = standard_normal(&mut rng);
            features.push(x);
            labels.push(if uniform(&mut rng) < sigmoid(w * x + b) { 1.0 } else { 0.0 });
        }
        // Guarantee both classes so tiny N never produces an improper (separable) edge case.
        labels[0] = 1.0;
        labels[n - 1] = 0.0;
        LogisticRegression { d: 1, features, labels, prior_sd: values.get("prior_sd"), names: vec!["w".into(), "b".into()] }
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.features[i * self.d..(i + 1) * self.d]
    }

    /// z_i = x_iᵀw + b.
    #[inline]
    fn linear_predictor(&self, i: usize, theta: &[f64]) -> f64 {
        let x = self.row(i);
        x.iter().zip(theta).map(|(a, b)| a * b).sum::<f64>() + theta[self.d]
    }

    /// The largest feature-vector norm max_i ‖[x_i, 1]‖ (a Lipschitz bound on |v·g_i| for unit v).
    pub fn max_row_norm(&self) -> f64 {
        (0..self.labels.len()).map(|i| (self.row(i).iter().map(|x| x * x).sum::<f64>() + 1.0).sqrt()).fold(0.0, f64::max)
    }

    /// sup_θ λ_max(∇²U(θ)) ≤ ¼ λ_max(X̃ᵀX̃) + 1/σ_p², X̃ the rows [x_i, 1], since
    /// ∇²U = Σ σ(z_i)(1 − σ(z_i)) x̃_i x̃_iᵀ + I/σ_p² and σ(1 − σ) ≤ ¼. Costs O(N D²).
    pub fn potential_curvature_bound(&self) -> f64 {
        let dim = self.d + 1;
        let mut gram = nalgebra::DMatrix::<f64>::zeros(dim, dim);
        let mut row = vec![1.0; dim];
        for i in 0..self.labels.len() {
            row[..self.d].copy_from_slice(self.row(i));
            for a in 0..dim {
                for b in 0..dim {
                    gram[(a, b)] += row[a] * row[b];
                }
            }
        }
        let largest = gram.symmetric_eigenvalues().iter().cloned().fold(0.0, f64::max);
        0.25 * largest + 1.0 / (self.prior_sd * self.prior_sd)
    }

    pub fn prior_sd(&self) -> f64 {
        self.prior_sd
    }
}

impl Model for LogisticRegression {
    fn dim(&self) -> usize {
        self.d + 1
    }
    fn n_data(&self) -> usize {
        self.labels.len()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * theta.iter().map(|t| t * t).sum::<f64>() / (self.prior_sd * self.prior_sd)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        let precision = 1.0 / (self.prior_sd * self.prior_sd);
        for (o, t) in out.iter_mut().zip(theta) {
            *o -= precision * t;
        }
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let z = self.linear_predictor(i, theta);
        if self.labels[i] == 1.0 {
            log_sigmoid(z)
        } else {
            log_sigmoid(-z)
        }
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let residual = self.labels[i] - sigmoid(self.linear_predictor(i, theta));
        for (o, x) in out.iter_mut().zip(self.row(i)) {
            *o += residual * x;
        }
        out[self.d] += residual;
    }
    fn score_projection_bound(&self) -> Option<f64> {
        // |u·g_i| = |y_i − σ(z_i)| |u·[x_i, 1]| ≤ ‖[x_i, 1]‖ for unit u (ALGORITHMS.md §7.11).
        Some(self.max_row_norm())
    }
    fn prior_curvature_bound(&self) -> Option<f64> {
        Some(1.0 / (self.prior_sd * self.prior_sd))
    }
    fn curvature_bound(&self) -> Option<f64> {
        Some(self.potential_curvature_bound())
    }
    /// ±4.5 Laplace standard deviations around the mode (a fixed window if Newton fails).
    fn view(&self) -> View {
        match super::laplace::laplace_approximation(self) {
            Some(m) => super::laplace::view_from_moments(&m, 4.5),
            None => View::centred(0.0, 0.0, 4.0, 4.0),
        }
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.names.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValues;

    #[test]
    fn per_datum_gradients_match_finite_differences() {
        let model = LogisticRegression::synthetic_1d(&ParamValues::defaults(PARAMS));
        let theta = [0.7, -0.3];
        for i in [0, 5, 17] {
            let mut g = [0.0; 2];
            model.add_grad_log_lik(i, &theta, &mut g);
            for j in 0..2 {
                let h = 1e-6;
                let (mut up, mut down) = (theta, theta);
                up[j] += h;
                down[j] -= h;
                let fd = (model.log_lik(i, &up) - model.log_lik(i, &down)) / (2.0 * h);
                assert!((fd - g[j]).abs() < 1e-6 * (1.0 + fd.abs()), "datum {i}, coordinate {j}");
            }
        }
    }

    #[test]
    fn curvature_and_score_bounds_dominate_the_model() {
        // uᵀ∇²U u by central differences of the gradient stays below the curvature bound, and every
        // |u·g_i| below the score-projection bound, at points spread over the prior.
        let model = LogisticRegression::synthetic_1d(&ParamValues::defaults(PARAMS));
        let (m, l) = (model.curvature_bound().unwrap(), model.score_projection_bound().unwrap());
        let mut largest = 0.0f64;
        for (theta, u) in [([0.0, 0.0], [1.0, 0.0]), ([0.1, -0.2], [0.6, 0.8]), ([1.5, -0.5], [0.0, 1.0])] {
            let h = 1e-5;
            let (mut gp, mut gm) = ([0.0; 2], [0.0; 2]);
            model.grad_log_density(&[theta[0] + h * u[0], theta[1] + h * u[1]], &mut gp);
            model.grad_log_density(&[theta[0] - h * u[0], theta[1] - h * u[1]], &mut gm);
            let curvature = -((gp[0] - gm[0]) * u[0] + (gp[1] - gm[1]) * u[1]) / (2.0 * h);
            largest = largest.max(curvature);
            for i in 0..model.n_data() {
                let mut g = [0.0; 2];
                model.add_grad_log_lik(i, &theta, &mut g);
                assert!((g[0] * u[0] + g[1] * u[1]).abs() <= l);
            }
        }
        // At θ = 0 every σ(1 − σ) = ¼, so the bound is attained up to the Gram matrix's top direction.
        assert!(largest <= m && largest > 0.5 * m, "curvature {largest} vs bound {m}");
    }

    #[test]
    fn refuses_one_class_and_non_binary_labels() {
        let e = LogisticRegression::new(1, vec![1.0, 2.0], vec![1.0, 1.0], 1.0, vec![]).unwrap_err();
        assert!(e.contains("both classes"), "{e}");
        let e = LogisticRegression::new(1, vec![1.0, 2.0], vec![1.0, 0.5], 1.0, vec![]).unwrap_err();
        assert!(e.contains("row 3") && e.contains("not 0 or 1"), "{e}");
    }

    #[test]
    fn stable_log_sigmoid() {
        assert!((log_sigmoid(-800.0) + 800.0).abs() < 1e-9);
        assert!(log_sigmoid(800.0).abs() < 1e-300);
        assert!((sigmoid(0.3) + sigmoid(-0.3) - 1.0).abs() < 1e-15);
    }
}
