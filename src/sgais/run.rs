//! The SGAIS driver (paper Algorithm 1, in chunks): a state machine that does a bounded amount of
//! work per [`SgaisRun::advance`] call, so the browser can run it between frames and the CLI in a
//! loop. It never reads a clock; callers time it.

use super::laplace_move::{fisher_precision, laplace_move, AnnealedTarget, LaplaceProposal};
use super::annealing::{ess_of_log_weights, incremental_ess, log_mean_exp, next_increment};
use super::models::EvidenceModel;
use super::noise::{estimate_gradient_noise, GradientNoise};
use super::epoch_covariance::{Ancestry, LAGS};
use super::reseed::{reseed_lightest, ReseedProposal};
use super::reseed_split::{split_merge_move, SplitAcceptance};
use super::reseed_weight::{reseed_weight_move, WeightMove};
use super::reservoir::History;
use super::sghmc::{sghmc_steps, Potential, SghmcKernel, Workspace};
use super::surprise::{chunk_surprise, ChunkSurprise, SurpriseBoost};
use super::{EtaScale, NoiseCorrection, ReseedMoves, Resampling, SgaisConfig};
use crate::rng::{chain_rng, fill_standard_normal, uniform, ChainRng};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What one finished chunk reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChunkRecord {
    /// Data processed so far (the chunk's end).
    pub n: usize,
    /// log Ẑ(y_≤n) = log((1/M) Σ w_i).
    pub log_z: f64,
    /// Exact log Z(y_≤n) when the model has a closed form.
    pub exact_log_z: Option<f64>,
    /// Annealing steps (temperatures) this chunk needed.
    pub annealing_steps: usize,
    /// ESS (Σw)²/Σw² of the particle weights after the chunk's last reweighting (before any
    /// resampling): how many of the M particles effectively carry log Ẑ. 1 means one particle
    /// carries the whole estimate.
    pub ess: f64,
    /// Smallest ESS of the incremental weights over this chunk's annealing steps.
    pub min_step_ess: f64,
    /// Per-datum likelihood and gradient evaluations so far (the cost unit).
    pub datum_evals: u64,
    /// SGHMC learning rate η at the chunk's last annealing step.
    pub learning_rate: f64,
    /// ηλ_max(V̂)/(2α) at the chunk's last step: the largest ratio of the minibatch gradient's
    /// noise variance to SGHMC's noise 2αη (0 without history). With β̂ = 0 the particles sample
    /// at a temperature about 1 + this ratio; with the estimated correction it is at most κ and
    /// corrected for.
    pub noise_ratio: f64,
    /// The variance of log Ẑ this run's own weights predict if its particles mixed perfectly:
    /// Σ over resampling epochs of (1/ESS − 1/M), the χ²-divergence of each epoch's weights over
    /// M (the standard SMC approximation; Del Moral 2004, Chopin 2004). Replicas that scatter
    /// far beyond √(this) have particles that do not mix (the agreement check of the replicas).
    #[serde(default)]
    pub log_z_var: f64,
    /// The surprise rule (docs/sgais.md (SGAIS.19)) flagged this chunk and it got the extra work.
    #[serde(default)]
    pub boosted: bool,
}

/// Whether the run can continue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Covariance of the history part of ∇Û, estimated when the chunk starts.
    gradient_noise: Option<GradientNoise>,
    /// ESS of the accumulated weights after the last reweighting, before resampling.
    weights_ess: f64,
    /// The chunk surprised the particles (SGAIS.19) and gets the configured extra work.
    boosted: bool,
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
    /// Σ (1/ESS − 1/M) of the weights at every resampling so far (see [`ChunkRecord::log_z_var`]).
    resampled_log_z_var: f64,
    /// Each particle's ancestors' weight deviations, and the epoch covariances of the resampled
    /// epochs so far (src/sgais/epoch_covariance.rs).
    ancestry: Ancestry,
    resampled_cross: [f64; LAGS],
    /// Σ over the resampled epochs of the copies' within-epoch covariance (`Ancestry::sibling_term`).
    resampled_siblings: f64,
    status: RunStatus,
    /// Re-seeding moves accepted so far (src/sgais/reseed.rs).
    reseeds_accepted: u64,
    /// (SGAIS.19) at the start of every chunk so far.
    surprises: Vec<ChunkSurprise>,
    /// Laplace moves (src/sgais/laplace_move.rs): chunks whose particles lagged, moves accepted.
    laplace_moves: (usize, u64),
    /// SGHMC moves per particle in the last annealing step (the work `advance` counts).
    last_step_moves: usize,
    workspace: Workspace,
    rng: ChainRng,
    /// A separate stream for the gradient-noise estimate, so that estimating it for the report
    /// does not change a run with a fixed β̂.
    noise_rng: ChainRng,
    /// A separate stream for the Laplace move's proposals, so that a move that accepts nothing
    /// leaves the run as it would be without it.
    laplace_rng: ChainRng,
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
            resampled_log_z_var: 0.0,
            ancestry: Ancestry::new(m),
            resampled_cross: [0.0; LAGS],
            resampled_siblings: 0.0,
            status: RunStatus::Running,
            reseeds_accepted: 0,
            surprises: Vec::new(),
            laplace_moves: (0, 0),
            last_step_moves: 0,
            workspace: Workspace::default(),
            rng,
            noise_rng: chain_rng(seed ^ NOISE_STREAM),
            laplace_rng: chain_rng(seed ^ LAPLACE_STREAM),
        };
        run.eta = run.base_learning_rate(0, run.config.chunk_size.min(n_total), 0.0);
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
        let mut used = 0;
        while self.status == RunStatus::Running && (used == 0 || used < budget) {
            if let Some(record) = self.annealing_step() {
                self.records.push(record.clone());
                finished.push(record);
            }
            // A surprising chunk's steps move the particles more often (src/sgais/surprise.rs).
            used += self.particles.len() * self.last_step_moves.max(1);
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
    /// Re-seeding moves accepted so far (src/sgais/reseed.rs).
    pub fn reseeds_accepted(&self) -> u64 {
        self.reseeds_accepted
    }
    /// Chunks whose particles lagged (SGAIS.27) and Laplace moves accepted (SGAIS.26) so far.
    pub fn laplace_moves(&self) -> (usize, u64) {
        self.laplace_moves
    }
    /// What the surprise rule (src/sgais/surprise.rs) saw at the start of every chunk so far.
    pub fn surprises(&self) -> &[ChunkSurprise] {
        &self.surprises
    }
    /// The variance of log Ẑ predicted by the weights alone (see [`ChunkRecord::log_z_var`]).
    pub fn log_z_variance(&self) -> f64 {
        self.resampled_log_z_var + epoch_log_z_variance(&self.log_weights)
    }
    /// Covariances c_{t−k,t} of log Ẑ's epoch terms for lags k = 1, 2, …, summed over the epochs
    /// so far (src/sgais/epoch_covariance.rs): what [`Self::log_z_variance`] leaves out when
    /// resampled copies keep their ancestors' positions through the moves. Measured only
    /// (docs/sgais.md §15, "stop 48"): not in the records, the page or the flag.
    pub fn epoch_cross(&self) -> [f64; LAGS] {
        let mut terms = self.ancestry.cross_terms(&self.log_weights);
        terms.iter_mut().zip(&self.resampled_cross).for_each(|(t, r)| *t += r);
        terms
    }
    /// The copies' within-epoch covariance summed over the epochs so far (measured only,
    /// docs/sgais.md §15, "stop 49").
    pub fn epoch_siblings(&self) -> f64 {
        self.resampled_siblings + self.ancestry.sibling_term(&self.log_weights)
    }
    /// Current SGHMC learning rate η.
    pub fn learning_rate(&self) -> f64 {
        self.eta
    }
    /// The chunk being annealed in and its current λ, between annealing steps.
    pub fn annealing_state(&self) -> Option<(std::ops::Range<usize>, f64)> {
        self.chunk.as_ref().map(|c| (c.range.clone(), c.lambda))
    }

    /// η = lr / N for the chunk `start..end` at inverse temperature λ, with N the whole data size,
    /// the data seen once the chunk is in, or the tempered count start + λ(end − start) (≥ 1).
    fn base_learning_rate(&self, start: usize, end: usize, lambda: f64) -> f64 {
        let n = match self.config.eta_scale {
            EtaScale::Total => self.n_total as f64,
            EtaScale::Seen => end as f64,
            EtaScale::Tempered => start as f64 + lambda * (end - start) as f64,
        };
        self.config.learning_rate / n.max(1.0)
    }

    /// The kernel for the chunk's current λ: η from [`Self::base_learning_rate`], with the
    /// estimated correction capped at 2κα/λ_max(V̂) and B̂ = ηV̂/2; velocities are rescaled to
    /// keep their N(0, η I) scale when η changes. Returns the kernel and the noise ratio.
    fn kernel_for(&mut self, chunk: &ActiveChunk) -> (SghmcKernel, f64) {
        let mut eta = self.base_learning_rate(chunk.range.start, chunk.range.end, chunk.lambda);
        let friction = self.config.friction;
        if let (NoiseCorrection::Estimated { max_share }, Some(noise)) = (self.config.noise_correction, &chunk.gradient_noise) {
            eta = eta.min(noise.learning_rate_cap(friction, max_share));
        }
        self.set_learning_rate(eta);
        let ratio = chunk.gradient_noise.as_ref().map_or(0.0, |g| g.noise_ratio(eta, friction));
        let kernel = match (self.config.noise_correction, &chunk.gradient_noise) {
            (NoiseCorrection::Estimated { .. }, Some(noise)) => SghmcKernel::with_gradient_noise(eta, friction, &noise.cov, noise.dim)
                .unwrap_or_else(|| SghmcKernel::with_scalar_estimate(eta, friction, (eta * noise.largest_eigenvalue / 2.0).min(friction))),
            (NoiseCorrection::Estimated { .. }, None) => SghmcKernel::with_scalar_estimate(eta, friction, 0.0),
            (NoiseCorrection::Fixed(beta), _) => SghmcKernel::with_scalar_estimate(eta, friction, beta),
        };
        (kernel, ratio)
    }

    /// Set η, keeping the velocities at their stationary scale N(0, η I).
    fn set_learning_rate(&mut self, eta: f64) {
        if eta != self.eta {
            let ratio = (eta / self.eta).sqrt();
            self.velocities.iter_mut().flatten().for_each(|v| *v *= ratio);
            self.eta = eta;
        }
    }

    /// One pass of Algorithm 1's inner loop (lines 6–9); returns a record when the chunk is done.
    fn annealing_step(&mut self) -> Option<ChunkRecord> {
        let mut chunk = self.chunk.take().unwrap_or_else(|| self.start_chunk());
        let chunk_log_lik = self.chunk_log_likelihoods(&chunk.range);
        if let Some(i) = chunk_log_lik.iter().position(|l| l.is_nan() || *l == f64::INFINITY) {
            self.status = RunStatus::Diverged(format!("particle {i}: chunk log-likelihood is {} at n = {}", chunk_log_lik[i], super::format::group_digits(chunk.range.end as f64, 0)));
            return None;
        }
        if chunk.steps == 0 {
            self.judge_surprise(&mut chunk, &chunk_log_lik);
        }
        let delta = next_increment(&chunk_log_lik, chunk.lambda, self.chunk_target_ess(&chunk));
        for (lw, l) in self.log_weights.iter_mut().zip(&chunk_log_lik) {
            *lw += delta * l;
        }
        chunk.min_step_ess = chunk.min_step_ess.min(incremental_ess(&chunk_log_lik, delta));
        chunk.weights_ess = ess_of_log_weights(&self.log_weights);
        chunk.lambda = if 1.0 - (chunk.lambda + delta) < 1e-12 { 1.0 } else { chunk.lambda + delta };
        chunk.steps += 1;
        self.maybe_resample();
        let (kernel, noise_ratio) = self.kernel_for(&chunk);
        self.move_particles(&chunk, &kernel);
        self.reseed_components(&chunk);
        if chunk.lambda >= 1.0 && self.config.laplace_move && self.status == RunStatus::Running {
            self.relax_if_lagging(&chunk);
        }
        if self.status != RunStatus::Running {
            return None;
        }
        if chunk.lambda < 1.0 {
            self.chunk = Some(chunk);
            return None;
        }
        Some(self.finish_chunk(chunk, noise_ratio))
    }

    /// A new chunk at λ = 0, with the gradient noise of its history estimated at the particles.
    fn start_chunk(&mut self) -> ActiveChunk {
        let end = (self.processed + self.config.chunk_size.max(1)).min(self.n_total);
        let (gradient_noise, evals) = estimate_gradient_noise(&*self.model, &self.particles, &self.history, self.config.batch_size, &mut self.noise_rng);
        self.datum_evals += evals;
        ActiveChunk { range: self.processed..end, lambda: 0.0, steps: 0, min_step_ess: f64::INFINITY, gradient_noise, weights_ess: f64::NAN, boosted: false }
    }

    /// (SGAIS.19) from the chunk's log-likelihoods at λ = 0: is the chunk boosted?
    fn judge_surprise(&mut self, chunk: &mut ActiveChunk, chunk_log_lik: &[f64]) {
        let surprise = chunk_surprise(chunk_log_lik, self.model.dim(), chunk.range.start, chunk.range.len(), self.config.target_ess);
        chunk.boosted = surprise.surprising && self.config.surprise_boost.is_some();
        self.surprises.push(surprise);
    }

    /// ESS* of this chunk's annealing steps (raised on a boosted chunk, and on the first chunk to
    /// the configured share of M: docs/sgais.md §15).
    fn chunk_target_ess(&self, chunk: &ActiveChunk) -> f64 {
        let ess = self.active_boost(chunk).map_or(self.config.target_ess, |boost| boost.target_ess(self.config.target_ess, self.particles.len()));
        if chunk.range.start == 0 { ess.max(self.config.first_chunk_ess_share * self.particles.len() as f64) } else { ess }
    }

    /// SGHMC moves per temperature in this chunk (multiplied on a boosted chunk).
    fn chunk_moves(&self, chunk: &ActiveChunk) -> usize {
        self.active_boost(chunk).map_or(self.config.burn_in_steps, |boost| self.config.burn_in_steps * boost.move_factor.max(1))
    }

    /// The configured extra work, when this chunk surprised the particles.
    fn active_boost(&self, chunk: &ActiveChunk) -> Option<SurpriseBoost> {
        self.config.surprise_boost.filter(|_| chunk.boosted)
    }

    fn finish_chunk(&mut self, chunk: ActiveChunk, noise_ratio: f64) -> ChunkRecord {
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
            ess: chunk.weights_ess,
            min_step_ess: chunk.min_step_ess,
            datum_evals: self.datum_evals,
            learning_rate: self.eta,
            noise_ratio,
            log_z_var: self.log_z_variance(),
            boosted: chunk.boosted,
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
        self.resampled_log_z_var += epoch_log_z_variance(&self.log_weights);
        let cross = self.ancestry.cross_terms(&self.log_weights);
        self.resampled_cross.iter_mut().zip(&cross).for_each(|(t, c)| *t += c);
        self.resampled_siblings += self.ancestry.sibling_term(&self.log_weights);
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
        self.ancestry.resampled(&chosen, &self.log_weights);
        self.log_weights.fill(mean_log_weight);
    }

    /// The re-seeding moves of `config.reseed_moves` for each particle (src/sgais/reseed.rs,
    /// src/sgais/reseed_weight.rs, src/sgais/reseed_split.rs, docs/sgais.md (SGAIS.16), (SGAIS.21),
    /// (SGAIS.24)), for a
    /// mixture with the full history, when the configuration asks for it (on every chunk, or on
    /// the surprising ones only).
    fn reseed_components(&mut self, chunk: &ActiveChunk) {
        let (Some(mixture), History::Full { len }) = (self.model.as_mixture(), &self.history) else { return };
        let on_boosted_chunk = self.active_boost(chunk).is_some_and(|boost| boost.reseed);
        if !(self.config.reseed_components || on_boosted_chunk) || mixture.n_components() < 2 || self.status != RunStatus::Running {
            return;
        }
        let proposal = ReseedProposal::new(mixture, chunk.range.clone());
        let moves = self.config.reseed_moves;
        let lightest = matches!(moves, ReseedMoves::Lightest | ReseedMoves::Both | ReseedMoves::LightestSplit);
        let weights = matches!(moves, ReseedMoves::Weights | ReseedMoves::Both);
        let split = matches!(moves, ReseedMoves::Split | ReseedMoves::LightestSplit);
        let how = WeightMove::exact(mixture.n_components(), self.config.reseed_light_bias);
        for theta in self.particles.iter_mut() {
            for _ in 0..self.config.reseed_offers.max(1) {
                let first = lightest.then(|| reseed_lightest(&proposal, chunk.lambda, *len, theta, &mut self.rng));
                let second = weights.then(|| reseed_weight_move(&proposal, chunk.lambda, *len, how, theta, &mut self.rng));
                let third = split.then(|| split_merge_move(&proposal, chunk.lambda, *len, SplitAcceptance::Exact, theta, &mut self.rng));
                for outcome in [first, second, third].into_iter().flatten() {
                    self.datum_evals += outcome.datum_evals;
                    self.reseeds_accepted += outcome.accepted as u64;
                }
            }
        }
    }

    /// At a chunk's end (λ = 1): when particle 0's Newton decrement says the particles lag
    /// (SGAIS.27), one Laplace independence move per particle (SGAIS.26); full history only. The
    /// decrement needs one gradient; the Gauss–Newton fit runs only when it says they lag.
    fn relax_if_lagging(&mut self, chunk: &ActiveChunk) {
        let (History::Full { len }, Some(noise)) = (&self.history, &chunk.gradient_noise) else { return };
        let target = AnnealedTarget { model: &*self.model, history_len: *len, chunk: chunk.range.clone(), lambda: chunk.lambda };
        let precision = fisher_precision(&noise.cov, noise.dim, *len, self.config.batch_size, target.data_count());
        let (fitted, evals) = LaplaceProposal::fit_if_lagging(&target, &self.particles[0], precision);
        self.datum_evals += evals;
        let Some(q) = fitted else { return };
        let (widened, evals) = q.widened_at_centre(&target);
        self.datum_evals += evals;
        let Some(q) = widened else { return };
        self.laplace_moves.0 += 1;
        for theta in self.particles.iter_mut() {
            let (accepted, evals) = laplace_move(&target, &q, theta, &mut self.laplace_rng);
            self.datum_evals += evals;
            self.laplace_moves.1 += accepted as u64;
        }
    }

    /// K SGHMC steps for every particle on Û_n^(λ) (eq. 4) at the chunk's current λ.
    fn move_particles(&mut self, chunk: &ActiveChunk, kernel: &SghmcKernel) {
        let potential = Potential {
            model: &*self.model,
            chunk: chunk.range.clone(),
            lambda: chunk.lambda,
            history: &self.history,
            batch_size: self.config.batch_size,
        };
        let moves = self.chunk_moves(chunk);
        self.last_step_moves = moves;
        for (i, (theta, velocity)) in self.particles.iter_mut().zip(self.velocities.iter_mut()).enumerate() {
            self.datum_evals += sghmc_steps(kernel, &potential, moves, theta, velocity, &mut self.workspace, &mut self.rng);
            if theta.iter().any(|t| !t.is_finite()) {
                self.status = RunStatus::Diverged(format!("particle {i} left the finite range at n = {} (try a smaller learning rate)", super::format::group_digits(chunk.range.end as f64, 0)));
                return;
            }
        }
    }
}

/// 1/ESS − 1/M of one epoch's weights: the delta-method variance of log((1/M) Σ w_i), i.e.
/// Var(w)/(M·mean(w)²) with the weights' own moments; 0 when all weights are equal.
pub fn epoch_log_z_variance(log_weights: &[f64]) -> f64 {
    let ess = ess_of_log_weights(log_weights);
    if !ess.is_finite() || ess <= 0.0 {
        return 0.0;
    }
    (1.0 / ess - 1.0 / log_weights.len() as f64).max(0.0)
}

/// Mixed into the seed for the gradient-noise estimate's random stream.
const NOISE_STREAM: u64 = 0x6e01_5e57;

/// Mixed into the seed for the Laplace move's random stream.
const LAPLACE_STREAM: u64 = 0x1a91_ace5;

/// The chunk ends min(k·chunk, N), k = 1, 2, …
pub fn checkpoints(n_total: usize, chunk_size: usize) -> Vec<usize> {
    let chunk = chunk_size.max(1);
    (1..=n_total.div_ceil(chunk)).map(|k| (k * chunk).min(n_total)).collect()
}
