//! Unit tests of src/sgais/warning.rs (`sgais::warning::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::sgais::spread::Spread;
use sgviz::sgais::warning::*;

fn spread(values: &[f64]) -> Spread {
    Spread::of(values).unwrap()
}

#[test]
fn the_paper_settings_run_is_warned_about_and_a_healthy_one_is_not() {
    // The numbers: ESS 1 of 100 particles; four replicas with error ≈ −152 ± 49.
    let collapsed = spread(&[1.0, 1.2, 1.0, 1.1]);
    let biased = spread(&[-250.0, -54.0, -152.0, -152.0]); // mean −152, se = sd/2 ≈ 40
    let warning = reliability_warning(Some(&collapsed), 100, Some(&biased)).unwrap();
    assert!(warning.contains("ESS 1.0 of M = 100") && warning.contains("standard errors"), "{warning}");
    // Healthy: ESS 60 of 100, error within its standard error.
    assert!(reliability_warning(Some(&spread(&[60.0, 70.0])), 100, Some(&spread(&[-1.0, 1.5, 0.2]))).is_none());
    // One replica: no standard error, so only the ESS can warn.
    assert!(reliability_warning(Some(&spread(&[80.0])), 100, Some(&spread(&[-152.0]))).is_none());
}
