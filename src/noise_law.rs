//! SGHMC's noise law where no Gaussian law exists (issue 21, docs/sghmc.md §4, docs/diagnostics.md
//! §11): on a 2-D target without a Gaussian summary (banana, funnel), src/promise.rs predicts
//! nothing and the measured mixing signal (src/mixing_meter.rs) cannot see a bias. SGHMC's bias
//! from unmatched noise is predicted instead from the local law (SGHMC.5): the momentum receives
//! noise 2η(α − β̂′) injected plus η²V(θ) from the minibatch, against the 2αη that keeps the
//! posterior, so locally the position covariance is H(θ)⁻¹(αI + B(θ) − β̂′I)/α with B = ηV/2 and
//! β̂′ = min(β̂, α). The excess averaged over the chain's own positions is
//!   Δ = [η(N/n − 1)/2 · I + (ηs²/2 − β̂′)·E[F(θ)⁻¹]]/α,            (SGHMC.6)
//! with the empirical Fisher F = N·Cov(g_i) standing for the local curvature H (it is the
//! Gauss–Newton matrix of the toys, exactly: src/model/toy.rs) and V = (N/n − 1)F + s²I the
//! minibatch noise (docs/README.md, Notation), so H⁻¹V = (N/n − 1)I + s²F⁻¹. The predicted bias is
//! E2 = Σ|Δ|/Σ|Ĉ − Δ| (the chain's covariance Ĉ is the truth plus Δ); above 0.1 the setting is
//! warned of bias, naming the slider and the value that remove the unmatched noise.
//!
//! The law is continuous-time (η → 0) and local (H ≈ F, noise and curvature constant over a
//! relaxation time): the stated E2 is approximate; what was measured against it is in
//! docs/diagnostics.md §11.
//!
//! Implemented here; tested in tests/noise_law.rs (40 seeds × 5,000 samples against quadrature
//! truths: warned settings biased, silent ones within the promise) and this file's unit tests.

use crate::defaults::BIAS_E2;
use crate::model::Model;
use crate::params::{ParamSpec, ParamValues};
use crate::ring::RingBuffer;
use crate::setting_warning::{Failure, SettingWarning};
use crate::spec::DerivedParam;
use nalgebra::DMatrix;

/// Samples since the last slider move before the law speaks (enough positions to average F⁻¹ over).
pub const MIN_SAMPLES: u64 = 1_000;
/// Positions of the chain at which F(θ)⁻¹ is evaluated (evenly spaced over the last samples).
pub const POINTS: usize = 64;
/// Most recent samples the positions and the chain's covariance are taken from.
pub const WINDOW: usize = 20_000;
/// Data whose scores estimate F at one position (an even stride beyond: the page asks for the
/// warning every frame, so 64 × 200 per-datum gradients at most; the toys have 100).
pub const FISHER_DATA: usize = 200;

/// What (SGHMC.6) needs from one chain: its step, friction, noise estimate and minibatch, the data
/// size and synthetic noise, its covariance Ĉ and the mean inverse Fisher over its positions.
#[derive(Clone, Debug)]
pub struct NoiseLaw {
    pub eta: f64,
    pub friction: f64,
    pub beta_hat: f64,
    pub batch: f64,
    pub n_data: f64,
    pub synthetic_variance: f64,
    pub mean_inverse_fisher: DMatrix<f64>,
    /// The truth the chain's covariance Ĉ implies at the measured setting: Ĉ − Δ.
    pub truth: DMatrix<f64>,
}

impl NoiseLaw {
    /// The law of a chain with covariance `chain_cov` at the setting the other fields give.
    pub fn from_chain(mut self, chain_cov: &DMatrix<f64>) -> NoiseLaw {
        self.truth = chain_cov - self.excess();
        self
    }

    /// The excess covariance Δ of (SGHMC.6).
    pub fn excess(&self) -> DMatrix<f64> {
        let d = self.truth.nrows();
        let alpha = self.friction;
        let beta = self.beta_hat.clamp(0.0, alpha);
        let minibatch = self.eta * (self.n_data / self.batch.clamp(1.0, self.n_data) - 1.0) / 2.0;
        (DMatrix::identity(d, d) * minibatch + &self.mean_inverse_fisher * (self.eta * self.synthetic_variance / 2.0 - beta)) / alpha
    }

    /// The predicted bias E2 = Σ|Δ|/Σ|Ĉ − Δ| (infinite without friction: nothing removes the noise).
    /// At another setting ([`NoiseLaw::with`]) the truth stays the one measured.
    pub fn bias_e2(&self) -> f64 {
        if self.friction <= 0.0 {
            return f64::INFINITY;
        }
        self.excess().abs().sum() / self.truth.abs().sum()
    }

    /// The law at another value of one slider.
    fn with(&self, param: &str, value: f64) -> NoiseLaw {
        let mut law = self.clone();
        match param {
            "beta_hat" => law.beta_hat = value,
            "batch_size" => law.batch = value,
            _ => law.friction = value,
        }
        law
    }

    /// The slider and value that remove the noise the law is built on, where the law is then exact:
    /// β̂ = ηs²/2 (it removes the synthetic part), else the full batch n = N (no minibatch noise).
    /// Values in between are not offered: measured on the banana, (SGHMC.6) under-predicts the bias
    /// of a partial minibatch (docs/diagnostics.md §11).
    pub fn remedy(&self, ranges: &dyn Fn(&str) -> (f64, f64)) -> Option<(&'static str, f64)> {
        let target = 0.5 * BIAS_E2;
        let beta = (self.eta * self.synthetic_variance / 2.0).min(self.friction);
        if (self.beta_hat - beta).abs() > 1e-12 && self.with("beta_hat", beta).bias_e2() <= target {
            return Some(("beta_hat", beta));
        }
        let full = ranges("batch_size").1.min(self.n_data);
        (self.batch < full && full >= self.n_data && self.with("batch_size", full).bias_e2() <= target).then_some(("batch_size", full))
    }
}

/// (SGHMC.6) measured on a chain's last samples: None before [`MIN_SAMPLES`] samples, for
/// targets other than 2-D, or where the Fisher cannot be inverted at the chain's positions.
pub fn measure(samples: &RingBuffer, samples_since_clear: u64, model: &dyn Model, params: &ParamValues) -> Option<NoiseLaw> {
    let n = (samples_since_clear.min(WINDOW as u64) as usize).min(samples.len());
    if samples_since_clear < MIN_SAMPLES || samples.dim() != 2 || n < 2 {
        return None;
    }
    let first = samples.len() - n;
    let d = samples.dim();
    let mean: Vec<f64> = (0..d).map(|a| (first..samples.len()).map(|k| samples.get(k)[a]).sum::<f64>() / n as f64).collect();
    let chain_cov = DMatrix::from_fn(d, d, |a, b| (first..samples.len()).map(|k| (samples.get(k)[a] - mean[a]) * (samples.get(k)[b] - mean[b])).sum::<f64>() / (n - 1) as f64);
    let mut inverse = DMatrix::zeros(d, d);
    for j in 0..POINTS {
        let theta = samples.get(first + j * (n - 1) / (POINTS - 1));
        let fisher = crate::curvature::score_covariance(model, theta, FISHER_DATA)? * model.n_data() as f64;
        inverse += fisher.try_inverse()?;
    }
    Some(NoiseLaw {
        eta: params.get("sghmc_lr"),
        friction: params.get("friction"),
        beta_hat: params.get("beta_hat"),
        batch: params.get("batch_size"),
        n_data: model.n_data() as f64,
        synthetic_variance: model.synthetic_noise_sd().powi(2),
        mean_inverse_fisher: inverse / POINTS as f64,
        truth: DMatrix::zeros(d, d),
    }
    .from_chain(&chain_cov))
}

/// The bias warning of SGHMC at a chain's setting where no Gaussian law exists, or None.
/// Slider ranges are the derived ones where the target derives them, else the registry's.
pub fn noise_warning(samples: &RingBuffer, samples_since_clear: u64, model: &dyn Model, specs: &'static [ParamSpec], params: &ParamValues, derived: &[DerivedParam]) -> Option<SettingWarning> {
    if !specs.iter().any(|s| s.name == "beta_hat") {
        return None;
    }
    let ranges = |name: &str| derived.iter().find(|d| d.name == name).map(|d| (d.min, d.max)).or_else(|| specs.iter().find(|s| s.name == name).map(|s| (s.min, s.max.min(model.n_data() as f64)))).unwrap_or((0.0, 1.0));
    let law = measure(samples, samples_since_clear, model, params)?;
    let bias = law.bias_e2();
    if bias.is_nan() || bias <= BIAS_E2 {
        return None;
    }
    let beta = law.beta_hat.clamp(0.0, law.friction);
    let cause = if beta > law.eta * law.synthetic_variance / 2.0 {
        format!("the noise estimate β̂ = {} removes more noise than the gradients bring (ηs²/2 = {}), so the chain runs cold", crate::promise::show(law.beta_hat), crate::promise::show(law.eta * law.synthetic_variance / 2.0))
    } else if law.batch < law.n_data {
        format!("the minibatch of {} adds gradient noise that β̂ = {} does not remove", law.batch, crate::promise::show(law.beta_hat))
    } else {
        format!("the synthetic gradient noise (ηs²/2 = {}) is more than β̂ = {} removes", crate::promise::show(law.eta * law.synthetic_variance / 2.0), crate::promise::show(law.beta_hat))
    };
    let (param, remedy) = match law.remedy(&ranges) {
        Some((name, value)) => {
            let spec = specs.iter().find(|s| s.name == name).expect("a SGHMC slider");
            (name, format!("Set {} {} to {} (now {})", spec.label.to_lowercase(), spec.symbol, crate::promise::show(value), crate::promise::show(params.get(name))))
        }
        None => (if beta > 0.0 { "beta_hat" } else { "batch_size" }, "No single slider within its range removes it".to_string()),
    };
    let text = format!("{remedy}: the samples are biased (the noise law's E2 ≈ {bias:.2}, at most {BIAS_E2}); more samples will not help.");
    let detail = format!(
        "Predicted from SGHMC's noise law, measured on this chain (local curvature from the empirical Fisher at its positions; continuous time, approximate): {cause}. The samples are biased, covariance error E2 ≈ {bias:.2} with unlimited samples by the law (the promise: at most {BIAS_E2}; the law leaves out the step size, so the chain's own bias can differ in size and direction); more samples will not help. {remedy}: the law then predicts E2 ≤ {}.",
        0.5 * BIAS_E2
    );
    Some(SettingWarning { param, failure: Failure::Bias, text, detail })
}
