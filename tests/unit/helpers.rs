//! Shorthands shared by the unit tests (formerly `#[cfg(test)]` items of the library; issue 23).

use sgviz::params::ParamValues;

/// Parameters of `sampler` with `settings` over its declared defaults (panics on an unknown
/// sampler or a refused value; formerly `registry::sampler_params`).
pub fn sampler_params(sampler: &str, settings: &[(&str, f64)]) -> ParamValues {
    let specs = sgviz::registry::sampler(sampler).unwrap().params;
    let mut values = ParamValues::defaults(specs);
    for (name, value) in settings {
        values.set(specs, name, *value).unwrap();
    }
    values
}
