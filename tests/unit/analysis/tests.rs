//! Unit tests of src/analysis.rs (`analysis::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::chain::{Chain, ChainConfig};
use sgviz::plot::chart::ChartSpec;
use sgviz::analysis::*;

#[test]
fn analysis_of_an_exact_sampler_sweeps_its_own_knob_and_has_no_noise_picture() {
    let config = ChainConfig::new("gaussian", "mala", 1);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(500);
    let truth = chain.model().exact_moments().unwrap();
    let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
    assert_eq!(analysis.sweep.curves().len(), 1);
    assert_eq!(analysis.sweep.curves()[0].param, "mala_step");
    while analysis.advance(50_000) < 1.0 {}
    assert!(analysis.is_done());
    let noise = analysis.chart("noise").unwrap();
    assert!(noise.series.is_empty() && noise.title.contains("exact gradients"), "{}", noise.title);
}

#[test]
fn a_bouncy_sampler_shows_its_own_knobs_instead_of_sgld() {
    // Issues 21 and 26: SBPS's charts are over its minibatch n and band k (docs/bouncy.md §15),
    // never SGLD's ε, and never an empty "no step size" note.
    let config = ChainConfig::new("gaussian", "sbps", 1);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(200);
    let truth = chain.model().exact_moments().unwrap();
    let mut analysis = Analysis::with_events(&config, &chain, truth, 20_000, 1_000).unwrap();
    while analysis.advance(100_000) < 1.0 {}
    for kind in ["noise", "bias", "sweep"] {
        let spec = analysis.chart(kind).unwrap();
        assert!(!spec.series.is_empty() && spec.title.starts_with("SBPS: ") && !spec.title.contains("SGLD") && !spec.x_label.contains('ε'), "{kind}: {}", spec.title);
    }
}

/// SGFS-f on the ρ = 0.9 Gaussian at noise level `alpha`, its sweep run to the end.
fn sgfs_analysis(alpha: f64) -> Analysis {
    let config = ChainConfig::new("gaussian", "sgfs_f", 1).with("rho", 0.9).with("sgfs_alpha", alpha).with("batch_size", 10);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(300);
    let truth = chain.model().exact_moments().unwrap();
    let mut analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
    while analysis.advance(100_000) < 1.0 {}
    analysis
}

fn marker<'a>(spec: &'a ChartSpec, prefix: &str) -> &'a sgviz::plot::chart::Marker {
    spec.markers.iter().find(|m| m.label.starts_with(prefix)).unwrap_or_else(|| panic!("no marker '{prefix}' in {:?}", spec.markers))
}

/// The SGFS class: moving α left SGLD's ε charts unchanged. Now the noise and bias
/// charts are over α, mark the current α, and the measured points follow it.
#[test]
fn sgfs_noise_and_bias_charts_are_over_alpha_and_follow_it() {
    let (low, high) = (sgfs_analysis(0.0), sgfs_analysis(3.0));
    for (analysis, alpha) in [(&low, 0.0), (&high, 3.0)] {
        let noise = analysis.chart("noise").unwrap();
        assert_eq!(noise.x_label, "α");
        assert_eq!(marker(&noise, "current α").x, alpha);
        let bias = analysis.chart("bias").unwrap();
        assert_eq!(bias.x_label, "α");
        assert_eq!(marker(&bias, "current α").x, alpha);
        assert!(bias.series.iter().all(|s| !s.label.contains("MH rejection")), "SGFS has no Langevin MH curve");
        let (lo, hi) = bias.x_range.unwrap();
        for s in bias.series.iter().chain(&analysis.chart("noise").unwrap().series) {
            assert!(s.points.iter().all(|p| p.0 >= lo && p.0 <= hi), "{}: {:?} outside [{lo}, {hi}]", s.label, s.points);
        }
    }
    // α = 0 injects nothing: the ratio at the marker is infinite; α = 3 injects.
    assert!(marker(&low.chart("noise").unwrap(), "current α").label.contains("∞"));
    assert!(!marker(&high.chart("noise").unwrap(), "current α").label.contains("∞"));
    // The measured sweep points are centred on each α.
    let xs = |a: &Analysis| series(&a.chart("bias").unwrap(), "measured").points.iter().map(|p| p.0).collect::<Vec<_>>();
    assert!(xs(&low).contains(&0.0) && !xs(&low).contains(&5.0), "{:?}", xs(&low));
    assert!(xs(&high).contains(&3.0) && xs(&high).contains(&5.0), "{:?}", xs(&high));
    // Larger α, smaller steps: the injected noise's share grows with α (h²α²γ against h²).
    let noise = high.chart("noise").unwrap();
    let (injected, gradient) = (&series(&noise, "injected").points, &series(&noise, "gradient").points);
    let ratio_at = |k: usize| gradient.iter().find(|g| g.0 == injected[k].0).unwrap().1 / injected[k].1;
    assert!(ratio_at(5) > ratio_at(50), "gradient/injected must fall with α");
}

#[test]
fn sghmc_charts_are_over_eta() {
    let config = ChainConfig::new("gaussian", "sghmc", 1).with("batch_size", 10);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(300);
    let truth = chain.model().exact_moments().unwrap();
    let analysis = Analysis::new(&config, &chain, truth, 20_000).unwrap();
    for kind in ["noise", "bias"] {
        let spec = analysis.chart(kind).unwrap();
        assert_eq!(spec.x_label, "η", "{kind}");
        assert!(spec.log_x);
    }
}

/// With the polynomial schedule the noise chart is over the run's iterations (docs/sgld.md §6),
/// spanning b(100^(1/γ) − 1) = 10 · 99 = 990 iterations at b = 10, γ = 1; with a
/// constant step it stays over ε.
#[test]
fn sgld_noise_chart_is_over_iterations_with_the_polynomial_schedule() {
    let spec = scheduled_sgld_analysis().chart("noise").unwrap();
    assert_eq!(spec.x_label, "iteration t");
    let injected = &series(&spec, "injected").points;
    assert!((injected.last().unwrap().0 - 990.0).abs() < 1e-9, "{:?}", injected.last());
    assert!((injected[0].1 - 0.1 / 11.0).abs() < 1e-12, "ε_1 = 0.1/11: {:?}", injected[0]);
    assert_eq!(sgld_gaussian_analysis().chart("noise").unwrap().x_label, "step size ε");
}

/// The bias chart follows the schedule (a = 0.1, b = 10, γ = 1: ε_0 = 0.01, ε = 10⁻⁴ at the
/// span end t = 990): no constant "current ε" that the run ignores.
#[test]
fn sgld_bias_chart_marks_the_schedule_span_not_a_constant_step() {
    let spec = scheduled_sgld_analysis().chart("bias").unwrap();
    let xs: Vec<f64> = spec.markers.iter().map(|m| m.x).collect();
    assert_eq!(xs.len(), 2, "{:?}", spec.markers);
    assert!((xs[0] - 0.01).abs() < 1e-12 && (xs[1] - 1e-4).abs() < 1e-12, "{xs:?}");
    assert!(spec.markers.iter().all(|m| !m.label.contains("current")), "{:?}", spec.markers);
}

/// SGLD on the ρ = 0.9 Gaussian at its derived defaults: the analysis the page starts.
/// SGLD on the Gaussian under the polynomial schedule a = 0.1, b = 10, γ = 1 (minibatch 10),
/// after 300 steps: the chain both schedule tests read.
fn scheduled_sgld_analysis() -> Analysis {
    let config = ChainConfig::new("gaussian", "sgld", 1).with("batch_size", 10).with("sgld_schedule", 1).with("sgld_a", 0.1).with("sgld_b", 10).with("sgld_gamma", 1);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(300);
    let truth = chain.model().exact_moments().unwrap();
    Analysis::new(&config, &chain, truth, 20_000).unwrap()
}

fn sgld_gaussian_analysis() -> Analysis {
    let config = ChainConfig::new("gaussian", "sgld", 1).with("rho", 0.9);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(500);
    let truth = chain.model().exact_moments().unwrap();
    let started = std::time::Instant::now();
    let analysis = Analysis::new(&config, &chain, truth, 200_000).unwrap();
    eprintln!("Analysis::new (predictions included): {:?}", started.elapsed());
    analysis
}

fn series<'a>(spec: &'a ChartSpec, label: &str) -> &'a sgviz::plot::chart::Series {
    spec.series.iter().find(|s| s.label.starts_with(label)).unwrap_or_else(|| panic!("no series '{label}' in {:?}", spec.series.iter().map(|s| &s.label).collect::<Vec<_>>()))
}

#[test]
fn bias_chart_separates_a_bias_rising_with_the_step_from_a_monte_carlo_error_falling_with_it() {
    let analysis = sgld_gaussian_analysis();
    let spec = analysis.chart("bias").unwrap();
    let bias = &series(&spec, "bias of the sampler's law").points;
    assert!(bias.len() >= 20, "{bias:?}");
    assert!(bias.windows(2).all(|w| w[1].1 > w[0].1), "bias must rise with ε: {bias:?}");
    // Up to ε = 2/λ_max (λ_max = 1/(1 − ρ) = 10) every direction's factor 1 − ελ/2 stays ≥ 0;
    // beyond it the short axis oscillates towards the stability limit 4/λ_max and mixes worse.
    let mc: Vec<(f64, f64)> = series(&spec, "Monte Carlo error").points.iter().copied().filter(|p| p.0 <= 0.2).collect();
    assert!(mc.len() >= 6 && mc.windows(2).all(|w| w[1].1 < w[0].1), "Monte Carlo error must fall with ε: {mc:?}");
    // At the largest stable ε bias dominates, at the smallest the Monte Carlo error does.
    assert!(bias.last().unwrap().1 > mc.last().unwrap().1 && bias[0].1 < mc[0].1, "{bias:?} {mc:?}");
    let rejection = &analysis.rejection;
    assert!(rejection.first().unwrap().1 < rejection.last().unwrap().1, "{rejection:?}");
}

#[test]
fn tradeoff_curves_cross_small_steps_win_large_budgets() {
    let analysis = sgld_gaussian_analysis();
    let spec = analysis.chart("sweep").unwrap();
    let curves: Vec<_> = spec.series.iter().filter(|s| s.label.ends_with("(predicted)")).collect();
    assert!((3..=7).contains(&curves.len()), "{:?}", spec.series.iter().map(|s| &s.label).collect::<Vec<_>>());
    let best = |index: fn(&[(f64, f64)]) -> (f64, f64)| curves.iter().enumerate().min_by(|a, b| index(&a.1.points).1.total_cmp(&index(&b.1.points).1)).unwrap().0;
    let (at_small, at_large) = (best(|p| p[0]), best(|p| *p.last().unwrap()));
    // Curves are in increasing ε: the largest wins at the smallest budget, the smallest at the largest.
    assert_eq!(at_small, curves.len() - 1, "largest ε should win at a small budget");
    assert_eq!(at_large, 0, "smallest ε should win at a large budget");
    assert!(curves.iter().all(|c| c.point_labels.first().is_some_and(|l| l.starts_with("ε = "))));
}

/// The SGLD Fig. 1–2 presets' run (tied-means mixture, n = 1, ε_t = a(b + t)^−0.55 with
/// a = 0.323, b = 554.5: ε from 0.01) and its analysis at the page's budget, run to the end.
fn preset_schedule_analysis() -> Analysis {
    let config = ChainConfig::new("mixture", "sgld", 1).with("batch_size", 1).with("sgld_schedule", 1).with("sgld_a", 0.323).with("sgld_b", 554.5).with("sgld_gamma", 0.55);
    let mut chain = Chain::new(&config).unwrap();
    chain.run(300);
    let truth = sgviz::truth::truth_for(chain.model()).moments.unwrap();
    let mut analysis = Analysis::new(&config, &chain, truth, 200_000).unwrap();
    while analysis.advance(1_000_000) < 1.0 {}
    analysis
}

/// Issue 26: under the schedule every sweep chain ran the same schedule (ε ignored), so the
/// trade-off chart stacked identical points at one budget. Now the sweep varies a inside its
/// slider's stable range and the chart is error against ESS per 1,000 gradients (SGFS Fig. 2):
/// from the current a up, larger steps mix faster and carry more bias (docs/sgld.md §8).
#[test]
fn schedule_sweep_varies_a_larger_steps_mix_faster_and_are_more_biased() {
    let analysis = preset_schedule_analysis();
    let spec = analysis.chart("sweep").unwrap();
    assert_eq!(spec.x_label, "ESS per 1,000 gradient evaluations");
    let runs = &spec.series[0];
    let a: Vec<f64> = runs.point_labels.iter().map(|l| l.trim_start_matches("a = ").parse().unwrap()).collect();
    assert!(a.len() == 5 && a.windows(2).all(|w| w[1] > w[0]), "five distinct a, in order: {:?}", runs.point_labels);
    // Every a is on the slider and its first step ε_0 = a·b^−0.55 stays below the step
    // slider's shaded (unstable) end, 4/λ_max.
    let chain = Chain::new(&ChainConfig::new("mixture", "sgld", 1).with("batch_size", 1).with("sgld_schedule", 1).with("sgld_b", 554.5)).unwrap();
    let slider = |name: &str| chain.derived().iter().find(|d| d.name == name).cloned().unwrap();
    let unstable = slider("step_size").unstable_above.unwrap();
    assert!(a.iter().all(|&v| v >= slider("sgld_a").min && v * 554.5f64.powf(-0.55) <= unstable * (1.0 + 1e-9)), "{a:?} vs ε_0 ≤ {unstable}");
    let current = a.iter().position(|&v| (v - 0.323).abs() < 1e-3).expect("the current a is swept");
    // From the current a up: faster mixing (ESS per 1,000 gradients rises at each step) and more
    // error: the largest a's error exceeds the current one's by more than the one-sided 95 %
    // bound of their difference, 1.645·√(MCSE₁² + MCSE₂²) (DIAG.3's MCSEs).
    let (p, se) = (&runs.points, &runs.error_bars);
    assert!(p[current..].windows(2).all(|w| w[1].0 > w[0].0), "ESS per 1,000 gradients must rise with a: {p:?}");
    let last = p.len() - 1;
    let margin = 1.645 * (se[current].powi(2) + se[last].powi(2)).sqrt();
    assert!(p[last].1 - p[current].1 > margin, "larger steps, more bias: {:?} vs {:?} (± {margin})", p[last], p[current]);
    // Below it the chain has not crossed between the modes in the budget: a larger error.
    assert!(p[0].1 - p[current].1 > 1.645 * (se[0].powi(2) + se[current].powi(2)).sqrt(), "{p:?}");
    // The bias chart puts each run at its first step ε_0 = a·b^−0.55, inside the chart's range.
    let bias = analysis.chart("bias").unwrap();
    let xs: Vec<f64> = series(&bias, "bias estimate").points.iter().map(|q| q.0).collect();
    for (x, v) in xs.iter().zip(&a) {
        assert!((x / (v * 554.5f64.powf(-0.55)) - 1.0).abs() < 5e-3, "{xs:?} vs {a:?} (labels: 3 digits)");
    }
}

/// Issue 26 (SGFS Fig. 2 preset, α = 1 on [0, 6]): the trade-off chart drew predicted curves at
/// α = 0…3 and measured points at α = 0…4, a point without its curve. Every measured point's
/// label must name a predicted curve, for a linear knob (SGFS's α) and a log one (SGLD's ε).
#[test]
fn every_measured_tradeoff_point_has_its_predicted_curve() {
    let mut sgld = sgld_gaussian_analysis();
    while sgld.advance(1_000_000) < 1.0 {}
    for analysis in [sgfs_analysis(1.0), sgld] {
        let spec = analysis.chart("sweep").unwrap();
        let curves: Vec<String> = spec.series.iter().filter_map(|s| s.label.strip_suffix(" (predicted)").map(str::to_string)).collect();
        let measured = series(&spec, "measured");
        assert!(measured.points.len() >= 3, "{:?}", measured.point_labels);
        for label in &measured.point_labels {
            assert!(curves.contains(label), "measured point '{label}' has no predicted curve among {curves:?}");
        }
    }
}
