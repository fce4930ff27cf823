//! Every pairing the page offers of a discrete-time sampler (SGLD, SGFS-f, SGFS-d, SGHMC, OSGFS,
//! MALA, HMC) with a target of the registry, at the target-derived defaults (issues 11 and 12):
//! the chain is either refused with a message that says why and what to pick instead, or it runs
//! 200,000 steps (`make soak`, `SGVIZ_PAIRINGS=soak`; `make test` caps each pairing's gradient
//! budget, see [`steps_for`])
//! without diverging, and its mean and covariance are within a stated tolerance of the truth
//! (src/truth.rs: closed form, grid quadrature, or an exact MALA reference run for D > 2):
//!
//! - exact samplers (MALA, HMC): 4 Monte-Carlo standard errors (batch means) + the truth's error;
//! - stochastic-gradient samplers: in addition the bias their derived defaults promise
//!   (src/defaults.rs): every covariance entry within AXIS_BIAS·√(C_aa C_bb) — what a per-direction
//!   variance error of at most AXIS_BIAS implies by Cauchy–Schwarz — and every mean within
//!   AXIS_BIAS/2 posterior sds (the centre of the 2σ ellipse as close as its axes). Fixed before
//!   running, from the derivation's criteria, not from the outcomes.
//!
//! Monte-Carlo standard errors come from 50 batch means of the recorded series, after a burn-in of
//! 1 % of the steps (the chains start at the mode or the mean; this only drops the transient of
//! the first steps, the E2-after-5,000-samples claim of issue 12 has its own test).

use sgviz::chain::{Chain, ChainConfig, ChainStatus};
use sgviz::diagnostics::{batch_means_standard_error, integrated_autocorrelation_time, Moments};
use sgviz::registry::{self, SamplerKind};
mod common;
use common::{cached_rows, format_run, parse_run, reference_with, soak, Reference};

const SAMPLERS: &[&str] = &["sgld", "sgfs_f", "sgfs_d", "sghmc", "osgfs", "mala", "hmc"];
const STEPS: u64 = 200_000;
const BATCHES: usize = 50;
/// Monte-Carlo standard errors allowed on top of the promised bias.
const Z: f64 = 4.0;

/// Steps for one pairing: [`STEPS`] gradient steps (for HMC, leapfrog steps: STEPS/L proposals);
/// in `make test` capped at 10⁷ units of cost (see [`check_pairing`]) and at least 20,000 steps —
/// fewer steps only widen the Monte-Carlo part of the tolerance.
fn steps_for(cost_per_step: f64, leapfrog: f64) -> u64 {
    let full = (STEPS as f64 / leapfrog).ceil();
    if soak() {
        return full as u64;
    }
    (1e7 / cost_per_step.max(1.0)).clamp(20_000f64.min(full), full) as u64
}

/// Fewest effective samples (slowest coordinate) for a comparison to count: fewer and the
/// Monte-Carlo error estimates themselves are unreliable. `make test` reports such pairings as
/// left to `make soak`; there they fail.
const MIN_EFFECTIVE_SAMPLES: f64 = 20.0;

/// The bias the derived defaults promise, as README and docs/diagnostics.md state it (each
/// direction's variance within 25 %), written here rather than read from src/defaults.rs so that a
/// change of the code's constant cannot move the test with it.
const AXIS_BIAS: f64 = 0.25;

/// Depth of the valleys between separated modes, in nats below the peak (the 6 nats the module
/// doc names; written here, not read from src/curvature.rs).
const MODE_VALLEY: f64 = 6.0;

/// Pairings that mix too slowly for the capped budget of `make test` (fewer than
/// [`MIN_EFFECTIVE_SAMPLES`] in 20,000 steps, measured): `make soak` checks them in full, `make
/// test` only runs their smoke check ([`SMOKE_STEPS`]). Any other pairing that falls short fails,
/// so a sampler that stops mixing cannot pass unnoticed.
const SLOW_IN_MAKE_TEST: &[(&str, &str)] = &[
    ("logreg_dd", "sgld"),   // d = 21, ≈ 4 effective samples in 20,000 steps
    ("logreg_dd", "sgfs_d"), // ≈ 3
    ("logreg_dd", "osgfs"),  // ≈ 10
    ("logreg_dd", "mala"),   // ≈ 10
    ("mixture", "sgfs_d"),   // ≈ 11 in 34,482 steps
    // The real data sets (issue 21), in 20,000 steps:
    ("logreg[breast]", "sgld"),     // ≈ 7
    ("logreg[breast]", "sgfs_d"),   // ≈ 12
    ("logreg[breast]", "mala"),     // ≈ 13
    ("linreg[diabetes]", "sgld"),   // ≈ 16
    ("linreg[diabetes]", "sgfs_d"), // ≈ 8
    ("linreg[diabetes]", "mala"),   // ≈ 16
    ("linreg[diabetes]", "hmc"),    // ≈ 14 in 3,572 steps
];

/// Steps of a listed slow pairing in `make test` (issue 23, BENCHMARKS.md "CI time", fifth round).
/// What its 20,000-step run checked there besides the (deferred) comparison is the absence of a
/// divergence and, for MALA and HMC, an acceptance rate inside [0.2, 0.99]; both show within 2,000
/// steps. Acceptance: estimated from 2,000 proposals its standard error is at most
/// √(0.25 · τ / 2,000) ≈ 0.035 for an indicator autocorrelation time τ ≤ 10, so a derived step
/// accepting ≈ 0.57 stays > 10 errors inside the window, while one off by an order of magnitude
/// (acceptance near 0 or 1) falls outside. Divergence: the guard (src/chain) sits 10⁴ view widths
/// out (a logistic view is ±4.5 Laplace sds: ≈ 10⁵ sds, 10⁷ for a coordinate 100 times stiffer),
/// and an unstable step multiplies the distance to the mode by g > 1 per step, so it crosses the
/// guard within ln(10⁷)/ln g ≤ 2,000 steps for
/// g ≥ 1.008 (20,000 steps: g ≥ 1.0008). For a Langevin step x ← (1 − ελ/2)·x that is a step
/// ≥ 0.4 % beyond the stability limit 4/λ (before: ≥ 0.04 %); a growth that stops where the
/// curvature falls (logistic targets far from the mode) escapes both.
const SMOKE_STEPS: u64 = 2_000;

/// Pairings measured to be biased at their derived defaults with no warning yet (issue 21): each
/// must still FAIL its comparison here, so that the list is emptied when the cause is fixed. Empty:
/// SGFS-f on the held-out breast-cancer split (N = 456, ten collinear features; Var θ₃ 0.45
/// against 0.71 at the defaults derived on the Laplace precision) was listed until its defaults
/// were derived on the law with the empirical Fisher the sampler builds (docs/sgfs-osgfs.md §6).
const KNOWN_BIASED: &[(&str, &str)] = &[];

/// Squared Mahalanobis distance of `point` from a 2-D Gaussian summary.
fn distance(m: &Moments, point: &[f64]) -> f64 {
    let (c, d) = (&m.cov, [point[0] - m.mean[0], point[1] - m.mean[1]]);
    let det = c[0][0] * c[1][1] - c[0][1] * c[1][0];
    (c[1][1] * d[0] * d[0] - 2.0 * c[0][1] * d[0] * d[1] + c[0][0] * d[1] * d[1]) / det
}

/// The separated modes of a 2-D target, each with its own moments, by quadrature independent of
/// src/curvature.rs: the nodes of a 600² grid over the truth region within 6 nats of the peak
/// (MODE_VALLEY, 6 nats), in 4-connected components holding ≥ 5 % of the mass each; each
/// component's moments from the nodes it holds plus every node nearer to it than to another
/// component (the valleys' mass split by nearest node). The truth's error is the difference to
/// the same computation on a 300² grid (the h/2h comparison of src/truth.rs).
fn separated_modes(target: &str) -> Option<Vec<Reference>> {
    let spec = registry::target(target).unwrap();
    let model = (spec.build)(&sgviz::params::ParamValues::defaults(spec.params), None).unwrap();
    if model.dim() != 2 {
        return None;
    }
    let fine = modes_on_grid(model.as_ref(), 600)?;
    let coarse = modes_on_grid(model.as_ref(), 300)?;
    if fine.len() != coarse.len() {
        return None;
    }
    Some(
        fine.into_iter()
            .map(|m| {
                let c = coarse.iter().min_by(|x, y| distance(x, &m.mean).total_cmp(&distance(y, &m.mean))).unwrap();
                let means = m.mean.iter().zip(&c.mean).map(|(a, b)| (a - b).abs());
                let covs = m.cov.iter().flatten().zip(c.cov.iter().flatten()).map(|(a, b)| (a - b).abs());
                let error = means.chain(covs).fold(0.0, f64::max);
                Reference::uniform(m, error)
            })
            .collect(),
    )
}

fn modes_on_grid(model: &dyn sgviz::model::Model, intervals: usize) -> Option<Vec<Moments>> {
    let r = model.truth_region();
    let width = intervals + 1;
    let node = |k: usize| [r.x_min + (r.x_max - r.x_min) * (k % width) as f64 / intervals as f64, r.y_min + (r.y_max - r.y_min) * (k / width) as f64 / intervals as f64];
    let log_density: Vec<f64> = (0..width * width).map(|k| model.log_density(&node(k))).collect();
    let peak = log_density.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut label = vec![usize::MAX; width * width];
    let mut masses = Vec::new();
    for start in 0..width * width {
        if label[start] != usize::MAX || log_density[start] < peak - MODE_VALLEY {
            continue;
        }
        let id = masses.len();
        label[start] = id;
        let (mut stack, mut mass) = (vec![start], 0.0);
        while let Some(k) = stack.pop() {
            mass += (log_density[k] - peak).exp();
            let (a, b) = (k % width, k / width);
            for n in [(a > 0).then(|| k - 1), (a + 1 < width).then(|| k + 1), (b > 0).then(|| k - width), (b + 1 < width).then(|| k + width)].into_iter().flatten() {
                if label[n] == usize::MAX && log_density[n] >= peak - MODE_VALLEY {
                    label[n] = id;
                    stack.push(n);
                }
            }
        }
        masses.push(mass);
    }
    let total: f64 = log_density.iter().map(|v| (v - peak).exp()).sum();
    let big: Vec<usize> = (0..masses.len()).filter(|&i| masses[i] >= 0.05 * total).collect();
    if big.len() < 2 {
        return None;
    }
    // Assign every node to the nearest big component's node set via its members' centroid.
    let centroid = |id: usize| {
        let members: Vec<usize> = (0..width * width).filter(|&k| label[k] == id).collect();
        let w: f64 = members.iter().map(|&k| (log_density[k] - peak).exp()).sum();
        [0, 1].map(|j| members.iter().map(|&k| (log_density[k] - peak).exp() * node(k)[j]).sum::<f64>() / w)
    };
    let centres: Vec<[f64; 2]> = big.iter().map(|&id| centroid(id)).collect();
    let mut sums = vec![[0.0f64; 6]; big.len()];
    for k in 0..width * width {
        let p = node(k);
        let owner = match big.iter().position(|&id| id == label[k]) {
            Some(i) => i,
            None => (0..big.len()).min_by(|&i, &j| {
                let d = |c: [f64; 2]| (p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2);
                d(centres[i]).total_cmp(&d(centres[j]))
            })?,
        };
        let w = (log_density[k] - peak).exp();
        let s = &mut sums[owner];
        for (slot, v) in s.iter_mut().zip([w, w * p[0], w * p[1], w * p[0] * p[0], w * p[0] * p[1], w * p[1] * p[1]]) {
            *slot += v;
        }
    }
    Some(
        sums.into_iter()
            .map(|[w, x, y, xx, xy, yy]| {
                let (mx, my) = (x / w, y / w);
                let cxy = xy / w - mx * my;
                Moments { mean: vec![mx, my], cov: vec![vec![xx / w - mx * mx, cxy], vec![cxy, yy / w - my * my]] }
            })
            .collect(),
    )
}

/// Recorded states of one chain and their moments with batch-means standard errors. Each
/// coordinate's autocorrelation time is computed once ([`Record::coordinate_taus`]): the effective
/// sample size and the means' standard errors read the same numbers, and a covariance entry
/// centres on the plain means without their standard errors (issue 23: before, every covariance
/// entry recomputed both coordinates' errors and discarded them, three quarters of the test's CPU).
struct Record {
    dim: usize,
    points: Vec<f64>,
    taus: std::cell::OnceCell<Vec<f64>>,
}

impl Record {
    fn new(dim: usize, capacity: usize) -> Record {
        Record { dim, points: Vec::with_capacity(capacity), taus: std::cell::OnceCell::new() }
    }
    fn series(&self, f: impl Fn(&[f64]) -> f64) -> Vec<f64> {
        self.points.chunks(self.dim).map(f).collect()
    }
    /// The integrated autocorrelation time of each coordinate's series.
    fn coordinate_taus(&self) -> &[f64] {
        self.taus.get_or_init(|| (0..self.dim).map(|a| autocorrelation_time(&self.series(|p| p[a]))).collect())
    }
    fn plain_mean(&self, a: usize) -> f64 {
        let s = self.series(|p| p[a]);
        s.iter().sum::<f64>() / s.len() as f64
    }
    fn mean(&self, a: usize) -> (f64, f64) {
        let s = self.series(|p| p[a]);
        (s.iter().sum::<f64>() / s.len() as f64, standard_error_with(&s, self.coordinate_taus()[a]))
    }
    fn cov(&self, a: usize, b: usize) -> (f64, f64) {
        let (ma, mb) = (self.plain_mean(a), self.plain_mean(b));
        let s = self.series(|p| (p[a] - ma) * (p[b] - mb));
        (s.iter().sum::<f64>() / s.len() as f64, standard_error(&s))
    }
    /// The smallest effective sample size over the coordinates.
    fn effective_samples(&self) -> f64 {
        self.coordinate_taus().iter().map(|tau| self.points.len() as f64 / self.dim as f64 / tau).fold(f64::INFINITY, f64::min)
    }
}

/// Integrated autocorrelation time (Geyer's initial monotone sequence, src/diagnostics.rs) of the
/// series thinned to at most 20,000 points, times the thinning: O(20,000 · τ/thin).
fn autocorrelation_time(series: &[f64]) -> f64 {
    let thin = (series.len() / 20_000).max(1);
    let thinned: Vec<f64> = series.iter().step_by(thin).copied().collect();
    integrated_autocorrelation_time(&thinned) * thin as f64
}

/// Monte-Carlo standard error of a series' mean: the larger of 50 batch means and √(τ·var/T) —
/// batch means alone are too small when a batch is shorter than the autocorrelation time.
fn standard_error(series: &[f64]) -> f64 {
    standard_error_with(series, autocorrelation_time(series))
}

/// [`standard_error`] with the series' autocorrelation time `tau` already computed.
fn standard_error_with(series: &[f64], tau: f64) -> f64 {
    let n = series.len() as f64;
    let mean = series.iter().sum::<f64>() / n;
    let var = series.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    batch_means_standard_error(series, BATCHES).max((tau * var / n).sqrt())
}

/// The largest |error|/tolerance over the means and covariance entries, or the first entry out
/// of tolerance.
fn compare(record: &Record, truth: &Reference, promise: f64, steps: u64) -> Result<f64, String> {
    let t = &truth.moments;
    let mut worst = 0.0f64;
    for a in 0..record.dim {
        let (m, se) = record.mean(a);
        let tolerance = 0.5 * promise * t.cov[a][a].sqrt() + Z * se + truth.mean_error[a];
        worst = worst.max((m - t.mean[a]).abs() / tolerance);
        if (m - t.mean[a]).abs() > tolerance {
            return Err(format!("mean[{a}] = {m:.5} vs {:.5} (tolerance {tolerance:.5}, MCSE {se:.5}, {steps} steps)", t.mean[a]));
        }
        for b in a..record.dim {
            let (c, se) = record.cov(a, b);
            let tolerance = promise * (t.cov[a][a] * t.cov[b][b]).sqrt() + Z * se + truth.cov_error[a][b];
            worst = worst.max((c - t.cov[a][b]).abs() / tolerance);
            if (c - t.cov[a][b]).abs() > tolerance {
                return Err(format!("cov[{a}][{b}] = {c:.5} vs {:.5} (tolerance {tolerance:.5}, MCSE {se:.5}, {steps} steps)", t.cov[a][b]));
            }
        }
    }
    Ok(worst)
}

/// One pairing's outcome, for the failure message and the printed table.
enum Outcome {
    Refused(String),
    Checked { worst: f64, steps: u64, effective: f64, warning: Option<String> },
    /// Too few effective samples within `make test`'s budget: `make soak` checks it.
    Deferred { steps: u64, effective: f64 },
    /// A listed slow pairing in `make test`: its [`SMOKE_STEPS`] ran without a divergence (and, for
    /// MALA and HMC, with an acceptance inside the window); `make soak` compares it.
    Smoked { steps: u64 },
}

fn check_pairing(target: &str, settings: &[(&str, f64)], sampler: &str, slow: bool, truth: &Reference, modes: &std::cell::OnceCell<Option<Vec<Reference>>>) -> Result<Outcome, String> {
    let configure = |seed: u64| settings.iter().fold(ChainConfig::new(target, sampler, seed), |c, (name, value)| c.with(name, value));
    let probe = match Chain::new(&configure(1)) {
        Ok(chain) => chain,
        Err(message) => {
            let says_why = message.contains("cannot run on target") && message.contains(':');
            let lower = message.to_lowercase();
            let says_what = ["pick", "choose", "use "].iter().any(|w| lower.contains(w));
            return if says_why && says_what { Ok(Outcome::Refused(message)) } else { Err(format!("refused without saying why and what instead: {message}")) };
        }
    };
    let kind = probe.sampler_spec().kind;
    let leapfrog = probe.sampler_params().try_get("leapfrog_steps").unwrap_or(1.0);
    let per_step = probe.sampler_params().try_get("batch_size").map_or(probe.model().n_data() as f64, |n| n.min(probe.model().n_data() as f64)) * leapfrog;
    // Cost per step in units of a per-datum gradient of a 2-D target: the gradients, plus for the
    // Fisher-scoring samplers their D × D algebra (a few factorisations and eigen-decompositions).
    let dim = probe.model().dim() as f64;
    let algebra = if ["sgfs_f", "sgfs_d", "osgfs"].contains(&sampler) { 30.0 * dim.powi(3) } else { 0.0 };
    let smoke = slow && !soak();
    let budget = steps_for(per_step * dim / 2.0 + algebra, leapfrog);
    let steps = if smoke { budget.min(SMOKE_STEPS) } else { budget };
    let mut config = configure(11);
    config.burn_in = steps / 100;
    config.capacity = 1;
    let mut chain = Chain::new(&config).unwrap();
    let dim = chain.model().dim();
    let mut record = Record::new(dim, dim * steps as usize);
    chain.run_observed(steps, &mut |x| record.points.extend_from_slice(x));
    if let ChainStatus::Diverged(message) = chain.status() {
        return Err(format!("diverged: {message}"));
    }
    // The comparison's statistics need samples; the smoke compares nothing (OSGFS records only
    // after its burn-in detector fires: on logreg_dd after ≈ 1,230 of the 2,000 steps).
    if !smoke && record.points.len() < dim * 1000 {
        return Err(format!("only {} samples recorded in {steps} steps", record.points.len() / dim));
    }
    if kind == SamplerKind::Exact {
        // The derived steps aim at acceptance ≈ 0.57 (MALA) and ≈ 0.65 (HMC) where the stiffest
        // curvature sets them; a step off by orders of magnitude shows as acceptance near 0 or 1.
        // Where the curvature varies over the typical set (funnel, banana) the step must be small
        // enough for the stiffest region, so the chain accepts almost everything elsewhere:
        // there acceptance near 1 is expected, and is checked against ten times the step below.
        let acceptance = chain.diagnostics().iter().find(|d| d.name == "acceptance_rate").map_or(f64::NAN, |d| d.value);
        let curvature = sgviz::curvature::Curvature::of(chain.model()).expect("exact samplers run on targets with a curvature summary");
        let varies = curvature.lambda_max > 2.0 * curvature.precisions.last().copied().unwrap_or(f64::INFINITY);
        if !(0.2..=0.99).contains(&acceptance) && !(varies && acceptance >= 0.2) {
            return Err(format!("acceptance rate {acceptance:.3} at the derived step"));
        }
        // There (the funnel's derived MALA/HMC steps accept 0.996–0.997) a high acceptance alone
        // cannot tell a step set by the stiffest region from one orders of magnitude too small:
        // ten times the derived step must then be visibly too large (acceptance below 0.95).
        if varies && acceptance > 0.99 {
            let name = if sampler == "mala" { "mala_step" } else { "hmc_step" };
            let tenfold = 10.0 * chain.sampler_params().get(name);
            let mut wider = Chain::new(&configure(12).with(name, tenfold)).map_err(|e| format!("{name} = {tenfold}: {e}"))?;
            wider.run(steps / 10);
            let at_tenfold = wider.diagnostics().iter().find(|d| d.name == "acceptance_rate").map_or(f64::NAN, |d| d.value);
            if !(at_tenfold < 0.95) {
                return Err(format!("acceptance {acceptance:.3} at the derived step and still {at_tenfold:.3} at ten times it: the derived step is far too small"));
            }
        }
    }
    if smoke {
        return Ok(Outcome::Smoked { steps });
    }
    let effective = record.effective_samples();
    if effective < MIN_EFFECTIVE_SAMPLES {
        return if soak() {
            Err(format!("does not mix within {steps} steps: {effective:.0} effective samples"))
        } else {
            Ok(Outcome::Deferred { steps, effective })
        };
    }
    let promise = if kind == SamplerKind::Exact { 0.0 } else { AXIS_BIAS };
    let worst = match compare(&record, truth, promise, steps) {
        Ok(worst) => worst,
        // On a target with separated modes every pairing warns that a chain rarely crosses
        // between them: then the moments of the mode the chain is in must be right.
        Err(whole) => {
            let Some(modes) = modes.get_or_init(|| separated_modes(target)) else { return Err(whole) };
            let warning = chain.warning().unwrap_or_default();
            if !warning.contains("modes") {
                return Err(format!("{whole}; separated modes but no warning saying so: {warning:?}"));
            }
            let means: Vec<f64> = (0..dim).map(|a| record.plain_mean(a)).collect();
            let mode = modes.iter().min_by(|x, y| distance(&x.moments, &means).total_cmp(&distance(&y.moments, &means))).unwrap();
            compare(&record, mode, promise, steps).map_err(|e| format!("{whole}; nor the mode it is in: {e}"))?
        }
    };
    Ok(Outcome::Checked { worst, steps, effective, warning: chain.warning().map(str::to_string) })
}

fn check_target(target: &'static str) {
    check_target_with(target, target, &[]);
}

/// [`check_target`] on `target` with some of its parameters set (a real data set); `label` names it
/// in the output and in [`KNOWN_BIASED`].
fn check_target_with(label: &'static str, target: &str, settings: &[(&str, f64)]) {
    let truth = reference_with(target, settings);
    let modes = std::cell::OnceCell::new();
    let mut failures = Vec::new();
    for sampler in SAMPLERS {
        let started = std::time::Instant::now();
        let outcome = check_pairing(target, settings, sampler, SLOW_IN_MAKE_TEST.contains(&(label, *sampler)), &truth, &modes);
        print!("[{:5.1} s] ", started.elapsed().as_secs_f64());
        match outcome {
            Ok(Outcome::Refused(message)) => println!("{label:16} {sampler:7} refused: {message}"),
            Ok(Outcome::Checked { .. }) if KNOWN_BIASED.contains(&(label, *sampler)) => {
                failures.push(format!("{sampler} on {label} is listed in KNOWN_BIASED but now passes: take it off the list"));
            }
            Ok(Outcome::Checked { worst, steps, effective, warning }) => {
                println!("{label:16} {sampler:7} ok: worst |error|/tolerance {worst:.2} in {steps} steps, ESS {effective:.0}{}", if warning.is_some() { " (warned)" } else { "" })
            }
            Ok(Outcome::Smoked { steps }) => println!("{label:16} {sampler:7} left to make soak: {steps} steps without a divergence{}", if ["mala", "hmc"].contains(sampler) { ", acceptance inside [0.2, 0.99]" } else { "" }),
            Ok(Outcome::Deferred { steps, effective }) if SLOW_IN_MAKE_TEST.contains(&(label, *sampler)) => {
                println!("{label:16} {sampler:7} left to make soak: {effective:.0} effective samples in {steps} steps")
            }
            Ok(Outcome::Deferred { steps, effective }) => {
                println!("{label:16} {sampler:7} FAILED: only {effective:.0} effective samples in {steps} steps");
                failures.push(format!("{sampler} on {label}: only {effective:.0} effective samples in {steps} steps, and it is not listed as slow"));
            }
            Err(message) if KNOWN_BIASED.contains(&(label, *sampler)) => {
                println!("{label:16} {sampler:7} known bias (issue 21): {message}");
            }
            Err(message) => {
                println!("{label:16} {sampler:7} FAILED: {message}");
                failures.push(format!("{sampler} on {label}: {message}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gaussian() {
    check_target("gaussian");
}
#[test]
fn mixture() {
    check_target("mixture");
}
#[test]
fn banana() {
    check_target("banana");
}
#[test]
fn hyperbola() {
    check_target("hyperbola");
}
#[test]
fn multimodal() {
    check_target("multimodal");
}
#[test]
fn funnel() {
    check_target("funnel");
}
#[test]
fn logreg() {
    check_target("logreg");
}
#[test]
fn logreg_dd() {
    check_target("logreg_dd");
}
#[test]
fn logreg_sgfs() {
    check_target("logreg_sgfs");
}
#[test]
fn linreg() {
    check_target("linreg");
}
#[test]
fn logreg_heldout() {
    check_target("logreg_heldout");
}

/// The real data sets the page offers on `logreg` and `linreg` (issue 21), at their defaults
/// otherwise: breast cancer (first 4 features, standardised, σ_p = 10), digits 7-vs-9 projected on 5
/// seeded directions, diabetes (442 × 10, standardised).
#[test]
fn logreg_breast_cancer() {
    check_target_with("logreg[breast]", "logreg", &[("dataset", 1.0)]);
}
#[test]
fn logreg_digits() {
    check_target_with("logreg[digits]", "logreg", &[("dataset", 2.0)]);
}
#[test]
fn linreg_diabetes() {
    check_target_with("linreg[diabetes]", "linreg", &[("dataset", 1.0)]);
}

#[test]
fn every_registered_target_and_discrete_time_sampler_is_covered() {
    let tested = ["gaussian", "mixture", "banana", "hyperbola", "multimodal", "funnel", "logreg", "logreg_dd", "logreg_sgfs", "linreg", "logreg_heldout"];
    for t in registry::TARGETS {
        assert!(tested.contains(&t.name), "target {} has no pairing test", t.name);
    }
    for s in registry::SAMPLERS.iter().filter(|s| s.kind != SamplerKind::Bouncy) {
        assert!(SAMPLERS.contains(&s.name), "sampler {} has no pairing test", s.name);
    }
}

/// The shared reference runs (tests/common/mod.rs) are read back from their file bit for bit:
/// a cached run must give exactly the numbers the run gives.
#[test]
fn a_reference_run_read_back_from_its_file_is_bit_identical() {
    let awkward = [0.1 + 0.2, 1e-300, -3.141592653589793e10, f64::MIN_POSITIVE, 2.0f64.sqrt(), -0.0];
    let moments = Moments { mean: awkward[..3].to_vec(), cov: vec![awkward[3..].to_vec(), awkward[..3].to_vec(), awkward[1..4].to_vec()] };
    let run = (moments, awkward[2..5].to_vec(), awkward[..3].iter().map(|x| x / 3.0).collect());
    let back = parse_run(&format_run(&run)).expect("the written file parses");
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&back.0.mean), bits(&run.0.mean));
    for (a, b) in back.0.cov.iter().zip(&run.0.cov) {
        assert_eq!(bits(a), bits(b));
    }
    assert_eq!((bits(&back.1), bits(&back.2)), (bits(&run.1), bits(&run.2)));
    // A truncated or foreign file is not read (the run is then computed again).
    assert!(parse_run("1 2\n3\n").is_none());
}

/// [`cached_rows`] (tests/common/mod.rs) computes rows once per test binary and reads them back
/// from its file bit for bit: a second call with the same key does not compute (here it would
/// panic) and gives the same numbers, rows of any lengths.
#[test]
fn rows_cached_for_other_test_processes_are_read_back_without_computing() {
    let rows = vec![vec![0.1 + 0.2, -0.0, 1e-300], vec![2.0f64.sqrt()], vec![-3.141592653589793e10, f64::MIN_POSITIVE]];
    let bits = |r: &[Vec<f64>]| r.iter().map(|row| row.iter().map(|x| x.to_bits()).collect::<Vec<_>>()).collect::<Vec<_>>();
    let first = cached_rows("cached-rows-self-test", || rows.clone());
    let second = cached_rows("cached-rows-self-test", || panic!("computed again although the file was written"));
    assert_eq!(bits(&first), bits(&rows));
    assert_eq!(bits(&second), bits(&rows));
}
