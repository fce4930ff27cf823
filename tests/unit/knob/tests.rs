//! Unit tests of src/knob.rs (`knob::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::chain::Chain;
use sgviz::knob::*;
use sgviz::chain::ChainConfig;
use sgviz::registry;

fn knob(target: &str, sampler: &str, settings: &[(&str, f64)]) -> Knob {
    let mut config = ChainConfig::new(target, sampler, 1);
    for (name, value) in settings {
        config = config.with(name, value);
    }
    Knob::of(&Chain::new(&config).unwrap()).unwrap()
}

#[test]
fn each_sampler_varies_its_own_knob() {
    assert_eq!(knob("gaussian", "sgld", &[]).param, "step_size");
    assert_eq!(knob("gaussian", "sgfs_f", &[]).param, "sgfs_alpha");
    assert_eq!(knob("gaussian", "sgfs_d", &[]).symbol, "α");
    assert_eq!(knob("gaussian", "sghmc", &[]).param, "sghmc_lr");
    assert_eq!(knob("gaussian", "osgfs", &[]).param, "osgfs_c");
    let bps = Chain::new(&ChainConfig::new("gaussian", "sbps", 1)).unwrap();
    assert!(Knob::of(&bps).is_none());
}

/// Every value a sweep or chart uses is one the slider can reach: the slider's range is the
/// sampler's derived range on the target (read here from `defaults`, the CLI's source), or
/// the registry's static range.
#[test]
fn every_sweep_and_chart_value_is_inside_the_slider_range() {
    for (target, sampler, settings) in [
        ("gaussian", "sgfs_f", vec![("sgfs_alpha", 6.0)]),
        ("gaussian", "sgfs_f", vec![("sgfs_alpha", 0.0)]),
        ("gaussian", "sgfs_d", vec![]),
        ("gaussian", "sghmc", vec![]),
        ("gaussian", "osgfs", vec![("osgfs_c", 0.9)]),
        ("gaussian", "sgld", vec![]),
        ("gaussian", "mala", vec![]),
    ] {
        let k = knob(target, sampler, &settings);
        let chain = Chain::new(&settings.iter().fold(ChainConfig::new(target, sampler, 1), |c, (n, v)| c.with(n, v))).unwrap();
        let spec = registry::sampler(sampler).unwrap().params.iter().find(|p| p.name == k.param).unwrap();
        let (lo, hi) = chain.derived().iter().find(|d| d.name == k.param).map_or((spec.min, spec.max), |d| (d.min, d.max));
        let inside = |v: f64| v >= lo.min(k.value) - 1e-12 && v <= hi.max(k.value) + 1e-12;
        for v in k.sweep_values().into_iter().chain(k.grid(40)) {
            assert!(inside(v), "{sampler} {settings:?}: {} = {v} outside the slider's [{lo}, {hi}]", k.param);
        }
        assert!(k.sweep_values().contains(&k.value), "{sampler}: the current value is swept");
    }
}
