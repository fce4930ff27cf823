//! Unit tests of src/curvature.rs (`curvature::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use nalgebra::{DMatrix, DVector};
use sgviz::linalg::rows_to_matrix;
use sgviz::curvature::*;
use sgviz::rng::{chain_rng, standard_normal};

#[test]
fn predicted_spread_matches_simulated_ar1_chains() {
    // A 2-D Gaussian summary (variances 2 and 0.5, rotated by 30°) sampled by independent
    // AR(1) processes along its directions with lag-one autocorrelations 0 and 0.6: the summed
    // standard deviations of the T = 400 sample covariance entries over 3,000 replications
    // agree with the prediction within 5 % (≈ 3 standard errors of an sd estimate).
    let model = sgviz::model::gaussian::CorrelatedGaussian::new(1.0, 1.0, 0.0, 0.0);
    let mut c = Curvature::of(&model).unwrap();
    let angle = std::f64::consts::PI / 6.0;
    c.directions = DMatrix::from_row_slice(2, 2, &[angle.cos(), -angle.sin(), angle.sin(), angle.cos()]);
    c.precisions = vec![0.5, 2.0];
    let v = [2.0, 0.5];
    c.cov = sgviz::linalg::matrix_to_rows(&(&c.directions * DMatrix::from_diagonal(&DVector::from_vec(v.to_vec())) * c.directions.transpose()));
    let ar = [0.0, 0.6];
    let (samples, replications) = (400usize, 3_000);
    let mut rng = chain_rng(5);
    let mut entries = vec![Vec::new(); 4];
    for _ in 0..replications {
        let mut z = [standard_normal(&mut rng) * v[0].sqrt(), standard_normal(&mut rng) * v[1].sqrt()];
        let mut sums = [0.0; 4];
        let mut mean = [0.0; 2];
        let mut points = Vec::with_capacity(samples);
        for _ in 0..samples {
            for k in 0..2 {
                z[k] = ar[k] * z[k] + (v[k] * (1.0 - ar[k] * ar[k])).sqrt() * standard_normal(&mut rng);
            }
            let x = &c.directions * DVector::from_vec(z.to_vec());
            points.push([x[0], x[1]]);
            mean[0] += x[0] / samples as f64;
            mean[1] += x[1] / samples as f64;
        }
        for p in &points {
            for (e, (a, b)) in [(0, 0), (0, 1), (1, 0), (1, 1)].into_iter().enumerate() {
                sums[e] += (p[a] - mean[a]) * (p[b] - mean[b]) / samples as f64;
            }
        }
        for e in 0..4 {
            entries[e].push(sums[e]);
        }
    }
    let sd = |x: &Vec<f64>| {
        let m = x.iter().sum::<f64>() / x.len() as f64;
        (x.iter().map(|y| (y - m).powi(2)).sum::<f64>() / (x.len() - 1) as f64).sqrt()
    };
    let simulated: f64 = entries.iter().map(sd).sum::<f64>() / rows_to_matrix(&c.cov).abs().sum();
    let (bias, spread) = c.predicted_e2(&v, &ar, samples as f64);
    assert!(bias.abs() < 1e-12, "the stationary covariance is the summary's own: bias {bias}");
    assert!((spread / simulated - 1.0).abs() < 0.05, "predicted spread {spread} vs simulated {simulated}");
}

#[test]
fn grid_scans_find_separated_modes_and_the_stiffest_curvature() {
    let build = |name: &str| {
        let spec = sgviz::registry::target(name).unwrap();
        (spec.build)(&sgviz::params::ParamValues::defaults(spec.params), None).unwrap()
    };
    // Two modes separated by a deep valley (multimodal), a connected bimodal posterior (the
    // Welling–Teh mixture), none (banana).
    let multimodal = Curvature::of(build("multimodal").as_ref()).unwrap();
    assert_eq!(multimodal.modes.len(), 2);
    assert!(multimodal.modes.iter().all(|m| m.mass > 0.3), "{:?}", multimodal.modes);
    assert!(Curvature::of(build("mixture").as_ref()).unwrap().modes.is_empty());
    // Banana (a = 2, b = 0.5): −∇²log π = [[1/a² + 4b²θ₁² − 2br, −2bθ₁], [−2bθ₁, 1]] grows
    // along the arms to tens within the typical set, far above the summary's largest
    // precision 1/a² = 1/4 (the moments see a wide, round cloud).
    let banana = Curvature::of(build("banana").as_ref()).unwrap();
    assert_eq!(banana.source, CurvatureSource::GridScan);
    assert!(banana.lambda_max > 20.0 && banana.lambda_max < 60.0, "λ_max = {}", banana.lambda_max);
    // The Gaussian's summary is its closed form; its Fisher ratio 1 (toy.rs's pseudo-data).
    let gaussian = Curvature::of(build("gaussian").as_ref()).unwrap();
    assert_eq!(gaussian.source, CurvatureSource::ClosedForm);
    assert!((gaussian.lambda_max - 10.0).abs() < 1e-9 && (gaussian.fisher_ratio - 1.0).abs() < 1e-9);
}

/// A worker's grid scans, imported into another wasm instance (here: another thread, whose cache
/// and entry counts are its own), are found there for the same target: no scan is computed, and
/// the summary is the one the worker computed, bit for bit (its key covers every number, the
/// eigen-directions included). Fails when the import drops the directions or the fingerprint key.
#[test]
fn imported_grid_scans_replace_the_scan_bit_for_bit() {
    let build = || {
        let spec = sgviz::registry::target("hyperbola").unwrap();
        (spec.build)(&sgviz::params::ParamValues::defaults(spec.params), None).unwrap()
    };
    let scans = |counts: serde_json::Value| counts.get("curvature_scan").and_then(|v| v.as_u64()).unwrap_or(0);
    let (json, key) = std::thread::spawn(move || {
        let own = Curvature::of(build().as_ref()).unwrap();
        assert_eq!(own.source, CurvatureSource::GridScan);
        assert_eq!(scans(sgviz::entry_counts::to_json()), 1, "the worker scans once");
        (export_scans_json(), own.key())
    })
    .join()
    .unwrap();
    std::thread::spawn(move || {
        assert_eq!(import_scans_json(&json).unwrap(), 1);
        let imported = Curvature::of(build().as_ref()).unwrap();
        assert_eq!(scans(sgviz::entry_counts::to_json()), 0, "the page computes no scan");
        assert_eq!(imported.key(), key, "the worker's summary, bit for bit");
        assert_eq!(import_scans_json(&json).unwrap(), 0, "held already");
        assert!(import_scans_json("{").is_err());
    })
    .join()
    .unwrap();
}
