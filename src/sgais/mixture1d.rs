//! The 1-D Gaussian mixture of the SGAIS paper's Appendix A.2 (Fig. A1: NS against AIS, "a
//! 1-dimensional Gaussian mixture model with 9 parameters (8 degrees of freedom)"): K = 3
//! components on scalar data, the priors of Appendix B.3 (src/model/gmm.rs). The paper does not
//! give its data; here N points from three clusters, N(−3, 0.6²), N(0, 1) and N(2.5, 0.5²) with
//! weights 0.3, 0.4, 0.3 (neighbouring clusters overlap).
//! The target itself is built in src/sgais/models.rs (`gmm1d`).

use crate::params::ParamSpec;
use crate::rng::{chain_rng, standard_normal, uniform};

/// The clusters the data are drawn from: (weight, mean, sd).
pub const CLUSTERS: [(f64, f64, f64); 3] = [(0.3, -3.0, 0.6), (0.4, 0.0, 1.0), (0.3, 2.5, 0.5)];

/// Parameters of the `gmm1d` evidence target.
pub const GMM1D_PARAMS: &[ParamSpec] = &[
    ParamSpec::integer("n_points", "Data points", "N", "Number of generated observations", 1.0, 1e6, 200.0, true),
    ParamSpec::integer("n_components", "Mixture components", "K", "Components of the fitted mixture (paper App. A.2: 3, 9 parameters)", 1.0, 16.0, 3.0, false),
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the generated data set", 0.0, 1e9, 1.0, false),
];

/// N scalar observations from [`CLUSTERS`], seeded.
pub fn one_d_mixture_data(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = chain_rng(seed ^ 0x1d_a1);
    (0..n)
        .map(|_| {
            let u = uniform(&mut rng);
            let mut acc = 0.0;
            let &(_, mean, sd) = CLUSTERS.iter().find(|c| { acc += c.0; u < acc }).unwrap_or(&CLUSTERS[2]);
            mean + sd * standard_normal(&mut rng)
        })
        .collect()
}
