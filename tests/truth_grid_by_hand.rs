//! The grid quadrature of src/truth.rs (`grid_truth`, docs/truth.md) on a 5 × 5 grid worked by hand
//! (issue 23, ninth mutation pass): every number the truth panel shows from it — the mean, the
//! covariance, the h/2h quadrature error, the edge mass, the stated error bound and both marginal
//! curves — against exact fractions derived below, not against the code's own rule.
//!
//! The target: π(x, y) ∝ 4 + x·y² on [0, 4]², 4 intervals per axis (h = 1, nodes 0 … 4). It is
//! off-centre, not a product of its marginals, and not symmetric in x and y, so a swapped
//! coordinate, a dropped trapezoid half-weight, a centring slip (m_x m_y vs m_x²) or an edge test
//! that misses one side each changes a value below by more than 10⁻³.
//!
//! Trapezoid sums over the fine nodes (weights ½, 1, 1, 1, ½): S₀ = Σt = 4, S₁ = Σt·x = 8,
//! S₂ = Σt·x² = 22, S₃ = Σt·x³ = 68, S₄ = Σt·x⁴ = 226. With w = 4 + x y²:
//!   mass = 4S₀S₀ + S₁S₂ = 64 + 176 = 240,
//!   E x  = (4S₁S₀ + S₂S₂)/240 = 612/240 = 51/20,   E y  = (4S₀S₁ + S₁S₃)/240 = 672/240 = 14/5,
//!   E x² = (4S₂S₀ + S₃S₂)/240 = 1848/240,           E y² = (4S₀S₂ + S₁S₄)/240 = 2160/240 = 9,
//!   E xy = (4S₁S₁ + S₂S₃)/240 = 1752/240,
//! so Var x = 77/10 − (51/20)² = 479/400, Var y = 9 − (14/5)² = 29/25, Cov = 73/10 − 714/100 = 4/25.
//! The 2h rule (nodes 0, 2, 4, weights ½, 1, ½: C₀ = 2, C₁ = 4, C₂ = 12, C₃ = 40, C₄ = 144):
//! mass 4C₀C₀ + C₁C₂ = 64, mean ((4C₁C₀ + C₂C₂)/64, (4C₀C₁ + C₁C₃)/64) = (11/4, 3),
//! E x² = (4C₂C₀ + C₃C₂)/64 = 9, E y² = (4C₀C₂ + C₁C₄)/64 = 21/2, E xy = (4C₁C₁ + C₂C₃)/64 = 17/2, so
//! cov [[23/16, 1/4], [1/4, 3/2]]. The differences are 1/5, 1/5 (means), 6/25, 9/100, 17/50: the
//! largest |M_h − M_2h| is Var y's 3/2 − 29/25 = 17/50.
//! Edge mass: the raw node weights sum to 25·4 + (Σx)(Σy²) = 100 + 10·30 = 400, the 3 × 3 interior to
//! 9·4 + 6·14 = 120, so 280/400 = 7/10 of it sits on the border nodes.
//! Marginal of x: Σ_m t_m(4 + x y_m²) = 16 + 22x, normalised by Σ_k t_k(16 + 22x_k)·h = 240; of y:
//! Σ_k t_k(4 + x_k y²) = 16 + 8y², normalised by 64 + 8·22 = 240.

use sgviz::model::{Model, View};
use sgviz::truth::{grid_truth, TruthSource};

/// π(x, y) ∝ 4 + x·y² (positive on the grid's region [0, 4]²).
struct Tilted;

impl Model for Tilted {
    fn dim(&self) -> usize {
        2
    }
    fn n_data(&self) -> usize {
        1
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        (4.0 + theta[0] * theta[1] * theta[1]).ln()
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        let (x, y) = (theta[0], theta[1]);
        let p = 4.0 + x * y * y;
        out[0] += y * y / p;
        out[1] += 2.0 * x * y / p;
    }
    fn log_lik(&self, _i: usize, _theta: &[f64]) -> f64 {
        0.0
    }
    fn add_grad_log_lik(&self, _i: usize, _theta: &[f64], _out: &mut [f64]) {}
    fn view(&self) -> View {
        View { x_min: 0.0, x_max: 4.0, y_min: 0.0, y_max: 4.0 }
    }
}

fn close(what: &str, got: f64, expected: f64) {
    assert!((got - expected).abs() < 1e-12 * expected.abs().max(1.0), "{what}: {got} vs {expected} (by hand)");
}

fn region() -> View {
    View { x_min: 0.0, x_max: 4.0, y_min: 0.0, y_max: 4.0 }
}

#[test]
fn the_grid_truth_of_a_tilted_density_on_five_nodes_is_the_hand_worked_trapezoid_rule() {
    let truth = grid_truth(&Tilted, region(), 4);
    assert_eq!(truth.source, TruthSource::GridQuadrature);
    let m = truth.moments.as_ref().expect("the grid truth states moments");
    close("mean x", m.mean[0], 51.0 / 20.0);
    close("mean y", m.mean[1], 14.0 / 5.0);
    close("Var x", m.cov[0][0], 479.0 / 400.0);
    close("Var y", m.cov[1][1], 29.0 / 25.0);
    close("Cov xy", m.cov[0][1], 4.0 / 25.0);
    close("Cov yx", m.cov[1][0], 4.0 / 25.0);
    // |M_h − M_2h| = 17/50, plus the edge mass 7/10 × span² (span 4), plus the floor 10⁻¹⁰ × the
    // largest moment (14/5).
    close("error bound", truth.error_bound, 17.0 / 50.0 + 0.7 * 16.0 + 1e-10 * 2.8);
    // What the truth panel prints: the grid, the region, the quadrature error and the edge mass.
    for shown in ["5² nodes", "[0.000, 4.000] × [0.000, 4.000]", "= 0.34,", "edge mass (probability at the grid's border, cut off) 0.7"] {
        assert!(truth.error.contains(shown), "{shown:?} not in {:?}", truth.error);
    }
}

#[test]
fn the_marginal_curves_of_the_tilted_density_are_the_hand_worked_normalised_sums() {
    let truth = grid_truth(&Tilted, region(), 4);
    assert_eq!(truth.marginals.len(), 2);
    let nodes = [0.0, 1.0, 2.0, 3.0, 4.0];
    for (marginal, coordinate, density) in [
        (&truth.marginals[0], 0, [16.0, 38.0, 60.0, 82.0, 104.0]), // (16 + 22x)/240
        (&truth.marginals[1], 1, [16.0, 24.0, 48.0, 88.0, 144.0]), // (16 + 8y²)/240
    ] {
        assert_eq!(marginal.coordinate, coordinate);
        assert_eq!(marginal.points, nodes);
        for (k, (got, numerator)) in marginal.density.iter().zip(density).enumerate() {
            close(&format!("marginal {coordinate} at node {k}"), *got, numerator / 240.0);
        }
    }
}
