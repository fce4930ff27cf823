//! Unit tests of src/model/gmm.rs (`model::gmm::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::model::Model;
use sgviz::rng::chain_rng;
use sgviz::model::gmm::*;

fn paper_model(n: usize) -> GaussianMixture {
    GaussianMixture::new(2, 5, generate_cluster_data(n, ClusterSchedule::Stationary(5), 1)).unwrap()
}

#[test]
fn paper_setting_has_24_free_parameters() {
    assert_eq!(paper_model(10).dim(), 24);
}

#[test]
fn gradients_match_finite_differences() {
    let model = paper_model(20);
    let theta = model.sample_prior(&mut chain_rng(4));
    let mut g = vec![0.0; model.dim()];
    model.add_grad_log_prior(&theta, &mut g);
    model.add_grad_log_lik(3, &theta, &mut g);
    let f = |t: &[f64]| model.log_prior(t) + model.log_lik(3, t);
    for j in 0..model.dim() {
        let h = 1e-6;
        let (mut up, mut down) = (theta.clone(), theta.clone());
        up[j] += h;
        down[j] -= h;
        let fd = (f(&up) - f(&down)) / (2.0 * h);
        assert!((fd - g[j]).abs() < 1e-5 * (1.0 + fd.abs()), "coordinate {j}: {fd} vs {}", g[j]);
    }
}

#[test]
fn fused_batch_gradient_equals_the_per_datum_sum() {
    let model = paper_model(30);
    let theta = model.sample_prior(&mut chain_rng(6));
    let batch = [0, 4, 4, 17, 29];
    let (mut fused, mut single) = (vec![0.0; model.dim()], vec![0.0; model.dim()]);
    model.add_grad_log_lik_batch(&batch, &theta, &mut fused);
    batch.iter().for_each(|&i| model.add_grad_log_lik(i, &theta, &mut single));
    for (a, b) in fused.iter().zip(&single) {
        assert!((a - b).abs() < 1e-9 * (1.0 + b.abs()), "{a} vs {b}");
    }
}

/// ∫∫ p(θ) Π_i p(y_i | θ) dμ dρ for a one-component 1-D model, by a Riemann sum with
/// step 0.01 over μ ∈ [−μ_max, μ_max], ρ ∈ [−ρ_max, ρ_max].
fn evidence_by_quadrature(model: &GaussianMixture, mu_max: f64, rho_max: f64) -> f64 {
    let (mut total, h) = (0.0, 0.01);
    let mut mu = -mu_max;
    while mu < mu_max {
        let mut rho = -rho_max;
        while rho < rho_max {
            let t = [mu, rho];
            total += (model.log_prior(&t) + (0..model.n_data()).map(|i| model.log_lik(i, &t)).sum::<f64>()).exp() * h * h;
            rho += h;
        }
        mu += h;
    }
    total
}

/// With K = 1 and p = 1 the prior is Normal-InvGamma and the evidence of one point has a
/// closed form (Student-t with 2a = 2 degrees of freedom, scale² = b(1 + 4)/a = 5):
/// p(y) = Γ(3/2)/(Γ(1)√(2π·5)) (1 + y²/(2·5))^{−3/2}. Check it by quadrature over (μ, ρ) of
/// exp(log prior + log lik) — this pins every prior constant and Jacobian.
#[test]
fn one_component_evidence_matches_student_t() {
    let y = 0.8;
    let model = GaussianMixture::new(1, 1, vec![y]).unwrap();
    let total = evidence_by_quadrature(&model, 30.0, 12.0);
    let gamma_three_halves = std::f64::consts::PI.sqrt() / 2.0;
    let exact = gamma_three_halves / (2.0 * std::f64::consts::PI * 5.0).sqrt() * (1.0 + y * y / 10.0).powf(-1.5);
    assert!((total - exact).abs() < 1e-3 * exact, "{total} vs {exact}");
}

/// The weight prior with its Jacobian, log Γ(K) + Σ_k log β_k(z), integrates to 1 over the
/// K − 1 free logits (docs/sgais.md §8, (SGAIS.9)). K = 3: quadrature over (z₁, z₂); the rest of
/// log p(θ) is separated out by evaluating at z = 0, where β = (1/3, 1/3, 1/3).
#[test]
fn dirichlet_logit_prior_integrates_to_one() {
    let model = GaussianMixture::new(1, 3, vec![0.0]).unwrap();
    let rest = [0.3, -0.2, 0.1, 0.4, -0.5, 0.2];
    let at = |z1: f64, z2: f64| {
        let mut theta = vec![z1, z2];
        theta.extend_from_slice(&rest);
        model.log_prior(&theta)
    };
    let rest_part = at(0.0, 0.0) - (2f64.ln() + 3.0 * (1.0f64 / 3.0).ln());
    let (h, mut total) = (0.05, 0.0);
    let mut z1 = -25.0;
    while z1 < 25.0 {
        let mut z2 = -25.0;
        while z2 < 25.0 {
            total += (at(z1, z2) - rest_part).exp() * h * h;
            z2 += h;
        }
        z1 += h;
    }
    assert!((total - 1.0).abs() < 1e-3, "{total}");
}

#[test]
fn ln_gamma_matches_known_values() {
    let cases = [(0.5, 0.5 * std::f64::consts::PI.ln()), (1.0, 0.0), (2.0, 0.0), (10.0, 362_880f64.ln()), (0.1, 2.252_712_651_734_206), (1000.5, 5_908.674_175_848_678)];
    for (x, expected) in cases {
        assert!((ln_gamma(x) - expected).abs() < 1e-10 * (1.0 + expected.abs()), "lnΓ({x}) = {} vs {expected}", ln_gamma(x));
    }
    // Γ(x + 1) = x Γ(x) across the range used by the evidence (a = 1 + n/2).
    for x in [0.7, 3.3, 51.5, 5e4 + 0.5] {
        assert!((ln_gamma(x + 1.0) - ln_gamma(x) - f64::ln(x)).abs() < 1e-9 * ln_gamma(x + 1.0).abs().max(1.0));
    }
}

/// The K = 1 closed form agrees with quadrature of prior × likelihood over (μ, ρ) for a few
/// 1-D points (N = 3), and with the one-point Student-t of the test above.
#[test]
fn one_component_evidence_matches_quadrature() {
    let ys = [0.8, -0.3, 1.9];
    let model = GaussianMixture::new(1, 1, ys.to_vec()).unwrap();
    let curve = one_component_log_evidence(&model, &[1, 3]).unwrap();
    let gamma_three_halves = std::f64::consts::PI.sqrt() / 2.0;
    let student_t = gamma_three_halves / (2.0 * std::f64::consts::PI * 5.0).sqrt() * (1.0 + 0.64 / 10.0f64).powf(-1.5);
    assert!((curve[0] - student_t.ln()).abs() < 1e-12, "{} vs {}", curve[0], student_t.ln());
    let total = evidence_by_quadrature(&model, 15.0, 10.0);
    assert!((total.ln() - curve[1]).abs() < 1e-3, "quadrature {} vs closed form {}", total.ln(), curve[1]);
    assert!(one_component_log_evidence(&paper_model(10), &[10]).is_none());
}

#[test]
fn shift_schedule_uses_nested_cluster_sets() {
    let s = ClusterSchedule::Shift { shuffled: false };
    assert_eq!((s.active_clusters(999), s.active_clusters(1_000), s.active_clusters(10_000)), (3, 5, 7));
    let points = generate_cluster_data(2_000, s, 3);
    // Clusters 4..7 never appear before n = 1,000: all early points lie near the first three centres.
    let near_first_three = (0..1_000).all(|i| {
        CLUSTERS[..3].iter().any(|(c, sd)| ((points[2 * i] - c[0]).powi(2) + (points[2 * i + 1] - c[1]).powi(2)).sqrt() < 6.0 * sd)
    });
    assert!(near_first_three);
}
