//! The posterior-averaged Fisher of src/law.rs (`posterior_fisher`, `GaussianSummary::averaged`),
//! worked by hand (issue 23, nineteenth mutation pass: 40 of law.rs's mutants there survived every
//! law test, none of which called it).
//!
//! The model: prior N(m, diag(s₁², s₂²)) and N data whose log-likelihoods are ±h(θ) in turn,
//! h(θ) = (θ₁² + θ₂²)/2. The data cancel in the posterior, which is the prior; the scores ±∇h(θ)
//! have mean 0 and covariance (divisor N − 1) N/(N − 1)·∇h∇hᵀ, so F(θ) = N²/(N − 1)·θθᵀ and
//!     E_π[F] = N²/(N − 1)·[[m₁² + s₁², m₁m₂], [m₁m₂, m₂² + s₂²]].
//! The quadrature's region is m ± 6s on each axis, 61 nodes: spacing 0.2 s, where a Gaussian's
//! node sums equal its integrals to e^(−2π²·25) (Poisson summation), and the mass outside 6 s
//! moves the second moments by under 10⁻⁷ relative: the test allows 10⁻⁶.

use nalgebra::{DMatrix, DVector};
use sgviz::law::{posterior_fisher, GaussianSummary};
use sgviz::model::{Model, View};

/// See the module docs; `offset` is added to the log density (an unnormalised density).
struct Cancelling {
    dim: usize,
    n: usize,
    mean: [f64; 2],
    sd: [f64; 2],
    offset: f64,
}

impl Cancelling {
    fn sign(i: usize) -> f64 {
        if i % 2 == 0 { 1.0 } else { -1.0 }
    }
}

impl Model for Cancelling {
    fn dim(&self) -> usize {
        self.dim
    }
    fn n_data(&self) -> usize {
        self.n
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        self.offset - 0.5 * theta.iter().enumerate().map(|(j, t)| ((t - self.mean[j]) / self.sd[j]).powi(2)).sum::<f64>()
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        for (j, o) in out.iter_mut().enumerate() {
            *o -= (theta[j] - self.mean[j]) / (self.sd[j] * self.sd[j]);
        }
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        Self::sign(i) * 0.5 * theta.iter().map(|t| t * t).sum::<f64>()
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        for (o, t) in out.iter_mut().zip(theta) {
            *o += Self::sign(i) * t;
        }
    }
    fn view(&self) -> View {
        View::centred(self.mean[0], self.mean[1], 3.0 * self.sd[0], 3.0 * self.sd[1])
    }
    fn truth_region(&self) -> View {
        View::centred(self.mean[0], self.mean[1], 6.0 * self.sd[0], 6.0 * self.sd[1])
    }
}

fn model(dim: usize, n: usize) -> Cancelling {
    // Off centre and twice as long along θ₂ as θ₁ (a grid that is shifted, flipped or stretched
    // moves the moments); the offset −400 puts the peak's log density far from 0.
    Cancelling { dim, n, mean: [1.0, -0.5], sd: [0.5, 2.0], offset: -400.0 }
}

#[test]
fn the_posterior_fisher_is_the_prior_average_of_theta_theta_transposed() {
    for n in [2usize, 10] {
        let scale = (n * n) as f64 / (n - 1) as f64;
        let expected = DMatrix::from_row_slice(2, 2, &[1.25, -0.5, -0.5, 4.25]) * scale;
        let got = posterior_fisher(&model(2, n)).expect("two dimensions and at least two data");
        let error = (&got - &expected).abs().max() / expected.abs().max();
        assert!(error < 1e-6, "N = {n}: E_π[F] = {got} by the quadrature, by hand {expected}");
    }
}

#[test]
fn the_posterior_fisher_needs_two_dimensions_and_two_data() {
    assert!(posterior_fisher(&model(2, 1)).is_none(), "one datum has no score covariance");
    assert!(posterior_fisher(&Cancelling { dim: 1, ..model(1, 10) }).is_none(), "the grid is 2-D only");
}

#[test]
fn the_averaged_summary_carries_the_posterior_fisher_and_no_second_average() {
    let average = DMatrix::from_row_slice(2, 2, &[3.0, 1.0, 1.0, 2.0]);
    let summary = GaussianSummary {
        mean: DVector::zeros(2),
        precision: DMatrix::identity(2, 2),
        fisher: DMatrix::identity(2, 2),
        prior: DMatrix::zeros(2, 2),
        n_data: 10.0,
        synthetic: 0.0,
        exact: false,
        source: "test",
        without_gradient_noise: false,
        posterior_fisher: Some(average.clone()),
    };
    let averaged = summary.averaged().expect("a summary with a posterior average");
    assert_eq!(averaged.fisher, average);
    assert!(averaged.posterior_fisher.is_none(), "the averaged summary is not averaged again");
    assert!(GaussianSummary { posterior_fisher: None, ..summary }.averaged().is_none());
}

#[test]
fn the_mixtures_grid_scan_summary_has_a_posterior_fisher_and_a_closed_form_has_none() {
    let build = |name: &str| {
        let target = sgviz::registry::target(name).unwrap();
        (target.build)(&sgviz::params::ParamValues::defaults(target.params), None).unwrap()
    };
    let mixture = GaussianSummary::of(build("mixture").as_ref()).unwrap();
    assert!(mixture.source.contains("linearised"), "the mixture is summarised by its grid scan: {}", mixture.source);
    assert!(mixture.posterior_fisher.is_some(), "a 2-D grid-scan summary carries E_π[F]");
    assert!(GaussianSummary::of(build("gaussian").as_ref()).unwrap().posterior_fisher.is_none());
}

#[test]
fn a_covariance_is_round_when_its_variances_agree_to_a_billionth() {
    use sgviz::law::is_round;
    // Relative spread (hi − lo)/hi against 10⁻⁹, by hand.
    assert!(is_round(&[2.0, 2.0]) && is_round(&[10.0, 10.0 + 5e-9]), "spreads 0 and 5·10⁻¹⁰ are round");
    assert!(!is_round(&[10.0, 10.0 + 2e-8]) && !is_round(&[1.0, 3.0]), "spreads 2·10⁻⁹ and 2/3 are not");
    assert!(!is_round(&[0.0, 0.0]) && !is_round(&[]), "no variance at all is not a round target");
}

#[test]
fn bps_without_refreshes_has_no_law_on_a_round_gaussian_only() {
    let gaussian = |rho: f64| {
        let target = sgviz::registry::target("gaussian").unwrap();
        let mut params = sgviz::params::ParamValues::defaults(target.params);
        params.set(target.params, "rho", rho).unwrap();
        (target.build)(&params, None).unwrap()
    };
    let bps = |rate: f64| {
        let specs = sgviz::registry::sampler("bps").unwrap().params;
        let mut params = sgviz::params::ParamValues::defaults(specs);
        params.set(specs, "refresh_rate", rate).unwrap();
        params
    };
    let law = |rate: f64, rho: f64| sgviz::law::predicted_law("bps", &bps(rate), gaussian(rho).as_ref());
    // σ₁ = σ₂ = 1: ρ = 0 is round (variances 1, 1), ρ = 0.9 is not (0.1, 1.9).
    assert!(law(0.0, 0.0).is_err_and(|e| e.contains("not ergodic")), "round, never refreshed: no single law");
    assert!(law(1.0, 0.0).is_ok(), "round, refreshed: the target is its law");
    assert!(law(0.0, 0.9).is_ok(), "not round, never refreshed: still ergodic, the target is its law");
}
