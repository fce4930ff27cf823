//! The knob the analysis charts vary: the running sampler's own main parameter (SGLD's step ε,
//! SGFS's noise level α, SGHMC's learning rate η, OSGFS's cap c, MALA's step, …) with the range of
//! its slider on this target, so that every sweep and chart point is a setting the student can
//! reach. The bouncy samplers have no such knob.

use crate::chain::Chain;
use crate::params::main_knob;
use crate::phase::log_grid;
use crate::spec::SamplerKind;

/// Points of a sweep curve (odd, so the current value is the middle one).
pub const SWEEP_POINTS: usize = 7;
/// SGLD's charts span this factor either side of the current ε (within the slider's range).
const SGLD_WINDOW: f64 = 100.0;

/// A sampler's main knob on the current target.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    pub sampler: &'static str,
    pub param: &'static str,
    /// The paper's symbol shown on the charts ("ε", "α", "η", …).
    pub symbol: &'static str,
    pub log_scale: bool,
    /// The slider's range on this target (the derived range where the core derives one), widened
    /// to contain the current value.
    pub range: (f64, f64),
    pub value: f64,
}

impl Knob {
    /// The running sampler's knob; None for the bouncy samplers (no step size to vary).
    pub fn of(chain: &Chain) -> Option<Knob> {
        let spec = chain.sampler_spec();
        if spec.kind == SamplerKind::Bouncy {
            return None;
        }
        let param = main_knob(spec.params)?;
        let value = chain.sampler_params().get(param.name);
        let (lo, hi) = chain.derived().iter().find(|d| d.name == param.name).map_or((param.min, param.max), |d| (d.min, d.max));
        let (mut lo, mut hi) = (lo.min(value), hi.max(value));
        if spec.name == "sgld" {
            lo = lo.max(value / SGLD_WINDOW);
            hi = hi.min(value * SGLD_WINDOW);
        }
        Some(Knob { sampler: spec.name, param: param.name, symbol: param.symbol, log_scale: param.log_scale, range: (lo, hi), value })
    }

    /// Under SGLD's polynomial schedule ε_t = a(b + t)^(−γ) (SGLD.3) the chain ignores ε: the knob
    /// the sweep varies is the schedule's scale a, over its slider's range up to where ε_0 = a·b^(−γ)
    /// reaches the stability limit 4/λ_max (the slider's shaded end). None otherwise.
    pub fn schedule_scale(chain: &Chain) -> Option<Knob> {
        let params = chain.sampler_params();
        if chain.sampler_spec().name != "sgld" || params.try_get("sgld_schedule") != Some(1.0) {
            return None;
        }
        let spec = chain.sampler_spec().params.iter().find(|p| p.name == "sgld_a")?;
        let value = params.get("sgld_a");
        let derived = chain.derived().iter().find(|d| d.name == "sgld_a");
        let (lo, hi) = derived.map_or((spec.min, spec.max), |d| (d.min, d.unstable_above.unwrap_or(d.max).min(d.max)));
        Some(Knob { sampler: "sgld", param: "sgld_a", symbol: spec.symbol, log_scale: true, range: (lo.min(value), hi.max(value)), value })
    }

    /// The schedule sweep's values: a × 3^k, k = −2 … 2, inside the range (the ends clamped to it).
    pub fn schedule_sweep_values(&self) -> Vec<f64> {
        let mut values: Vec<f64> = (-2..=2).map(|k| (self.value * 3f64.powi(k)).clamp(self.range.0, self.range.1)).collect();
        values.dedup();
        values
    }

    /// `count` values spread over the range, log-spaced for a log-scale knob.
    pub fn grid(&self, count: usize) -> Vec<f64> {
        let (lo, hi) = self.range;
        if self.log_scale {
            log_grid(lo, hi, count)
        } else {
            (0..count).map(|k| lo + (hi - lo) * k as f64 / (count - 1).max(1) as f64).collect()
        }
    }

    /// Sweep values with the current value in the middle: log-spaced over a factor 30 either side
    /// for log-scale knobs, steps of max(1, |value|/3) otherwise; clamped to the range. One list:
    /// the sweep measures at these values and the trade-off chart draws its predicted curves at the
    /// same ones, so every measured point has its curve (issue 26: SGFS at α = 1 was measured at
    /// α = 0…4 and predicted at α = 0…3).
    pub fn sweep_values(&self) -> Vec<f64> {
        let half = (SWEEP_POINTS / 2) as f64;
        let mut values: Vec<f64> = (0..SWEEP_POINTS)
            .map(|k| {
                let offset = k as f64 - half;
                let v = if self.log_scale { self.value * 30f64.powf(offset / half) } else { self.value + offset * self.linear_step() };
                v.clamp(self.range.0, self.range.1)
            })
            .collect();
        values.dedup();
        values
    }

    fn linear_step(&self) -> f64 {
        (self.value.abs() / 3.0).max(1.0).min((self.range.1 - self.range.0) / 4.0)
    }
}
