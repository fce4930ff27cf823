//! Bayesian softmax (multinomial logistic) regression, SGAIS paper Appendix B.2 (Cameron, Eggers,
//! Kroon 2019): labels y ∈ {0..C−1}, p(y | x, θ) = exp(w_yᵀx + b_y) / Σ_k exp(w_kᵀx + b_k), with
//! independent N(0, σ_p²) priors (σ_p = 1 in the paper). The paper's setting is x ∈ R^10 and C = 4,
//! i.e. 44 parameters.
//!
//! Parameters follow docs/README.md, Notation (weights, then biases): θ = [w_1 (d), …, w_C (d), b_1..b_C].
//! Log-likelihood and prior are fully normalised, so the model can be used for evidence estimation.
//! Per-datum score: ∂ℓ/∂w_k = (1[y = k] − p_k) x, ∂ℓ/∂b_k = 1[y = k] − p_k.

use super::{Model, View};
use crate::data::Dataset;
use crate::rng::{chain_rng, standard_normal, uniform, ChainRng};

/// Features X (N × d, row-major), labels in 0..C, Gaussian prior.
#[derive(Clone, Debug)]
pub struct SoftmaxRegression {
    d: usize,
    classes: usize,
    features: Vec<f64>,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub labels: Vec<usize>,
    prior_sd: f64,
}

impl SoftmaxRegression {
    /// A model over given features and integer labels in 0..classes.
    pub fn new(d: usize, classes: usize, features: Vec<f64>, labels: Vec<usize>, prior_sd: f64) -> Result<Self, String> {
        if classes < 2 {
            return Err(format!("softmax regression needs at least 2 classes, got {classes}"));
        }
        if let Some((i, y)) = labels.iter().enumerate().find(|(_, y)| **y >= classes) {
            return Err(format!("datum {i}: label {y} is not in 0..{classes}"));
        }
        Ok(SoftmaxRegression { d, classes, features, labels, prior_sd })
    }

    /// From a data set whose last column holds class labels 0, 1, …, C−1 (C = largest label + 1).
    /// Refuses a class with no rows: it would be a class the data never show (e.g. labels 1..4
    /// read as 0..4 make an empty class 0), which silently changes the model and its evidence.
    pub fn from_dataset(data: &Dataset, prior_sd: f64) -> Result<Self, String> {
        let mut labels = Vec::with_capacity(data.len());
        for (i, &y) in data.responses.iter().enumerate() {
            if y < 0.0 || y.fract() != 0.0 || y > 1000.0 {
                return Err(format!("row {}: label {y} is not a class index 0, 1, 2, … (last column)", i + 2));
            }
            labels.push(y as usize);
        }
        let classes = (labels.iter().copied().max().unwrap_or(0) + 1).max(2);
        let mut counts = vec![0usize; classes];
        labels.iter().for_each(|&y| counts[y] += 1);
        let empty: Vec<String> = (0..classes).filter(|&k| counts[k] == 0).map(|k| k.to_string()).collect();
        if !empty.is_empty() {
            let hint = if counts[0] == 0 && counts[1..].iter().all(|&c| c > 0) { "; the labels look 1-based: subtract 1 so that they run 0..C−1" } else { "" };
            return Err(format!(
                "{} {} no rows: labels must be 0, 1, …, C−1 = {} with every class present (last column '{}'){hint}",
                if empty.len() == 1 { format!("class {}", empty[0]) } else { format!("classes {}", empty.join(", ")) },
                if empty.len() == 1 { "has" } else { "have" },
                classes - 1,
                data.response_name
            ));
        }
        Self::new(data.n_features(), classes, data.features.clone(), labels, prior_sd)
    }

    /// Standard-normal features; labels drawn from the model with θ* drawn from the prior
    /// (the paper's "sampling i.i.d. from the model's conditional distribution with the parameters fixed").
    pub fn synthetic(n: usize, d: usize, classes: usize, prior_sd: f64, seed: u64) -> Self {
        let mut rng = chain_rng(seed);
        let dim = classes * (d + 1);
        let truth: Vec<f64> = (0..dim).map(|_| prior_sd * standard_normal(&mut rng)).collect();
        let mut features = Vec::with_capacity(n * d);
        let mut labels = Vec::with_capacity(n);
        let mut model = SoftmaxRegression { d, classes, features: Vec::new(), labels: Vec::new(), prior_sd };
        let mut probs = vec![0.0; classes];
        for _ in 0..n {
            let x: Vec<f64> = (0..d).map(|_| standard_normal(&mut rng)).collect();
            model.class_probabilities(&x, &truth, &mut probs);
            labels.push(draw_category(&probs, &mut rng));
            features.extend(x);
        }
        model.features = features;
        model.labels = labels;
        model
    }

    pub fn n_classes(&self) -> usize {
        self.classes
    }
    pub fn n_features(&self) -> usize {
        self.d
    }
    pub fn prior_sd(&self) -> f64 {
        self.prior_sd
    }
    /// Datum i: its features and its class label.
    pub fn datum(&self, i: usize) -> (&[f64], usize) {
        (self.row(i), self.labels[i])
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.features[i * self.d..(i + 1) * self.d]
    }

    /// z_k = w_kᵀx + b_k for every class.
    fn logits(&self, x: &[f64], theta: &[f64], out: &mut [f64]) {
        let bias = &theta[self.classes * self.d..];
        for (k, z) in out.iter_mut().enumerate() {
            let w = &theta[k * self.d..(k + 1) * self.d];
            *z = w.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + bias[k];
        }
    }

    /// p_k = softmax(z)_k; returns log Σ_k exp(z_k).
    fn class_probabilities(&self, x: &[f64], theta: &[f64], out: &mut [f64]) -> f64 {
        self.logits(x, theta, out);
        let max = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        for p in out.iter_mut() {
            *p = (*p - max).exp();
            sum += *p;
        }
        for p in out.iter_mut() {
            *p /= sum;
        }
        max + sum.ln()
    }

    /// Draw θ from the N(0, σ_p² I) prior.
    pub fn sample_prior(&self, rng: &mut ChainRng) -> Vec<f64> {
        (0..self.dim()).map(|_| self.prior_sd * standard_normal(rng)).collect()
    }

    /// θ ↦ θ − P_V θ: subtract from every weight coordinate and from the biases their mean over the
    /// classes. V = {θ_k = v for every class k} is where the likelihood is flat (softmax is unchanged
    /// when every logit moves by the same vᵀx̃), and the prior N(0, σ_p² I) is isotropic, so the
    /// parts of θ in V and across it are independent a priori (docs/sgais.md (SGAIS.15)).
    pub fn remove_class_shift(&self, theta: &mut [f64]) {
        let c = self.classes as f64;
        for j in 0..self.d {
            let mean = (0..self.classes).map(|k| theta[k * self.d + j]).sum::<f64>() / c;
            (0..self.classes).for_each(|k| theta[k * self.d + j] -= mean);
        }
        let bias = &mut theta[self.classes * self.d..];
        let mean = bias.iter().sum::<f64>() / c;
        bias.iter_mut().for_each(|b| *b -= mean);
    }
}

/// Index k with probability probs[k].
fn draw_category(probs: &[f64], rng: &mut ChainRng) -> usize {
    let u = uniform(rng);
    let mut cumulative = 0.0;
    for (k, p) in probs.iter().enumerate() {
        cumulative += p;
        if u < cumulative {
            return k;
        }
    }
    probs.len() - 1
}

impl Model for SoftmaxRegression {
    fn dim(&self) -> usize {
        self.classes * (self.d + 1)
    }
    fn n_data(&self) -> usize {
        self.labels.len()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        super::isotropic_normal_log_density(theta, self.prior_sd)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        super::add_isotropic_normal_gradient(theta, self.prior_sd, out)
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let mut z = vec![0.0; self.classes];
        self.logits(self.row(i), theta, &mut z);
        let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let log_norm = max + z.iter().map(|v| (v - max).exp()).sum::<f64>().ln();
        z[self.labels[i]] - log_norm
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        self.add_grad_log_lik_batch(&[i], theta, out);
    }
    /// One probability buffer for the whole batch (no allocation per datum).
    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        let mut p = vec![0.0; self.classes];
        let bias_offset = self.classes * self.d;
        for &i in batch {
            let x = self.row(i);
            self.class_probabilities(x, theta, &mut p);
            for (k, pk) in p.iter().enumerate() {
                let residual = if k == self.labels[i] { 1.0 - pk } else { -pk };
                for (o, xj) in out[k * self.d..(k + 1) * self.d].iter_mut().zip(x) {
                    *o += residual * xj;
                }
                out[bias_offset + k] += residual;
            }
        }
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 3.0 * self.prior_sd, 3.0 * self.prior_sd)
    }
    fn coordinate_names(&self) -> Vec<String> {
        let weights = (1..=self.classes).flat_map(|k| (1..=self.d).map(move |j| format!("w{k}_{j}")));
        weights.chain((1..=self.classes).map(|k| format!("b{k}"))).collect()
    }
}
