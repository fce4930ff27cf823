//! Bayesian linear regression as an exact oracle for SGAIS tests: a synthetic data set and exact
//! draws from its posterior after the first n data (`LinearRegression::posterior_after`,
//! docs/truth.md §5), which stand in for perfectly mixed particles.

use nalgebra::DVector;
use sgviz::model::linear::LinearRegression;
use sgviz::params::ParamValues;
use sgviz::rng::{chain_rng, standard_normal};

/// Five features, unit noise and prior sd, `n_points` data drawn with `data_seed`.
pub fn linear_model(n_points: usize, data_seed: u64) -> LinearRegression {
    let mut values = ParamValues::defaults(sgviz::model::linear::PARAMS);
    for (name, v) in [("n_points", n_points as f64), ("n_features", 5.0), ("noise_sd", 1.0), ("prior_sd", 1.0), ("data_seed", data_seed as f64)] {
        values.set(sgviz::model::linear::PARAMS, name, v).unwrap();
    }
    LinearRegression::synthetic(&values)
}

/// `count` exact posterior draws given the first `n` data: m + L⁻ᵀz with A = LLᵀ.
pub fn posterior_draws(model: &LinearRegression, n: usize, count: usize, seed: u64) -> Vec<Vec<f64>> {
    let (precision, mean) = model.posterior_after(n);
    let chol = precision.cholesky().unwrap();
    let mut rng = chain_rng(seed);
    (0..count)
        .map(|_| {
            let z = DVector::from_iterator(mean.len(), (0..mean.len()).map(|_| standard_normal(&mut rng)));
            (&mean + chol.l().transpose().solve_upper_triangular(&z).unwrap()).as_slice().to_vec()
        })
        .collect()
}
