//! One sentence of help for every diagnostic a sampler reports, keyed by its machine name (the
//! page shows it on hover and on tap beside the number; issue 26: every diagnostic name explained).

/// The help for diagnostic `name`, or a generic sentence for a name without one.
pub fn help(name: &str) -> &'static str {
    match name {
        "accept_probability" => "Metropolis–Hastings acceptance probability min(1, r) of the last proposal.",
        "acceptance_rate" => "Share of proposals accepted so far (exact samplers).",
        "auxiliary_observations" => "Auxiliary slope observations the pSBPS slope prior has learned from (SBPS paper, App. E).",
        "bounces" => "Velocity reflections so far: each happens at an event of the bouncy particle's Poisson process.",
        "burn_in_over_step" => "The step at which OSGFS's convergence test fired (El hanchi eq. 17: the mean of the last ⌈1/k⌉ gradients is small against their spread); samples are collected after it.",
        "cholesky_fallbacks" => "Steps where the Fisher estimate was not positive definite and SGFS used its diagonal instead.",
        "clamped_variances" => "Steps where a noise variance came out negative and was set to zero.",
        "clipped_noise_steps" => "Steps where the injected noise covariance had negative eigenvalues, which were set to zero.",
        "equivalent_step_size" => "The SGFS step size that corresponds to the noise level: ε = 4/α² (Ahn et al. 2012).",
        "fisher_lambda_max" => "Largest eigenvalue of the running Fisher information estimate: the stiffest direction.",
        "fisher_lambda_min" => "Smallest eigenvalue of the running Fisher information estimate: the flattest direction.",
        "fisher_trace" => "Trace of the preconditioner N·Î + G + λI (empirical Fisher, prior precision, ridge).",
        "gamma" => "γ = (n + N)/n, SGFS's correction for the noise of the Fisher estimate (Ahn et al. 2012, Algorithm 1).",
        "gradient_noise_variance" => "Variance, per update, of the error of the minibatch gradient (largest direction), drawn without replacement: zero with the full batch (Welling & Teh Fig. 2).",
        "horizon_hits" => "Times the event-time search reached its horizon without an event (the particle then moves on and the search restarts).",
        "injected_noise_variance" => "Variance of the Gaussian noise the sampler adds each update.",
        "k" => "OSGFS's step k (El hanchi eq. 16), capped by c: the update moves k/2 of the way a Newton step would.",
        "kinetic_temperature" => "|v|²/(Dη): 1 when the momentum has the variance the sampler assumes; above 1 the gradient noise heats the chain.",
        "missed_bounce_share" => "How much of the bounce intensity the sampler wanted lay above the upper band, as a share of the bounces since the last slider change: Σ(G̃/λ̄ − 1)⁺ over proposals (Pakman et al. 2017, §3.3). Above 4 % the samples are biased and the panel warns: raise the band multiple k or the minibatch n.",
        "negative_slope_fraction" => "Share of event-rate slopes that came out negative (the bound then uses zero).",
        "noise_diag_step" => "The step at which the noise diagnostics were last recomputed from that step's minibatch.",
        "precond_max" | "precond_min" => "Largest / smallest entry of the RMSprop preconditioner M (Li et al. 2016).",
        "refreshes" => "Velocity refreshments so far (drawn afresh at the refresh rate; they make BPS ergodic).",
        "rejections" => "Thinning rejections: candidate bounce times from the upper bound that were not taken because the true rate was lower.",
        "sampling_threshold" => "Gradient-noise over injected-noise variance (Welling & Teh eq. 10) from the latest minibatch alone: it scatters; below 1 SGLD samples, above 1 it is still optimising.",
        "sampling_threshold_first" => "The first reading of the sampling threshold since the last change: the threshold at the start.",
        "sampling_threshold_mean" => "Mean of the threshold readings since the last change: the number the lessons quote.",
        "slope_prior_mean" => "The pSBPS slope prior's learned mean μ_β (SBPS paper, App. E).",
        "step_size" => "The step size εₜ of the latest update (it decreases with the polynomial schedule).",
        "total_time" => "Length of the continuous trajectory so far; moments are integrals over it.",
        "violation_rate" => "Share of bounces at which the true event rate exceeded its bound (each makes the sampler slightly inexact).",
        "violations" => "Bounces at which the true event rate exceeded its bound.",
        _ => "A number the sampler reports about its own state.",
    }
}
