//! The SGAIS driver (paper Algorithm 1, in chunks): a state machine that does a bounded amount of
//! work per [`SgaisRun::advance`] call, so the browser can run it between frames and the CLI in a
//! loop. It never reads a clock; callers time it.

use super::annealing::{ess_of_log_weights, incremental_ess, log_mean_exp, next_increment};
use super::models::EvidenceModel;
use super::reservoir::History;
use super::sghmc::{sghmc_steps, Potential, SghmcKernel, Workspace};
use super::{EtaScale, Resampling, SgaisConfig};
use crate::rng::{chain_rng, fill_standard_normal, uniform, ChainRng};
use serde::Serialize;
use std::sync::Arc;

/// What one finished chunk reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChunkRecord {
    /// Data processed so far (the chunk's end).
    pub n: usize,
    /// log Ẑ(y_≤n) = log((1/M) Σ w_i).
    pub log_z: f64,
    /// Exact log Z(y_≤n) when the model has a closed form.
    pub exact_log_z: Option<f64>,
    /// Annealing steps (temperatures) this chunk needed.
    pub annealing_steps: usize,
    /// ESS (Σw)²/Σw² of the accumulated weights after the chunk.
    pub ess: f64,
    /// Smallest ESS of the incremental weights over this chunk's annealing steps.
    pub min_step_ess: f64,
    /// Per-datum likelihood and gradient evaluations so far (the cost unit).
    pub datum_evals: u64,
}

/// Whether the run can continue.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum RunStatus {
    Running,
    Finished,
    /// A particle or a chunk log-likelihood became non-finite (NaN or ±∞ in θ).
    Diverged(String),
}

/// The chunk currently being annealed in.
#[derive(Clone, Debug)]
struct ActiveChunk {
    range: std::ops::Range<usize>,
    lambda: f64,
    steps: usize,
    min_step_ess: f64,
}

/// One SGAIS run over the first `n_total` data of a model.
pub struct SgaisRun {
    model: Arc<dyn EvidenceModel>,
    config: SgaisConfig,
    n_total: usize,
    particles: Vec<Vec<f64>>,
    velocities: Vec<Vec<f64>>,
    log_weights: Vec<f64>,
    history: History,
    chunk: Option<ActiveChunk>,
    processed: usize,
    eta: f64,
    exact_curve: Option<Vec<f64>>,
    records: Vec<ChunkRecord>,
    datum_evals: u64,
    status: RunStatus,
    workspace: Workspace,
    rng: ChainRng,
}

impl SgaisRun {
    /// Particles from the prior, log-weights 0, velocities from N(0, η I).
    pub fn new(model: Arc<dyn EvidenceModel>, config: SgaisConfig, n_total: usize, seed: u64) -> Self {
        let n_total = n_total.clamp(1, model.n_data());
        let mut rng = chain_rng(seed);
        let m = config.particles.max(1);
        let particles: Vec<Vec<f64>> = (0..m).map(|_| model.sample_prior(&mut rng)).collect();
        let dim = model.dim();
        let mut run = SgaisRun {
            exact_curve: model.exact_log_evidence_curve(&checkpoints(n_total, config.chunk_size)),
            history: History::new(config.reservoir_size),
            velocities: vec![vec![0.0; dim]; m],
            log_weights: vec![0.0; m],
            particles,
            model,
            config,
            n_total,
            chunk: None,
            processed: 0,
            eta: 0.0,
            records: Vec::new(),
            datum_evals: 0,
            status: RunStatus::Running,
            workspace: Workspace::default(),
            rng,
        };
        run.eta = run.learning_rate_for(run.config.chunk_size.min(n_total));
        let sd = run.eta.sqrt();
        for v in run.velocities.iter_mut() {
            fill_standard_normal(&mut run.rng, v);
            v.iter_mut().for_each(|x| *x *= sd);
        }
        run
    }

    /// Do annealing steps until at least `budget` particle-SGHMC steps (M·K per annealing step)
    /// have been spent, or the run ends; at least one annealing step when running. Returns the
    /// chunks finished during this call.
    pub fn advance(&mut self, budget: usize) -> Vec<ChunkRecord> {
        let mut finished = Vec::new();
        let cost = self.particles.len() * self.config.burn_in_steps;
        let mut used = 0;
        while self.status == RunStatus::Running && (used == 0 || used < budget) {
            if let Some(record) = self.annealing_step() {
                self.records.push(record.clone());
                finished.push(record);
            }
            used += cost;
        }
        finished
    }

    /// Run to the end (or divergence); returns every chunk record.
    pub fn run_to_end(&mut self) -> &[ChunkRecord] {
        while self.status == RunStatus::Running {
            self.advance(usize::MAX);
        }
        &self.records
    }

    pub fn status(&self) -> &RunStatus {
        &self.status
    }
    pub fn records(&self) -> &[ChunkRecord] {
        &self.records
    }
    /// Data fully annealed in so far.
    pub fn processed(&self) -> usize {
        self.processed
    }
    pub fn n_total(&self) -> usize {
        self.n_total
    }
    /// Current log Ẑ of the data processed so far.
    pub fn log_z(&self) -> f64 {
        log_mean_exp(&self.log_weights)
    }
    /// Exact log Z of all `n_total` data when known.
    pub fn exact_log_z(&self) -> Option<f64> {
        self.exact_curve.as_ref().and_then(|c| c.last().copied())
    }
    pub fn particles(&self) -> &[Vec<f64>] {
        &self.particles
    }
    pub fn log_weights(&self) -> &[f64] {
        &self.log_weights
    }
    pub fn datum_evals(&self) -> u64 {
        self.datum_evals
    }
    /// Current SGHMC learning rate η.
    pub fn learning_rate(&self) -> f64 {
        self.eta
    }

    /// η = lr / N with N the whole data size or the data seen once the chunk ending at `chunk_end` is in.
    fn learning_rate_for(&self, chunk_end: usize) -> f64 {
        let n = match self.config.eta_scale {
            EtaScale::Total => self.n_total,
            EtaScale::Seen => chunk_end,
        };
        self.config.learning_rate / n.max(1) as f64
    }

    /// One pass of Algorithm 1's inner loop (lines 6–9); returns a record when the chunk is done.
    fn annealing_step(&mut self) -> Option<ChunkRecord> {
        let mut chunk = self.chunk.take().unwrap_or_else(|| self.start_chunk());
        let chunk_log_lik = self.chunk_log_likelihoods(&chunk.range);
        if let Some(i) = chunk_log_lik.iter().position(|l| l.is_nan() || *l == f64::INFINITY) {
            self.status = RunStatus::Diverged(format!("particle {i}: chunk log-likelihood is {} at n = {}", chunk_log_lik[i], chunk.range.end));
            return None;
        }
        let delta = next_increment(&chunk_log_lik, chunk.lambda, self.config.target_ess);
        for (lw, l) in self.log_weights.iter_mut().zip(&chunk_log_lik) {
            *lw += delta * l;
        }
        chunk.min_step_ess = chunk.min_step_ess.min(incremental_ess(&chunk_log_lik, delta));
        chunk.lambda = if 1.0 - (chunk.lambda + delta) < 1e-12 { 1.0 } else { chunk.lambda + delta };
        chunk.steps += 1;
        self.maybe_resample();
        self.move_particles(&chunk);
        if self.status != RunStatus::Running {
            return None;
        }
        if chunk.lambda < 1.0 {
            self.chunk = Some(chunk);
            return None;
        }
        Some(self.finish_chunk(chunk))
    }

    fn start_chunk(&mut self) -> ActiveChunk {
        let end = (self.processed + self.config.chunk_size.max(1)).min(self.n_total);
        let eta = self.learning_rate_for(end);
        if eta != self.eta {
            // Keep the velocities at their stationary scale N(0, η I) when η changes.
            let ratio = (eta / self.eta).sqrt();
            self.velocities.iter_mut().flatten().for_each(|v| *v *= ratio);
            self.eta = eta;
        }
        ActiveChunk { range: self.processed..end, lambda: 0.0, steps: 0, min_step_ess: f64::INFINITY }
    }

    fn finish_chunk(&mut self, chunk: ActiveChunk) -> ChunkRecord {
        self.history.extend(chunk.range.start, chunk.range.end, &mut self.rng);
        self.processed = chunk.range.end;
        if self.processed >= self.n_total {
            self.status = RunStatus::Finished;
        }
        let exact_log_z = self.exact_curve.as_ref().map(|c| c[self.records.len().min(c.len() - 1)]);
        ChunkRecord {
            n: self.processed,
            log_z: self.log_z(),
            exact_log_z,
            annealing_steps: chunk.steps,
            ess: ess_of_log_weights(&self.log_weights),
            min_step_ess: chunk.min_step_ess,
            datum_evals: self.datum_evals,
        }
    }

    /// L_i = log p(C | θ_i) = Σ_{j∈C} ℓ_j(θ_i) for every particle.
    fn chunk_log_likelihoods(&mut self, range: &std::ops::Range<usize>) -> Vec<f64> {
        self.datum_evals += (self.particles.len() * range.len()) as u64;
        let model = &*self.model;
        self.particles.iter().map(|theta| range.clone().map(|j| model.log_lik(j, theta)).sum()).collect()
    }

    fn maybe_resample(&mut self) {
        let resample = match self.config.resampling {
            Resampling::Off => false,
            Resampling::Always => true,
            Resampling::WhenLow => ess_of_log_weights(&self.log_weights) < self.config.target_ess.min(self.particles.len() as f64),
        };
        if resample && self.log_weights.iter().any(|w| w.is_finite()) {
            self.systematic_resample();
        }
    }

    /// Systematic resampling proportional to the weights, then every w_i ← mean w (Ẑ unchanged).
    fn systematic_resample(&mut self) {
        let m = self.particles.len();
        let mean_log_weight = log_mean_exp(&self.log_weights);
        let normalised: Vec<f64> = self.log_weights.iter().map(|lw| (lw - mean_log_weight).exp() / m as f64).collect();
        let offset = uniform(&mut self.rng);
        let (mut cumulative, mut source) = (normalised[0], 0);
        let mut chosen = Vec::with_capacity(m);
        for k in 0..m {
            let u = (k as f64 + offset) / m as f64;
            while u > cumulative && source + 1 < m {
                source += 1;
                cumulative += normalised[source];
            }
            chosen.push(source);
        }
        self.particles = chosen.iter().map(|&i| self.particles[i].clone()).collect();
        self.velocities = chosen.iter().map(|&i| self.velocities[i].clone()).collect();
        self.log_weights.fill(mean_log_weight);
    }

    /// K SGHMC steps for every particle on Û_n^(λ) (eq. 4) at the chunk's current λ.
    fn move_particles(&mut self, chunk: &ActiveChunk) {
        let kernel = SghmcKernel { learning_rate: self.eta, friction: self.config.friction, noise_estimate: self.config.noise_estimate };
        let potential = Potential {
            model: &*self.model,
            chunk: chunk.range.clone(),
            lambda: chunk.lambda,
            history: &self.history,
            batch_size: self.config.batch_size,
        };
        for (i, (theta, velocity)) in self.particles.iter_mut().zip(self.velocities.iter_mut()).enumerate() {
            self.datum_evals += sghmc_steps(&kernel, &potential, self.config.burn_in_steps, theta, velocity, &mut self.workspace, &mut self.rng);
            if theta.iter().any(|t| !t.is_finite()) {
                self.status = RunStatus::Diverged(format!("particle {i} left the finite range at n = {} (try a smaller learning rate)", chunk.range.end));
                return;
            }
        }
    }
}

/// The chunk ends min(k·chunk, N), k = 1, 2, …
pub fn checkpoints(n_total: usize, chunk_size: usize) -> Vec<usize> {
    let chunk = chunk_size.max(1);
    (1..=n_total.div_ceil(chunk)).map(|k| (k * chunk).min(n_total)).collect()
}
