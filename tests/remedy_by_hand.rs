//! The warning's remedy (src/promise.rs `nearest_fix`, docs/diagnostics.md §7) against a boundary
//! worked by hand (issue 23, nineteenth mutation pass: `nearest_fix_among`'s survivors, whose only
//! test compared the remedy with the code's own predictor).
//!
//! The target: N data x_i ~ N(θ, σ²) under a flat prior, so the posterior is N(x̄, 1/λ) with
//! λ = N/σ², and the score g_i = (x_i − θ)/σ² has a covariance that does not depend on θ:
//! F = N·s_x²/σ⁴ (s_x² with divisor N − 1), Σ_ξ = (N/n − 1)F for a minibatch of n. SGLD with
//! constant ε is then the AR(1) recursion δ' = ρδ + w, ρ = 1 − ελ/2, Var w = ε + ε²Σ_ξ/4 (Welling
//! & Teh 2011 eq. 4), whose stationary variance is Var w/(1 − ρ²) = (1 + εΣ_ξ/4)/(λ(1 − ελ/4)).
//! Its E2 against 1/λ (SGFS eq. 14, one entry) is
//!     bias = (ε(Σ_ξ + λ)/4) / (1 − ελ/4),
//! at most 0.1 (the promise's bias half, docs/diagnostics.md §7) exactly when
//!     ε(Σ_ξ + 1.1λ) ≤ 0.4,
//! i.e. ε ≤ 4/(11λ) in full batch (Σ_ξ = 0), and n ≥ N/(1 + (0.4/ε − 1.1λ)/F) otherwise.
//!
//! The mixing half, checked by hand so that the bias boundary is the promise's: at each boundary
//! below ελ ≥ 0.19, so ρ ≤ 0.905; an AR(1) chain's sample variance over T = 5,000 samples has
//! relative sd √(2(1 + ρ²)/((1 − ρ²)T)) ≤ 0.062 (Isserlis; the sample mean's share, (1 + ρ)/(1 − ρ)/T
//! ≤ 0.004, is smaller still), so E2 ≈ |0.1 + 1.1 · 0.062 z| exceeds 0.3 only for z > 2.9: under
//! 0.2 % of runs, far below the 10 % the mixing half allows. The remedy therefore sits on the
//! bias boundary, which these tests read off the formula above and nothing in src/.

use sgviz::diagnostics::Moments;
use sgviz::model::{Model, View};
use sgviz::params::ParamValues;
use sgviz::promise::{nearest_fix, Predictor};

/// x_i ~ N(θ, σ²), flat prior: N(x̄, σ²/N) (module docs).
pub(crate) struct Line {
    data: Vec<f64>,
    noise_var: f64,
}

impl Line {
    /// N data at ±spread (half each), so x̄ = 0 and s_x² = N·spread²/(N − 1).
    pub(crate) fn new(n: usize, noise_var: f64, spread: f64) -> Line {
        Line { data: (0..n).map(|i| if i % 2 == 0 { spread } else { -spread }).collect(), noise_var }
    }
    pub(crate) fn precision(&self) -> f64 {
        self.data.len() as f64 / self.noise_var
    }
}

impl Model for Line {
    fn dim(&self) -> usize {
        1
    }
    fn n_data(&self) -> usize {
        self.data.len()
    }
    fn log_prior(&self, _theta: &[f64]) -> f64 {
        0.0
    }
    fn add_grad_log_prior(&self, _theta: &[f64], _out: &mut [f64]) {}
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        -0.5 * (self.data[i] - theta[0]).powi(2) / self.noise_var
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        out[0] += (self.data[i] - theta[0]) / self.noise_var;
    }
    fn gaussian_precision(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        Some((vec![0.0], vec![self.precision()]))
    }
    fn exact_moments(&self) -> Option<Moments> {
        Some(Moments { mean: vec![0.0], cov: vec![vec![1.0 / self.precision()]] })
    }
    fn view(&self) -> View {
        View::centred(0.0, 0.0, 10.0, 10.0)
    }
}

pub(crate) fn params_at(sampler: &str, settings: &[(&str, f64)]) -> ParamValues {
    let specs = sgviz::registry::sampler(sampler).unwrap().params;
    let mut params = ParamValues::defaults(specs);
    for (name, value) in settings {
        params.set(specs, name, *value).unwrap();
    }
    params
}

/// SGLD's remedy on `model` from `settings`, with the sliders' static ranges (no derived ones).
fn remedy(model: &Line, settings: &[(&str, f64)]) -> (&'static str, f64) {
    remedy_of("sgld", model, settings)
}

fn remedy_of(sampler: &str, model: &Line, settings: &[(&str, f64)]) -> (&'static str, f64) {
    let specs = sgviz::registry::sampler(sampler).unwrap().params;
    let predictor = Predictor::new(sampler, model).expect("a Gaussian target has a law");
    let (spec, value) = nearest_fix(&predictor, specs, &params_at(sampler, settings), &[]).expect("one slider keeps the promise");
    (spec.name, value)
}

#[test]
fn full_batch_sgld_is_sent_to_four_elevenths_over_lambda() {
    // Identical data: F = 0, so only ε matters; λ = 10/2.5 = 4, the boundary ε = 4/(11·4) = 1/11.
    let model = Line::new(10, 2.5, 0.0);
    let boundary = 4.0 / (11.0 * model.precision());
    // From ε = 0.5 (bias (0.5)/(0.5) = 1) and ε = 0.2 (bias 0.25): both above the boundary.
    for step in [0.5, 0.2] {
        let (name, value) = remedy(&model, &[("step_size", step), ("batch_size", 10.0)]);
        assert_eq!(name, "step_size", "from ε = {step} only ε can keep the promise (F = 0)");
        // Bisection in log slider units over [10⁻¹⁴, 10]: 20 halvings of at most 0.1 leave
        // 10⁻⁷ · ln 10¹⁵ ≈ 3.3·10⁻⁶ in ln ε, on the kept side (the bias tolerance 10⁻⁶ is smaller).
        assert!((value / boundary - 1.0).abs() < 1e-5, "from ε = {step}: remedy ε = {value}, by hand 4/(11λ) = {boundary}");
    }
}

#[test]
fn a_moved_minibatch_is_sent_to_the_smallest_n_the_bias_allows() {
    // N = 100, σ² = 25: λ = 4; spread² = 0.45·σ⁴·(N − 1)/N² so F = 0.45. At the default ε = 0.05:
    // Σ_ξ ≤ 0.4/0.05 − 4.4 = 3.6, so 100/n − 1 ≤ 8: n ≥ 11.11, the remedy n = 12 (n = 11 gives
    // bias 0.1005, n = 12 0.0961). Only n was moved, so only n is searched first.
    let (n, noise_var, fisher) = (100.0f64, 25.0f64, 0.45f64);
    let spread = (fisher * noise_var * noise_var * (n - 1.0) / (n * n)).sqrt();
    let model = Line::new(100, noise_var, spread);
    let bias = |step: f64, batch: f64| {
        let (noise, lambda) = ((n / batch - 1.0) * fisher, model.precision());
        step * (noise + lambda) / 4.0 / (1.0 - step * lambda / 4.0)
    };
    assert!(bias(0.05, 11.0) > 0.1 && bias(0.05, 12.0) < 0.1, "the hand-worked boundary lies between 11 and 12");
    assert_eq!(remedy(&model, &[("batch_size", 5.0)]), ("batch_size", 12.0));
}

/// N = 100 data, σ² = 100 (λ = 1), spread chosen so that F = `fisher` (module docs).
pub(crate) fn line_with_fisher(fisher: f64) -> Line {
    let (n, noise_var) = (100.0f64, 100.0f64);
    Line::new(100, noise_var, (fisher * noise_var * noise_var * (n - 1.0) / (n * n)).sqrt())
}

#[test]
fn with_both_sliders_moved_the_nearer_fix_in_slider_units_wins() {
    // Slider units: ln over ln 10¹⁵ for ε ([10⁻¹⁴, 10]), over ln 10⁶ for n ([1, 10⁶]).
    // F = 1, ε = 0.3, n = 50 (Σ_ξ = 1, bias 0.162): by ε alone ε ≤ 0.4/2.1 = 0.1905, at
    // ln(0.3/0.1905)/34.54 = 0.0132; by n alone 100/n − 1 ≤ 0.4/0.3 − 1.1, n ≥ 81.1 → 82, at
    // ln(82/50)/13.82 = 0.0358: ε is nearer.
    let (name, value) = remedy(&line_with_fisher(1.0), &[("step_size", 0.3), ("batch_size", 50.0)]);
    assert_eq!(name, "step_size");
    assert!((value / (0.4 / 2.1) - 1.0).abs() < 1e-5, "remedy ε = {value}, by hand 0.4/2.1 = {}", 0.4 / 2.1);
}

#[test]
fn sgfs_f_in_full_batch_is_sent_to_alpha_root_four_and_a_half() {
    // A linear slider (α over [0, 100]). SGFS-f in full batch (n = N: γ = 2, Σ_ξ = 0) with
    // K = F = λ (the ridge 10⁻⁶ aside): h = 2/((1 + α²)γ), A = 1 − r, r = hλ/K = 1/(1 + α²),
    // Q = h²α²γ/K (Ahn et al. 2012 Algorithm 1, the law of src/law.rs's module docs), so
    // λ·Var = hα²γ/(2 − r) = 2α²/(1 + 2α²) and the bias is 1/(1 + 2α²): at most 0.1 from
    // α = √4.5 = 2.1213 (r = 0.18 there, the mixing half as in the module docs). From α = 1.5
    // (bias 0.18) the grid point 100/23·1 = 4.35 keeps it, and bisection over the range's
    // fraction ends within 100·2.85·10⁻²/2²⁰ ≈ 3·10⁻⁶ of the boundary.
    let (name, value) = remedy_of("sgfs_f", &line_with_fisher(1.0), &[("sgfs_alpha", 1.5)]);
    assert_eq!(name, "sgfs_alpha");
    assert!((value / 4.5f64.sqrt() - 1.0).abs() < 1e-5, "remedy α = {value}, by hand √4.5 = {}", 4.5f64.sqrt());
}

#[test]
fn osgfs_in_full_batch_is_sent_to_c_four_elevenths() {
    // A linear slider whose range starts above 0 (c over [0.001, 0.99]). OSGFS in full batch with
    // a flat prior and F = λ (El hanchi 2018 eq. 8–10, 16, the law of src/law.rs's module docs):
    // k = min(c, 4·max(n/(N + n), ·)) = c, D = c/(2λ), Σ_ξ = 0, A = 1 − c/2, and the corrected
    // injected noise 2D − D·F·D − D·H·D = (c − c²/2)/λ, so λ·Var = (1 − c/2)/(1 − c/4) and the
    // bias is (c/4)/(1 − c/4): at most 0.1 up to c = 4/11 (ρ = 9/11 there, the mixing half as in
    // the module docs). From c = 0.6 (bias 0.18) the grid point 0.001 + 8·0.989/23 = 0.345 keeps it.
    let (name, value) = remedy_of("osgfs", &line_with_fisher(1.0), &[("osgfs_c", 0.6), ("osgfs_variant", 0.0)]);
    assert_eq!(name, "osgfs_c");
    assert!((value / (4.0 / 11.0) - 1.0).abs() < 1e-5, "remedy c = {value}, by hand 4/11");
}

/// A bug the nineteenth mutation pass found (MUTANTS.md), fixed at stop 45: the search skipped a
/// slider whose nearest grid point keeping the promise was farther than the best refined value so
/// far, though its own refined value could be nearer. Here ε's refined fix (0.2, at 0.0014
/// of its slider) hides n's grid point (122, at 0.022), whose refinement n = 91 is at 0.0008.
#[test]
fn the_nearer_refined_fix_wins_even_when_its_grid_point_is_farther() {
    // F = 8.1, ε = 0.21, n = 90 (Σ_ξ = 0.9, bias 0.1053): by ε, ε ≤ 0.4/2 = 0.2, at
    // ln(0.21/0.2)/34.54 = 0.0014; by n, Σ_ξ ≤ 0.4/0.21 − 1.1 = 0.8048, n ≥ 90.96 → 91 (bias
    // 0.0998), at ln(91/90)/13.82 = 0.0008: n is nearer (n = 90 itself gives 0.1053).
    assert_eq!(remedy(&line_with_fisher(8.1), &[("step_size", 0.21), ("batch_size", 90.0)]), ("batch_size", 91.0));
}
