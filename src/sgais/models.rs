//! The three SGAIS models of the paper's Appendix B behind the ordinary [`Model`] interface, plus
//! what evidence estimation needs on top: a prior sampler (particles start from the prior) and the
//! exact evidence curve where it exists (linear regression, docs/truth.md §5).
//!
//! SGAIS needs *normalised* log-likelihoods ℓ_i; every model listed here provides them.

use crate::data::Dataset;
use crate::model::gmm::{generate_cluster_data, ClusterSchedule, GaussianMixture};
use crate::model::linear::{self, LinearRegression};
use crate::model::softmax::SoftmaxRegression;
use crate::model::Model;
use super::PARAMS;
use crate::params::{unknown_param, ParamSpec, ParamValues};
use crate::rng::{standard_normal, ChainRng};
use nalgebra::{DMatrix, DVector};
use serde::Serialize;
use std::sync::Arc;

/// A model whose evidence SGAIS can estimate.
pub trait EvidenceModel: Model {
    /// One draw from the prior p(θ).
    fn sample_prior(&self, rng: &mut ChainRng) -> Vec<f64>;
    /// Exact log p(y_1..y_n) at every n in `checkpoints` (increasing), when a closed form exists.
    fn exact_log_evidence_curve(&self, _checkpoints: &[usize]) -> Option<Vec<f64>> {
        None
    }
    /// θ ↦ θ − P_V θ for a linear subspace V along which the likelihood is exactly constant and
    /// whose part of θ is independent of the rest under the prior (an isotropic Gaussian prior);
    /// false, θ untouched, when the model has none. Nested sampling draws that part from the prior
    /// and sizes its walk from the rest (docs/sgais.md (SGAIS.15)).
    fn remove_flat_part(&self, _theta: &mut [f64]) -> bool {
        false
    }
    /// The model as a Gaussian mixture, for the re-seeding move of src/sgais/reseed.rs.
    fn as_mixture(&self) -> Option<&GaussianMixture> {
        None
    }
}

impl EvidenceModel for LinearRegression {
    fn sample_prior(&self, rng: &mut ChainRng) -> Vec<f64> {
        (0..self.dim()).map(|_| self.prior_sd() * standard_normal(rng)).collect()
    }
    fn exact_log_evidence_curve(&self, checkpoints: &[usize]) -> Option<Vec<f64>> {
        Some(sequential_linear_evidence(self, checkpoints))
    }
}

impl EvidenceModel for SoftmaxRegression {
    fn sample_prior(&self, rng: &mut ChainRng) -> Vec<f64> {
        SoftmaxRegression::sample_prior(self, rng)
    }
    /// V = equal shifts of every class's weights and bias (paper B.2's prior is N(0, I)).
    fn remove_flat_part(&self, theta: &mut [f64]) -> bool {
        self.remove_class_shift(theta);
        true
    }
}

impl EvidenceModel for GaussianMixture {
    fn sample_prior(&self, rng: &mut ChainRng) -> Vec<f64> {
        GaussianMixture::sample_prior(self, rng)
    }
    /// Exact for K = 1 (conjugate Normal-Inverse-Gamma in every coordinate), None otherwise.
    fn exact_log_evidence_curve(&self, checkpoints: &[usize]) -> Option<Vec<f64>> {
        crate::model::gmm::one_component_log_evidence(self, checkpoints)
    }
    fn as_mixture(&self) -> Option<&GaussianMixture> {
        Some(self)
    }
}

/// docs/truth.md (TRUTH.5) in one O(N d²) pass: accumulate A = I/σ_p² + ΦᵀΦ/σ², r = Φᵀy/σ² and yᵀy, and at
/// each checkpoint evaluate log Z = −(n/2) log(2πσ²) − ½ log det(σ_p² A) − ½ (yᵀy/σ² − rᵀA⁻¹r).
pub fn sequential_linear_evidence(model: &LinearRegression, checkpoints: &[usize]) -> Vec<f64> {
    let dim = model.dim();
    let noise_var = model.noise_sd().powi(2);
    let prior_var = model.prior_sd().powi(2);
    let mut precision = DMatrix::<f64>::identity(dim, dim) / prior_var;
    let mut rhs = DVector::<f64>::zeros(dim);
    let (mut yty, mut done) = (0.0, 0);
    let mut curve = Vec::with_capacity(checkpoints.len());
    for &n in checkpoints {
        for i in done..n.min(model.n_data()) {
            let phi = DVector::from_vec(model.design_row(i));
            let y = model.response(i);
            precision.ger(1.0 / noise_var, &phi, &phi, 1.0);
            rhs.axpy(y / noise_var, &phi, 1.0);
            yty += y * y;
        }
        done = n.min(model.n_data());
        let chol = precision.clone().cholesky().expect("posterior precision is SPD");
        let log_det = chol.l().diagonal().iter().map(|l| 2.0 * l.ln()).sum::<f64>() + dim as f64 * prior_var.ln();
        let quad = rhs.dot(&chol.solve(&rhs));
        curve.push(-(done as f64 / 2.0) * (2.0 * std::f64::consts::PI * noise_var).ln() - 0.5 * log_det - 0.5 * (yty / noise_var - quad));
    }
    curve
}

const N_POINTS: ParamSpec =
    ParamSpec::integer("n_points", "Data points", "N", "Size of the generated data set (ignored when data are loaded)", 10.0, 1e6, 10_000.0, true);
const DATA_SEED: ParamSpec = ParamSpec::integer("data_seed", "Data seed", "", "Seed of the synthetic data generator", 0.0, 1e9, 1.0, false);

pub const LINREG_PARAMS: &[ParamSpec] = &[
    N_POINTS,
    ParamSpec::integer("n_features", "Features", "d", "Number of generated features (paper: 5)", 1.0, 50.0, 5.0, false),
    ParamSpec::log("noise_sd", "Noise scale", "σ", "Known std. dev. of the observation noise", 1e-2, 1e2, 1.0),
    DATA_SEED,
];

pub const SOFTMAX_PARAMS: &[ParamSpec] = &[
    N_POINTS,
    ParamSpec::integer("n_features", "Features", "d", "Number of generated features (paper: 10)", 1.0, 50.0, 10.0, false),
    ParamSpec::integer("n_classes", "Classes", "C", "Number of generated classes (paper: 4)", 2.0, 10.0, 4.0, false),
    DATA_SEED,
];

pub const GMM_PARAMS: &[ParamSpec] = &[
    N_POINTS,
    ParamSpec::integer("n_components", "Mixture components", "K", "Components of the fitted mixture (paper: 5)", 1.0, 16.0, 5.0, false),
    ParamSpec::choice(
        "scenario",
        "Data scenario",
        "",
        "stationary: data_clusters clusters throughout; shift: 3 → 5 → 7 clusters at n = 1,000 and 10,000 (paper §6.2); shift_shuffled: the same points shuffled",
        &["stationary", "shift", "shift_shuffled"],
        0,
    ),
    ParamSpec::integer("data_clusters", "Data clusters", "", "Clusters in stationary generated data", 1.0, 7.0, 5.0, false),
    DATA_SEED,
];

/// Builds an evidence model from validated parameters and optional user data.
pub type BuildEvidenceModel = fn(&ParamValues, Option<&Dataset>) -> Result<Arc<dyn EvidenceModel>, String>;

/// One SGAIS model: name, parameters, builder (the evidence counterpart of a registry `TargetSpec`).
#[derive(Clone, Copy, Serialize)]
pub struct EvidenceTarget {
    pub name: &'static str,
    pub label: &'static str,
    pub description: &'static str,
    /// Whether `--data FILE.csv` is accepted.
    pub accepts_data: bool,
    pub params: &'static [ParamSpec],
    #[serde(skip)]
    pub build: BuildEvidenceModel,
}

pub const EVIDENCE_TARGETS: &[EvidenceTarget] = &[
    EvidenceTarget {
        name: "linreg",
        label: "Linear regression",
        description: "Paper B.1: y = wᵀx + b + ε, known σ, N(0, 1) priors; exact evidence",
        accepts_data: true,
        params: LINREG_PARAMS,
        build: build_linreg,
    },
    EvidenceTarget {
        name: "softmax",
        label: "Softmax regression",
        description: "Paper B.2: 10 features, 4 classes, N(0, 1) priors (44 parameters); CSV labels 0..C−1",
        accepts_data: true,
        params: SOFTMAX_PARAMS,
        build: build_softmax,
    },
    EvidenceTarget {
        name: "gmm",
        label: "Gaussian mixture",
        description: "Paper B.3: 2-D data, K diagonal components, Dir(1) / N(0, 4σ²) / InvGamma(1, 1) priors",
        accepts_data: false,
        params: GMM_PARAMS,
        build: build_gmm,
    },
    EvidenceTarget {
        name: "gmm1d",
        label: "1-D Gaussian mixture (App. A.2)",
        description: "Paper App. A.2, Fig. A1: scalar data from 3 clusters, K = 3 components (9 parameters), priors of B.3",
        accepts_data: false,
        params: super::mixture1d::GMM1D_PARAMS,
        build: build_gmm1d,
    },
];

/// Look an evidence target up by name; the error lists the allowed names.
pub fn evidence_target(name: &str) -> Result<&'static EvidenceTarget, String> {
    EVIDENCE_TARGETS.iter().find(|t| t.name == name).ok_or_else(|| {
        let names: Vec<&str> = EVIDENCE_TARGETS.iter().map(|t| t.name).collect();
        format!("unknown evidence target '{name}'; allowed: {}", names.join(", "))
    })
}

fn build_linreg(values: &ParamValues, data: Option<&Dataset>) -> Result<Arc<dyn EvidenceModel>, String> {
    let noise_sd = values.get("noise_sd");
    let model = match data {
        Some(d) => LinearRegression::new(d.n_features(), d.features.clone(), d.responses.clone(), noise_sd, 1.0),
        None => {
            let overrides = [
                ("n_points".to_string(), values.get("n_points")),
                ("n_features".to_string(), values.get("n_features")),
                ("noise_sd".to_string(), noise_sd),
                ("prior_sd".to_string(), 1.0),
                ("data_seed".to_string(), values.get("data_seed")),
            ];
            LinearRegression::synthetic(&ParamValues::resolve(linear::PARAMS, &overrides)?)
        }
    };
    Ok(Arc::new(model))
}

fn build_softmax(values: &ParamValues, data: Option<&Dataset>) -> Result<Arc<dyn EvidenceModel>, String> {
    let model = match data {
        Some(d) => SoftmaxRegression::from_dataset(d, 1.0)?,
        None => SoftmaxRegression::synthetic(
            values.get_usize("n_points"),
            values.get_usize("n_features"),
            values.get_usize("n_classes"),
            1.0,
            values.get("data_seed") as u64,
        ),
    };
    Ok(Arc::new(model))
}

fn build_gmm(values: &ParamValues, data: Option<&Dataset>) -> Result<Arc<dyn EvidenceModel>, String> {
    if data.is_some() {
        return Err("target 'gmm' uses generated data only; --data is for linreg and softmax".into());
    }
    let schedule = match values.get_usize("scenario") {
        0 => ClusterSchedule::Stationary(values.get_usize("data_clusters")),
        1 => ClusterSchedule::Shift { shuffled: false },
        _ => ClusterSchedule::Shift { shuffled: true },
    };
    let points = generate_cluster_data(values.get_usize("n_points"), schedule, values.get("data_seed") as u64);
    Ok(Arc::new(GaussianMixture::new(2, values.get_usize("n_components"), points)?))
}

/// The 1-D mixture of the paper's App. A.2 (src/sgais/mixture1d.rs), generated data only.
fn build_gmm1d(values: &ParamValues, data: Option<&Dataset>) -> Result<Arc<dyn EvidenceModel>, String> {
    if data.is_some() {
        return Err("target 'gmm1d' uses generated data only; --data is for linreg and softmax".into());
    }
    let points = super::mixture1d::one_d_mixture_data(values.get_usize("n_points"), values.get("data_seed") as u64);
    Ok(Arc::new(GaussianMixture::new(1, values.get_usize("n_components"), points)?))
}

/// Each `name=value` goes to the SGAIS list or the target's list; unknown names are refused. The
/// SGAIS values start from the target's own defaults ([`super::model_defaults::sgais_defaults_for`]).
pub fn split_settings(target: &EvidenceTarget, settings: &[(String, String)]) -> Result<(ParamValues, ParamValues), String> {
    let mut target_values = ParamValues::defaults(target.params);
    let mut sgais_values = super::model_defaults::sgais_defaults_for(target.name);
    for (name, text) in settings {
        if let Some(spec) = PARAMS.iter().find(|s| s.name == name) {
            sgais_values.set(PARAMS, name, spec.parse(text)?)?;
        } else if let Some(spec) = target.params.iter().find(|s| s.name == name) {
            target_values.set(target.params, name, spec.parse(text)?)?;
        } else {
            let all: Vec<ParamSpec> = PARAMS.iter().chain(target.params).copied().collect();
            return Err(unknown_param(&all, name));
        }
    }
    Ok((target_values, sgais_values))
}
