//! Banana (Haario, Saksman & Tamminen 1999 "twisted Gaussian"): θ₁ ~ N(0, a²) and
//! θ₂ | θ₁ ~ N(b(θ₁² − a²), 1). A curved, strongly non-Gaussian ridge whose bend grows with the
//! curvature b. Closed-form moments: E θ = 0, Var θ₁ = a², Var θ₂ = 1 + 2b²a⁴, Cov(θ₁, θ₂) =
//! b E[θ₁³] = 0 — uncorrelated yet far from independent, which is the lesson of this target.
//! No data: N pseudo-data and the synthetic noise knob (docs/README.md, Notation).

use super::toy::{PseudoData, ToyDensity};
use super::View;
use crate::diagnostics::Moments;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::log("banana_width", "Width", "w", "Standard deviation of θ₁ ~ N(0, w²) (w, not a: a is SGLD's schedule scale)", 0.2, 10.0, 2.0),
    ParamSpec::linear("curvature", "Curvature", "h", "Bend of the ridge: θ₂ | θ₁ ~ N(h(θ₁² − w²), 1) (h, not b: b is SGLD's schedule offset)", -3.0, 3.0, 0.5).primary(),
    super::GRAD_NOISE,
];

pub const SPEC: TargetSpec = TargetSpec {
    name: "banana",
    label: "Banana",
    description: "Curved ridge θ₂ | θ₁ ~ N(b(θ₁² − a²), 1); uncorrelated but strongly dependent; closed-form moments",
    kind: TargetKind::Toy,
    params: PARAMS,
    build: |values, data| {
        crate::spec::refuse_data("banana", data)?;
        Ok(Box::new(Banana::model(values)))
    },
};

#[derive(Clone, Debug)]
pub struct Banana {
    width: f64,
    curvature: f64,
}

impl Banana {
    pub fn new(width: f64, curvature: f64) -> Self {
        Banana { width, curvature }
    }
    pub fn model(values: &ParamValues) -> PseudoData<Banana> {
        PseudoData { density: Banana::new(values.get("banana_width"), values.get("curvature")), noise_sd: values.get("grad_noise") }
    }
    /// The residual r = θ₂ − b(θ₁² − a²).
    fn residual(&self, theta: &[f64]) -> f64 {
        theta[1] - self.curvature * (theta[0] * theta[0] - self.width * self.width)
    }
}

impl ToyDensity for Banana {
    /// Normalised: log N(θ₁; 0, a²) + log N(r; 0, 1).
    fn log_pdf(&self, theta: &[f64]) -> f64 {
        let r = self.residual(theta);
        let a = self.width;
        -0.5 * theta[0] * theta[0] / (a * a) - 0.5 * r * r - (2.0 * std::f64::consts::PI).ln() - a.ln()
    }
    fn grad_log_pdf(&self, theta: &[f64]) -> [f64; 2] {
        let r = self.residual(theta);
        let a = self.width;
        [-theta[0] / (a * a) + 2.0 * self.curvature * theta[0] * r, -r]
    }
    /// r = (θ₁/a, θ₂ − b(θ₁² − a²)): log π = −½‖r‖² + const.
    fn residuals(&self, theta: &[f64]) -> [f64; 2] {
        [theta[0] / self.width, self.residual(theta)]
    }
    fn residual_jacobian(&self, theta: &[f64]) -> [[f64; 2]; 2] {
        [[1.0 / self.width, 0.0], [-2.0 * self.curvature * theta[0], 1.0]]
    }
    fn moments(&self) -> Option<Moments> {
        let (a, b) = (self.width, self.curvature);
        Some(Moments { mean: vec![0.0, 0.0], cov: vec![vec![a * a, 0.0], vec![0.0, 1.0 + 2.0 * b * b * a.powi(4)]] })
    }
    fn window(&self) -> View {
        let (a, b) = (self.width, self.curvature);
        // θ₁ within ±3.5a; θ₂ spans the ridge b(θ₁² − a²) for those θ₁, plus ±3.5.
        let low = (b * (12.25 * a * a - a * a)).min(-b * a * a) - 3.5;
        let high = (b * (12.25 * a * a - a * a)).max(-b * a * a) + 3.5;
        View { x_min: -3.5 * a, x_max: 3.5 * a, y_min: low, y_max: high }
    }
    /// θ₁ ~ N(0, a²) exactly; θ₂ has no closed form (the grid's marginal is used).
    fn marginal(&self, coordinate: usize, points: &[f64]) -> Option<Vec<f64>> {
        (coordinate == 0).then(|| super::toy::normal_density(0.0, self.width, points))
    }
    /// θ₁ within ±8a and the whole ridge for those θ₁ (the view cuts the ridge's arms).
    fn region(&self) -> Option<View> {
        let (a, b) = (self.width, self.curvature);
        let arm = b * (64.0 * a * a - a * a);
        let base = -b * a * a;
        Some(View { x_min: -8.0 * a, x_max: 8.0 * a, y_min: arm.min(base) - 8.0, y_max: arm.max(base) + 8.0 })
    }
}
