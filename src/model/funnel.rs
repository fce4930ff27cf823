//! Neal's funnel (Neal 2003, "Slice sampling", §8), in two dimensions: v ~ N(0, σ_v²) and
//! x | v ~ N(0, e^v). The scale of x changes by orders of magnitude along v, so no single step size
//! suits both the neck and the mouth: the classic stress test for step sizes.
//! Coordinates are ordered (v, x). Closed-form moments: E = 0, Var v = σ_v², Var x = E[e^v] =
//! e^{σ_v²/2}, Cov = 0. No data: N pseudo-data and the synthetic noise knob (docs/README.md, Notation).

use super::toy::{PseudoData, ToyDensity};
use super::View;
use crate::diagnostics::Moments;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("funnel_sd", "Neck scale", "σ_v", "Std. dev. of the log-variance coordinate v ~ N(0, σ_v²)", 0.3, 3.0, 1.0).primary(),
    super::GRAD_NOISE,
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "funnel",
    label: "Neal's funnel",
    description: "v ~ N(0, σ_v²), x | v ~ N(0, e^v): scales that differ by orders of magnitude; closed-form moments",
    kind: TargetKind::Toy,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("funnel", data)?;
        Ok(Box::new(Funnel::model(values)))
    },
};

#[derive(Clone, Debug)]
pub struct Funnel {
    neck_sd: f64,
}

impl Funnel {
    pub fn new(neck_sd: f64) -> Self {
        Funnel { neck_sd }
    }
    pub fn model(values: &ParamValues) -> PseudoData<Funnel> {
        PseudoData { density: Funnel::new(values.get("funnel_sd")), noise_sd: values.get("grad_noise") }
    }
}

impl ToyDensity for Funnel {
    /// Normalised: log N(v; 0, σ_v²) + log N(x; 0, e^v).
    fn log_pdf(&self, theta: &[f64]) -> f64 {
        let (v, x) = (theta[0], theta[1]);
        let s2 = self.neck_sd * self.neck_sd;
        -0.5 * v * v / s2 - 0.5 * x * x * (-v).exp() - 0.5 * v - (2.0 * std::f64::consts::PI).ln() - self.neck_sd.ln()
    }
    fn grad_log_pdf(&self, theta: &[f64]) -> [f64; 2] {
        let (v, x) = (theta[0], theta[1]);
        let s2 = self.neck_sd * self.neck_sd;
        let inv_var_x = (-v).exp();
        [-v / s2 + 0.5 * x * x * inv_var_x - 0.5, -x * inv_var_x]
    }
    /// r = (v/σ_v, x e^{−v/2}): log π = −½‖r‖² − v/2 + const.
    fn residuals(&self, theta: &[f64]) -> [f64; 2] {
        [theta[0] / self.neck_sd, theta[1] * (-0.5 * theta[0]).exp()]
    }
    fn residual_jacobian(&self, theta: &[f64]) -> [[f64; 2]; 2] {
        let e = (-0.5 * theta[0]).exp();
        [[1.0 / self.neck_sd, 0.0], [-0.5 * theta[1] * e, e]]
    }
    fn moments(&self) -> Option<Moments> {
        let s2 = self.neck_sd * self.neck_sd;
        Some(Moments { mean: vec![0.0, 0.0], cov: vec![vec![s2, 0.0], vec![0.0, (0.5 * s2).exp()]] })
    }
    fn window(&self) -> View {
        let s = self.neck_sd;
        // v within ±3σ_v; x within the 2.5-sd band of the widest part shown.
        let half_x = 2.5 * (1.5 * s).exp();
        View { x_min: -3.0 * s, x_max: 3.0 * s, y_min: -half_x, y_max: half_x }
    }
    /// v: N(0, σ_v²) exactly. x: p(x) = ∫ N(x; 0, e^v) N(v; 0, σ_v²) dv by the trapezoid rule
    /// on v ∈ ±10σ_v with 4000 intervals (the integrand is smooth in v; error far below plotting).
    fn marginal(&self, coordinate: usize, points: &[f64]) -> Option<Vec<f64>> {
        let s = self.neck_sd;
        if coordinate == 0 {
            return Some(super::toy::normal_density(0.0, s, points));
        }
        let intervals = 4000;
        let h = 20.0 * s / intervals as f64;
        let vs: Vec<f64> = (0..=intervals).map(|k| -10.0 * s + k as f64 * h).collect();
        let weights: Vec<f64> = vs.iter().enumerate().map(|(k, v)| {
            let end = if k == 0 || k == intervals { 0.5 } else { 1.0 };
            end * h * (-0.5 * v * v / (s * s)).exp() / (s * (2.0 * std::f64::consts::PI).sqrt())
        }).collect();
        Some(points.iter().map(|x| {
            vs.iter().zip(&weights).map(|(v, w)| w * (-0.5 * x * x * (-v).exp() - 0.5 * v).exp() / (2.0 * std::f64::consts::PI).sqrt()).sum()
        }).collect())
    }
    fn names(&self) -> Vec<String> {
        vec!["v".into(), "x".into()]
    }
}
