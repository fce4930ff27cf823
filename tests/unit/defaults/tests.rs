//! Unit tests of src/defaults.rs (`defaults::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::defaults::*;
use sgviz::chain::{Chain, ChainConfig};
use sgviz::registry::{SamplerKind, SAMPLERS, TARGETS};

#[test]
fn derived_values_are_finite_inside_their_ranges_for_every_pairing_at_default_and_extreme_targets() {
    // The static range is what is allowed at all, the derived range where the slider lives:
    // min ≤ default ≤ max inside the static range, and the default at most half of
    // unstable_above.
    for target in TARGETS {
        let mut extremes = vec![Vec::new(), target.params.iter().filter(|p| p.choices.is_empty()).map(|p| (p.name, p.min)).collect::<Vec<_>>()];
        if target.name == "logreg" {
            // The stiffest posterior the page offers: 30 raw breast-cancer features (λ_max ≈ 10⁷).
            extremes.push(vec![("dataset", 1.0), ("n_features", 30.0), ("standardise", 0.0)]);
        }
        for settings in extremes {
            for sampler in SAMPLERS.iter().filter(|s| s.kind != SamplerKind::Bouncy) {
                let config = settings.iter().fold(ConfigBuilder::new(target.name, sampler.name), |c, (n, v)| c.with(n, *v)).0;
                let chain = match Chain::new(&config) {
                    Ok(chain) => chain,
                    Err(e) => {
                        assert!(e.contains("cannot run on target") || e.contains("both classes"), "{} × {} {settings:?}: {e}", target.name, sampler.name);
                        continue;
                    }
                };
                for d in chain.derived() {
                    let spec = spec(sampler.params, d.name);
                    let what = format!("{} × {} {settings:?}: {d:?}", target.name, sampler.name);
                    assert!(d.default.is_finite() && d.min <= d.default && d.default <= d.max, "{what}");
                    assert!(spec.min <= d.min && d.max <= spec.max, "{what}");
                    assert_eq!(chain.sampler_params().get(d.name), d.default, "{what}");
                    if let Some(limit) = d.unstable_above {
                        // Half the stability limit at most, as the module docs state.
                        assert!(d.default <= 0.5 * limit * (1.0 + 1e-9), "{what}");
                    }
                }
            }
        }
    }
}

/// ChainConfig with numeric settings.
struct ConfigBuilder(ChainConfig);
impl ConfigBuilder {
    fn new(target: &str, sampler: &str) -> Self {
        ConfigBuilder(ChainConfig::new(target, sampler, 1))
    }
    fn with(self, name: &str, value: f64) -> Self {
        ConfigBuilder(self.0.with(name, value))
    }
}

#[test]
fn helpers_find_thresholds() {
    let x = largest_where(1e-9, 10.0, |x| x < 0.37).unwrap();
    assert!((x - 0.37).abs() < 1e-9);
    assert_eq!(largest_where(1e-9, 10.0, |_| true), Some(10.0));
    assert_eq!(largest_where(1e-9, 10.0, |_| false), None);
    assert_eq!(smallest_batch_where(1000, |n| n >= 437), Some(437));
    assert_eq!(smallest_batch_where(1000, |_| false), None);
    assert_eq!(smallest_batch_where(1000, |_| true), Some(1));
}

#[test]
fn smallest_where_finds_the_threshold_of_a_predicate_that_holds_above_it() {
    // Hand-worked: x ≥ 0.37 holds above 0.37; the bracket closes on it from above.
    let x = smallest_where(1e-9, 10.0, |x| x >= 0.37).unwrap();
    assert!(x >= 0.37 && x < 0.37 * (1.0 + 1e-12), "{x}");
    assert_eq!(smallest_where(1e-9, 10.0, |_| true), Some(1e-9));
    assert_eq!(smallest_where(1e-9, 10.0, |_| false), None);
}
