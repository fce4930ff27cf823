//! Bayesian linear regression with known noise: y_i = x_iᵀw + b + ε_i, ε_i ~ N(0, σ²),
//! θ = [w, b] ~ N(0, σ_p² I). Exact posterior and exact evidence (docs/truth.md §5, generalised
//! from σ_p = 1): A = I/σ_p² + ΦᵀΦ/σ², m = A⁻¹Φᵀy/σ²,
//! log Z = −(N/2) log(2πσ²) − ½ log det(σ_p² A) − ½ (yᵀy/σ² − mᵀAm).

use super::{Model, View};
use crate::data::Dataset;
use crate::diagnostics::Moments;
use crate::linalg::matrix_to_rows;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};
use crate::rng::{chain_rng, standard_normal};
use nalgebra::{DMatrix, DVector};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::choice("dataset", "Data set", "", "Synthetic data, or the shipped diabetes data (442 × 10)", &["synthetic", "diabetes"], 0).primary(),
    ParamSpec::choice("standardise", "Standardise", "", "Built-in real data: scale every feature and the response to mean 0, sd 1 (uploaded files are used as given)", &["off", "on"], 1).shown_when("dataset", &[1.0]),
    ParamSpec::log("noise_sd", "Noise scale", "σ", "Known std. dev. of the observation noise", 1e-3, 1e3, 1.0),
    ParamSpec::log("prior_sd", "Prior scale", "σ_p", "Std. dev. of the N(0, σ_p²) prior on every weight and the bias", 0.01, 1e4, 1.0),
    ParamSpec::integer("n_points", "Data points (synthetic)", "N", "Size of the generated data set (ignored when data are loaded)", 2.0, 1e6, 200.0, true).primary().shown_when("dataset", &[0.0]),
    ParamSpec::integer("n_features", "Features (synthetic)", "d", "Number of generated features", 1.0, 50.0, 1.0, false).shown_when("dataset", &[0.0]),
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the synthetic data generator", 0.0, 1e9, 1.0, false).shown_when("dataset", &[0.0]),
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "linreg",
    label: "Linear regression",
    description: "Bayesian linear regression with known noise; exact posterior and evidence",
    kind: TargetKind::Regression,
    params: PARAMS,
    build: |values, data| Ok(Box::new(LinearRegression::from_params(values, data)?)),
};

#[derive(Clone, Debug)]
pub struct LinearRegression {
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub d: usize,
    features: Vec<f64>,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub responses: Vec<f64>,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub noise_sd: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub prior_sd: f64,
    /// The full-data posterior (precision, mean), computed once on first use (O(N d²)).
    posterior: std::sync::OnceLock<(DMatrix<f64>, DVector<f64>)>,
}

impl LinearRegression {
    pub fn new(d: usize, features: Vec<f64>, responses: Vec<f64>, noise_sd: f64, prior_sd: f64) -> Self {
        LinearRegression { d, features, responses, noise_sd, prior_sd, posterior: std::sync::OnceLock::new() }
    }

    /// The full-data posterior (precision, mean), cached.
    fn posterior(&self) -> &(DMatrix<f64>, DVector<f64>) {
        self.posterior.get_or_init(|| self.posterior_after(self.responses.len()))
    }

    /// The `linreg` registry entry: an uploaded data set, the diabetes data, or synthetic data.
    pub fn from_params(values: &ParamValues, data: Option<&Dataset>) -> Result<Self, String> {
        let real = match (data, values.get_usize("dataset")) {
            // User data are used exactly as given (no hidden rescaling).
            (Some(d), _) => return Ok(Self::new(d.n_features(), d.features.clone(), d.responses.clone(), values.get("noise_sd"), values.get("prior_sd"))),
            (None, 0) => return Ok(Self::synthetic(values)),
            (None, _) => crate::data::builtin("diabetes")?,
        };
        let real = if values.get_bool("standardise") { real.standardised().standardised_response() } else { real };
        Ok(Self::new(real.n_features(), real.features, real.responses, values.get("noise_sd"), values.get("prior_sd")))
    }

    /// Standard-normal features, weights and bias drawn from the prior, responses with noise σ.
    pub fn synthetic(values: &ParamValues) -> Self {
        let (n, d) = (values.get_usize("n_points"), values.get_usize("n_features"));
        let (noise_sd, prior_sd) = (values.get("noise_sd"), values.get("prior_sd"));
        let mut rng = chain_rng(values.get("data_seed") as u64);
        let truth: Vec<f64> = (0..=d).map(|_| prior_sd * standard_normal(&mut rng)).collect();
        let mut features = Vec::with_capacity(n * d);
        let mut responses = Vec::with_capacity(n);
        for _ in 0..n {
            let x: Vec<f64> = (0..d).map(|_| standard_normal(&mut rng)).collect();
            let mean = x.iter().zip(&truth).map(|(a, b)| a * b).sum::<f64>() + truth[d];
            responses.push(mean + noise_sd * standard_normal(&mut rng));
            features.extend(x);
        }
        Self::new(d, features, responses, noise_sd, prior_sd)
    }

    /// φ_i = [x_i, 1].
    pub fn design_row(&self, i: usize) -> Vec<f64> {
        let mut phi = self.features[i * self.d..(i + 1) * self.d].to_vec();
        phi.push(1.0);
        phi
    }

    pub fn response(&self, i: usize) -> f64 {
        self.responses[i]
    }
    pub fn noise_sd(&self) -> f64 {
        self.noise_sd
    }
    pub fn prior_sd(&self) -> f64 {
        self.prior_sd
    }

    /// Posterior precision A and mean m of θ given the first `n` data.
    pub fn posterior_after(&self, n: usize) -> (DMatrix<f64>, DVector<f64>) {
        let dim = self.d + 1;
        let noise_var = self.noise_sd * self.noise_sd;
        let mut precision = DMatrix::<f64>::identity(dim, dim) / (self.prior_sd * self.prior_sd);
        let mut rhs = DVector::<f64>::zeros(dim);
        for i in 0..n {
            let phi = DVector::from_vec(self.design_row(i));
            precision += &phi * phi.transpose() / noise_var;
            rhs += &phi * (self.responses[i] / noise_var);
        }
        let mean = precision.clone().cholesky().expect("posterior precision is SPD").solve(&rhs);
        (precision, mean)
    }

    /// Exact log evidence log p(y_1..y_n) of the first `n` data (docs/truth.md §5).
    pub fn log_evidence_after(&self, n: usize) -> f64 {
        let noise_var = self.noise_sd * self.noise_sd;
        let (precision, mean) = self.posterior_after(n);
        let yty: f64 = self.responses[..n].iter().map(|y| y * y).sum();
        let log_det_scaled = precision.clone().cholesky().expect("SPD").l().diagonal().iter().map(|l| 2.0 * l.ln()).sum::<f64>()
            + (self.d + 1) as f64 * (self.prior_sd * self.prior_sd).ln();
        let quad = mean.dot(&(&precision * &mean));
        -(n as f64 / 2.0) * (2.0 * std::f64::consts::PI * noise_var).ln() - 0.5 * log_det_scaled - 0.5 * (yty / noise_var - quad)
    }

    /// The one-step-ahead predictive log densities log p(y_n | y_<n), n = 1..N (docs/truth.md §5,
    /// sequential form): log N(y_n; φ_nᵀm_{n−1}, σ² + φ_nᵀS_{n−1}φ_n), with the posterior covariance
    /// S_n = A_n⁻¹ updated by Sherman–Morrison (a Kalman filter), O(N d²). They sum to log Z.
    pub fn sequential_log_predictives(&self) -> Vec<f64> {
        let mut state = SequentialPosterior::prior(self.d + 1, self.prior_sd);
        (0..self.responses.len()).map(|i| state.absorb(&self.design_row(i), self.responses[i], self.noise_sd)).collect()
    }

    /// Posterior mean and covariance after all data by the sequential (Kalman) recursion — an
    /// independent route to [`Model::exact_moments`].
    pub fn sequential_posterior(&self) -> Moments {
        let mut state = SequentialPosterior::prior(self.d + 1, self.prior_sd);
        for i in 0..self.responses.len() {
            state.absorb(&self.design_row(i), self.responses[i], self.noise_sd);
        }
        Moments { mean: state.mean.as_slice().to_vec(), cov: matrix_to_rows(&state.cov) }
    }

    /// Exact log evidence of the whole data set.
    pub fn log_evidence(&self) -> f64 {
        self.log_evidence_after(self.responses.len())
    }
}

/// Gaussian posterior N(m, S) of θ, updated one observation at a time.
struct SequentialPosterior {
    mean: DVector<f64>,
    cov: DMatrix<f64>,
}

impl SequentialPosterior {
    fn prior(dim: usize, prior_sd: f64) -> Self {
        SequentialPosterior { mean: DVector::zeros(dim), cov: DMatrix::identity(dim, dim) * (prior_sd * prior_sd) }
    }

    /// Condition on y = φᵀθ + N(0, σ²); returns log p(y | earlier data).
    fn absorb(&mut self, phi: &[f64], y: f64, noise_sd: f64) -> f64 {
        let phi = DVector::from_column_slice(phi);
        let s_phi = &self.cov * &phi;
        let predictive_var = noise_sd * noise_sd + phi.dot(&s_phi);
        let residual = y - phi.dot(&self.mean);
        let log_predictive = -0.5 * (2.0 * std::f64::consts::PI * predictive_var).ln() - 0.5 * residual * residual / predictive_var;
        self.mean += &s_phi * (residual / predictive_var);
        self.cov -= &s_phi * s_phi.transpose() / predictive_var;
        log_predictive
    }
}

impl Model for LinearRegression {
    fn dim(&self) -> usize {
        self.d + 1
    }
    fn n_data(&self) -> usize {
        self.responses.len()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        super::isotropic_normal_log_density(theta, self.prior_sd)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        super::add_isotropic_normal_gradient(theta, self.prior_sd, out)
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let var = self.noise_sd * self.noise_sd;
        let r = self.responses[i] - self.prediction(i, theta);
        -0.5 * r * r / var - 0.5 * (2.0 * std::f64::consts::PI * var).ln()
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let r = (self.responses[i] - self.prediction(i, theta)) / (self.noise_sd * self.noise_sd);
        for (o, x) in out.iter_mut().zip(&self.features[i * self.d..(i + 1) * self.d]) {
            *o += r * x;
        }
        out[self.d] += r;
    }
    fn gaussian_precision(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        let (precision, mean) = self.posterior();
        Some((mean.as_slice().to_vec(), precision.transpose().as_slice().to_vec()))
    }

    fn exact_moments(&self) -> Option<Moments> {
        let (precision, mean) = self.posterior();
        let cov = precision.clone().try_inverse()?;
        Some(Moments { mean: mean.as_slice().to_vec(), cov: matrix_to_rows(&cov) })
    }

    /// The data and the full-data posterior (precision row by row, mean), so that the page can
    /// adopt a large synthetic data set a worker generated without repeating the O(N d²) pass.
    fn export_parts(&self) -> Option<super::ExportedModel> {
        let (precision, mean) = self.posterior();
        let header = serde_json::json!({
            "kind": "linear", "d": self.d, "noise_sd": self.noise_sd, "prior_sd": self.prior_sd,
            "precision": matrix_to_rows(precision), "mean": mean.as_slice(),
        });
        Some(super::ExportedModel { header, features: self.features.clone(), labels: self.responses.clone() })
    }

    /// Chains start at the posterior mean (not 30 posterior sds away at the origin).
    fn initial_point(&self) -> Vec<f64> {
        self.posterior().1.as_slice().to_vec()
    }
    fn view(&self) -> View {
        match self.exact_moments() {
            Some(m) => View::centred(m.mean[0], m.mean[self.d.min(1)], 4.0 * m.cov[0][0].sqrt(), 4.0 * m.cov[1][1].sqrt()),
            None => View::centred(0.0, 0.0, 3.0, 3.0),
        }
    }
    fn coordinate_names(&self) -> Vec<String> {
        (1..=self.d).map(|j| format!("w{j}")).chain(std::iter::once("b".to_string())).collect()
    }
}

impl LinearRegression {
    /// Rebuild from [`Model::export_parts`] without generating the data or computing the
    /// posterior again; shapes and the header are checked.
    pub fn from_parts(parts: super::ExportedModel) -> Result<Self, String> {
        #[derive(serde::Deserialize)]
        struct Header {
            d: usize,
            noise_sd: f64,
            prior_sd: f64,
            precision: Vec<Vec<f64>>,
            mean: Vec<f64>,
        }
        let h: Header = serde_json::from_value(parts.header).map_err(|e| format!("exported linear model: {e}"))?;
        let (n, dim) = (parts.labels.len(), h.d + 1);
        let square = h.precision.len() == dim && h.precision.iter().all(|row| row.len() == dim);
        if h.d == 0 || n == 0 || parts.features.len() != n * h.d || h.mean.len() != dim || !square {
            return Err(format!("exported linear model: inconsistent shapes (d = {}, {} features, {} responses)", h.d, parts.features.len(), n));
        }
        if !(h.noise_sd > 0.0 && h.prior_sd > 0.0) {
            return Err("exported linear model: noise and prior scales must be positive".into());
        }
        if parts.labels.iter().chain(&parts.features).any(|v| !v.is_finite()) {
            return Err("exported linear model: non-finite data".into());
        }
        let model = Self::new(h.d, parts.features, parts.labels, h.noise_sd, h.prior_sd);
        let precision = DMatrix::from_fn(dim, dim, |i, j| h.precision[i][j]);
        model.posterior.set((precision, DVector::from_vec(h.mean))).expect("a new model has no posterior yet");
        Ok(model)
    }

    #[inline]
    fn prediction(&self, i: usize, theta: &[f64]) -> f64 {
        self.features[i * self.d..(i + 1) * self.d].iter().zip(theta).map(|(a, b)| a * b).sum::<f64>() + theta[self.d]
    }
}
