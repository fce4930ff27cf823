//! Nested sampling (Skilling 2006, Bayesian Analysis 1:833), the SGAIS paper's reference standard
//! (Cameron, Eggers & Kroon 2019, §6 and Appendix A.1), on the full data.
//!
//! M live points start from the prior. Iteration i removes the live point of lowest likelihood
//! L_i, which is assigned the prior-volume shell X_{i−1} − X_i with X_i = e^{−i/M} (the expected
//! log-shrinkage −1/M per iteration, Skilling 2006 §4), so Ẑ = Σ_i (X_{i−1} − X_i) L_i (rectangle
//! rule, summed in log space). It is replaced by a copy of another live point moved by the
//! constrained sampler of Appendix A.1: SGHMC on the prior (eq. 3 with the prior's exact gradient,
//! β̂ = 0), whose velocity reflects off the likelihood contour L = L_i as Δv = −2(v·n)n, n the unit
//! vector along ∇L at the rejected position, with Galilean Monte Carlo's rule for what follows
//! (Skilling 2012: move on with the reflected velocity if that lands inside, else reverse). The run stops
//! when the remaining mass max(L_live)·X_i is below 1 % of Ẑ (§6) and then adds the live points'
//! remainder (X_i/M)·Σ L_live. The standard error of log Ẑ is √(H/M) with H the information
//! (Skilling 2006 §5: log Ẑ has sd ≈ √(H/M)).
//!
//! One deviation from the paper, for correctness at any N: the paper's fixed η = 10⁻³ is a step
//! of √η ≈ 0.03 in the prior's units, larger than the posterior's width once N ≳ 10³, so the
//! walk would only bounce off the contour. Here the walk runs in coordinates scaled by the live
//! points' current standard deviation in each coordinate (a diagonal mass matrix, re-estimated
//! every iteration from the live set, as MultiNest and PolyChord adapt to the live points), with
//! √η = `ns_step` in those units. Where the likelihood is flat along a subspace V and the prior is
//! isotropic (softmax's shift of every class), that part of θ is drawn from the prior after each
//! walk and the live points' sd is taken without it (docs/sgais.md (SGAIS.15)): Z is unchanged.

use super::annealing::log_mean_exp;
use super::models::EvidenceModel;
use crate::params::{ParamSpec, ParamValues};
use crate::rng::{chain_rng, standard_normal, uniform, ChainRng};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The nested sampler's parameters (CLI `--set ns_…=…` with `--ns`; on the page, the controls under the
/// SGAIS panel's nested-sampling box, from the registry JSON's `sgais.ns_params`).
pub const NESTED_PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("ns_live_points", "Nested sampling: live points", "M_NS", "Live points of the nested-sampling baseline; its standard error is √(H/M_NS) with H the information", 2.0, 1000.0, 25.0, true),
    ParamSpec::integer("ns_steps", "Nested sampling: steps per replacement", "K_NS", "Constrained SGHMC steps per new live point (paper: 20)", 1.0, 1000.0, 20.0, true),
    ParamSpec::log("ns_step", "Nested sampling: step", "√η_NS", "SGHMC step √η of the constrained walk, in units of the live points' standard deviation per coordinate", 1e-3, 1.0, 0.1),
];

/// Settings of the nested sampler (values of [`NESTED_PARAMS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct NestedConfig {
    /// M live points.
    pub live_points: usize,
    /// SGHMC steps per replacement (paper: 20).
    pub steps: usize,
    /// √η in units of the live points' sd per coordinate.
    pub step: f64,
    /// SGHMC friction α (paper: 0.1).
    pub friction: f64,
    /// Stop when max(L_live)·X_i < this fraction of Ẑ (paper: 1 %).
    pub stop_fraction: f64,
}

impl NestedConfig {
    pub fn from_values(values: &ParamValues) -> Self {
        NestedConfig { live_points: values.get_usize("ns_live_points").max(2), steps: values.get_usize("ns_steps").max(1), step: values.get("ns_step"), friction: 0.1, stop_fraction: 0.01 }
    }
}

/// What a nested-sampling run reports (JSON-able, so a Web Worker can post it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NestedResult {
    pub seed: u64,
    pub live_points: usize,
    /// Data the likelihood uses (the whole data set).
    pub n: usize,
    /// log Ẑ so far (with the live points' remainder once finished).
    pub log_z: f64,
    /// √(H/M).
    pub log_z_se: f64,
    /// Information H = ∫ log(L/Z) dP (nats).
    pub information: f64,
    pub iterations: usize,
    /// log X_i, the log prior volume enclosed by the current contour.
    pub log_volume: f64,
    pub datum_evals: u64,
    pub finished: bool,
    /// Why the run stopped early (non-finite likelihood, iteration cap).
    pub problem: Option<String>,
    /// Wall time measured by the caller (there is no clock in the core).
    pub seconds: Option<f64>,
}

/// Skilling's accumulators: log Ẑ and H over the dead points so far.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)] // pub for tests/unit (issue 23)
pub struct Evidence {
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub log_z: f64,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub information: f64,
}

impl Evidence {
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub const EMPTY: Evidence = Evidence { log_z: f64::NEG_INFINITY, information: 0.0 };

    /// Add a point of log-weight log w = log ΔX + log L (Skilling 2006, §9 program):
    /// Z' = Z + w, H' = (w/Z') log L + (Z/Z')(H + log Z) − log Z'.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn add(&mut self, log_width: f64, log_l: f64) {
        let log_w = log_width + log_l;
        if log_w == f64::NEG_INFINITY {
            return;
        }
        let log_z_new = log_add_exp(self.log_z, log_w);
        let old = if self.log_z == f64::NEG_INFINITY { 0.0 } else { (self.log_z - log_z_new).exp() * (self.information + self.log_z) };
        self.information = (log_w - log_z_new).exp() * log_l + old - log_z_new;
        self.log_z = log_z_new;
    }
}

/// log(e^a + e^b).
fn log_add_exp(a: f64, b: f64) -> f64 {
    let max = a.max(b);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + ((a - max).exp() + (b - max).exp()).ln()
}

/// Iterations allowed per live point before the run gives up (H/M·M ≈ H iterations per live point
/// are needed; H is far below this for every model here).
const MAX_ITERATIONS_PER_LIVE_POINT: usize = 5_000;

/// One nested-sampling run on the first `n` data of a model; drive it with [`NestedRun::advance`].
pub struct NestedRun {
    model: Arc<dyn EvidenceModel>,
    config: NestedConfig,
    all: Vec<usize>,
    live: Vec<Vec<f64>>,
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub live_log_l: Vec<f64>,
    evidence: Evidence,
    iterations: usize,
    datum_evals: u64,
    finished: bool,
    problem: Option<String>,
    seed: u64,
    rng: ChainRng,
    /// Rank of each new point's log-likelihood among the M − 1 survivors (0 = below all of them).
    insertion_ranks: Vec<u32>,
}

impl NestedRun {
    /// M live points drawn from the prior, their full-data log-likelihoods evaluated.
    pub fn new(model: Arc<dyn EvidenceModel>, config: NestedConfig, n: usize, seed: u64) -> Self {
        let n = n.clamp(1, model.n_data());
        let mut rng = chain_rng(seed);
        let live: Vec<Vec<f64>> = (0..config.live_points).map(|_| model.sample_prior(&mut rng)).collect();
        let all: Vec<usize> = (0..n).collect();
        let mut run = NestedRun { model, config, all, live, live_log_l: Vec::new(), evidence: Evidence::EMPTY, iterations: 0, datum_evals: 0, finished: false, problem: None, seed, rng, insertion_ranks: Vec::new() };
        run.live_log_l = run.live.clone().iter().map(|theta| run.log_likelihood(theta)).collect();
        run
    }

    /// Do up to `iterations` nested-sampling iterations (fewer if the run ends); true when done.
    pub fn advance(&mut self, iterations: usize) -> bool {
        for _ in 0..iterations {
            if self.done() {
                break;
            }
            if self.remaining_is_negligible() {
                self.add_live_remainder();
                self.finished = true;
                break;
            }
            self.iterate();
        }
        self.done()
    }

    /// Run to the end.
    pub fn run_to_end(&mut self) -> NestedResult {
        while !self.advance(1_000) {}
        self.result(None)
    }

    pub fn done(&self) -> bool {
        self.finished || self.problem.is_some()
    }

    /// The run's numbers so far.
    pub fn result(&self, seconds: Option<f64>) -> NestedResult {
        let m = self.config.live_points as f64;
        let information = self.evidence.information.max(0.0);
        NestedResult {
            seed: self.seed,
            live_points: self.config.live_points,
            n: self.all.len(),
            log_z: self.evidence.log_z,
            log_z_se: (information / m).sqrt(),
            information,
            iterations: self.iterations,
            log_volume: self.log_volume(self.iterations),
            datum_evals: self.datum_evals,
            finished: self.finished,
            problem: self.problem.clone(),
            seconds,
        }
    }

    /// log X_i = i · (−1/M): the expected log-shrinkage of the prior volume per iteration.
    fn log_volume(&self, i: usize) -> f64 {
        let log_shrink = -1.0 / self.config.live_points as f64;
        i as f64 * log_shrink
    }

    /// Remaining mass max(L_live)·X_i below `stop_fraction` of Ẑ (§6: 1 %).
    fn remaining_is_negligible(&self) -> bool {
        let max_l = self.live_log_l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        self.iterations > 0 && max_l + self.log_volume(self.iterations) < self.evidence.log_z + self.config.stop_fraction.ln()
    }

    /// The live points fill the last volume X_i equally: each adds (X_i/M)·L_j.
    fn add_live_remainder(&mut self) {
        let log_width = self.log_volume(self.iterations) - (self.config.live_points as f64).ln();
        for &l in &self.live_log_l {
            self.evidence.add(log_width, l);
        }
    }

    /// Kill the worst live point (weight X_{i−1} − X_i) and replace it by a constrained walk.
    fn iterate(&mut self) {
        let i = self.iterations + 1;
        let worst = (0..self.live.len()).min_by(|&a, &b| self.live_log_l[a].total_cmp(&self.live_log_l[b])).expect("M ≥ 2");
        let threshold = self.live_log_l[worst];
        let log_previous = self.log_volume(i - 1);
        let log_width = log_previous + (-(self.log_volume(i) - log_previous).exp()).ln_1p();
        self.evidence.add(log_width, threshold);
        self.iterations = i;
        if self.iterations > MAX_ITERATIONS_PER_LIVE_POINT * self.live.len() {
            self.problem = Some(format!("nested sampling did not reach its stopping rule after {} iterations", super::format::group_digits(self.iterations as f64, 0)));
            return;
        }
        let scale = self.live_scale();
        let source = self.other_live_point(worst);
        let (theta, log_l) = self.constrained_walk(self.live[source].clone(), self.live_log_l[source], threshold, &scale);
        let theta = self.redraw_flat_part(theta);
        if log_l.is_nan() {
            self.problem = Some(format!("the log-likelihood became NaN at iteration {i}"));
            return;
        }
        self.record_insertion_rank(worst, log_l);
        self.live[worst] = theta;
        self.live_log_l[worst] = log_l;
    }

    /// The new point's rank among the survivors' log-likelihoods (slot `worst` is being replaced).
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn record_insertion_rank(&mut self, worst: usize, log_l: f64) {
        let below = self.live_log_l.iter().enumerate().filter(|&(k, &l)| k != worst && l < log_l).count();
        self.insertion_ranks.push(below as u32);
    }

    /// Every replacement's insertion rank so far, in iteration order: for exact constrained-prior
    /// draws each is uniform on {0, …, M − 1} and independent of the others (docs/sgais.md (SGAIS.20)).
    pub fn insertion_ranks(&self) -> &[u32] {
        &self.insertion_ranks
    }

    /// A live point other than `worst`, uniformly.
    fn other_live_point(&mut self, worst: usize) -> usize {
        let m = self.live.len();
        let k = ((uniform(&mut self.rng) * (m - 1) as f64) as usize).min(m - 2);
        if k >= worst {
            k + 1
        } else {
            k
        }
    }

    /// Standard deviation of each coordinate over the live points' parts the likelihood sees
    /// (θ − P_V θ where the model has a flat subspace V; floored so no axis freezes).
    fn live_scale(&self) -> Vec<f64> {
        let seen: Vec<Vec<f64>> = self
            .live
            .iter()
            .map(|t| {
                let mut t = t.clone();
                self.model.remove_flat_part(&mut t);
                t
            })
            .collect();
        let dim = seen[0].len();
        let m = seen.len() as f64;
        (0..dim)
            .map(|k| {
                let mean = seen.iter().map(|t| t[k]).sum::<f64>() / m;
                let var = seen.iter().map(|t| (t[k] - mean).powi(2)).sum::<f64>() / m;
                var.sqrt().max(1e-9)
            })
            .collect()
    }

    /// (SGAIS.15): θ's part in the likelihood-flat subspace V replaced by a fresh prior draw's,
    /// θ' = (θ − P_V θ) + P_V p with p ~ prior. Under an isotropic Gaussian prior that part is
    /// independent of the rest and the constraint L > L* does not involve it, so this is an exact
    /// draw from its conditional (a Gibbs step of the constrained prior). Models without V: θ as is.
    fn redraw_flat_part(&mut self, mut theta: Vec<f64>) -> Vec<f64> {
        if !self.model.remove_flat_part(&mut theta) {
            return theta;
        }
        let prior = self.model.sample_prior(&mut self.rng);
        let mut seen = prior.clone();
        self.model.remove_flat_part(&mut seen);
        theta.iter_mut().zip(prior.iter().zip(&seen)).for_each(|(t, (p, s))| *t += p - s);
        theta
    }

    /// `steps` SGHMC steps on the prior in coordinates u = θ/s (eq. 3 with β̂ = 0, η = step²),
    /// never leaving L > L*, by Galilean Monte Carlo's rule (Skilling 2012, §4): a step to
    /// θ' = θ + v that ends outside reflects the velocity off the contour there,
    /// v' = v − 2(v·n)n with n ∥ s⊙∇L(θ') (App. A.1), and tries θ' + v'; if that is outside too,
    /// the particle stays and its velocity reverses. (Staying with the reflected velocity instead
    /// is not reversible and over-weights the interior: +5 nats on linear regression at N = 1,000.)
    fn constrained_walk(&mut self, mut theta: Vec<f64>, mut log_l: f64, threshold: f64, scale: &[f64]) -> (Vec<f64>, f64) {
        let dim = theta.len();
        let eta = self.config.step * self.config.step;
        let alpha = self.config.friction;
        let noise_sd = (2.0 * alpha * eta).sqrt();
        let mut velocity: Vec<f64> = (0..dim).map(|_| eta.sqrt() * standard_normal(&mut self.rng)).collect();
        let (mut grad, mut proposal, mut bounced) = (vec![0.0; dim], vec![0.0; dim], vec![0.0; dim]);
        for _ in 0..self.config.steps {
            grad.fill(0.0);
            self.model.add_grad_log_prior(&theta, &mut grad);
            for k in 0..dim {
                velocity[k] += eta * scale[k] * grad[k] - alpha * velocity[k] + noise_sd * standard_normal(&mut self.rng);
                proposal[k] = theta[k] + scale[k] * velocity[k];
            }
            let proposal_log_l = self.log_likelihood(&proposal);
            if proposal_log_l > threshold {
                theta.copy_from_slice(&proposal);
                log_l = proposal_log_l;
                continue;
            }
            self.reflect(&proposal, scale, &mut velocity, &mut grad);
            for k in 0..dim {
                bounced[k] = proposal[k] + scale[k] * velocity[k];
            }
            let bounced_log_l = self.log_likelihood(&bounced);
            if bounced_log_l > threshold {
                theta.copy_from_slice(&bounced);
                log_l = bounced_log_l;
            } else {
                velocity.iter_mut().for_each(|v| *v = -*v);
            }
        }
        (theta, log_l)
    }

    /// v ← v − 2(v·n)n with n the unit vector along s⊙∇L(θ) (the contour's normal in u); a plain
    /// reversal where the gradient vanishes or is not finite.
    fn reflect(&mut self, theta: &[f64], scale: &[f64], velocity: &mut [f64], grad: &mut [f64]) {
        grad.fill(0.0);
        self.model.add_grad_log_lik_batch(&self.all, theta, grad);
        self.datum_evals += self.all.len() as u64;
        grad.iter_mut().zip(scale).for_each(|(g, s)| *g *= s);
        let norm = grad.iter().map(|g| g * g).sum::<f64>().sqrt();
        if !(norm > 0.0 && norm.is_finite()) {
            velocity.iter_mut().for_each(|v| *v = -*v);
            return;
        }
        let along = velocity.iter().zip(grad.iter()).map(|(v, g)| v * g).sum::<f64>() / norm;
        velocity.iter_mut().zip(grad.iter()).for_each(|(v, g)| *v -= 2.0 * along * g / norm);
    }

    /// L(θ) = Σ_j log p(y_j | θ) over the data (NaN stays NaN, so the caller can report it).
    fn log_likelihood(&mut self, theta: &[f64]) -> f64 {
        self.datum_evals += self.all.len() as u64;
        let model = &*self.model;
        self.all.iter().map(|&j| model.log_lik(j, theta)).sum()
    }
}

/// The NS seed for an SGAIS run seeded with `seed`: a scrambled stream unrelated to SGAIS and AIS.
pub fn nested_seed(seed: u64) -> u64 {
    super::replicas::split_mix(seed ^ 0x4e57_ed5a_3b1e)
}

/// log of the mean of Ẑ over several runs, the pooled estimate (as for replicas).
pub fn pooled_log_z(results: &[NestedResult]) -> f64 {
    log_mean_exp(&results.iter().map(|r| r.log_z).collect::<Vec<_>>())
}
