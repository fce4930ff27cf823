//! Bayesian logistic regression: y_i ∈ {0, 1}, P(y_i = 1 | θ) = σ(x_iᵀw + b), prior θ ~ N(0, σ_p² I).
//! Parameters are ordered [w_1..w_d, b] (docs/README.md, Notation). Per-datum score (the gradient of
//! ℓ_i = y_i log σ(z_i) + (1 − y_i) log(1 − σ(z_i)), z_i = x_iᵀw + b): g_i = (y_i − σ(z_i)) [x_i, 1].

use super::{Model, View};
use crate::diagnostics::Moments;
use crate::data::Dataset;
use crate::params::{ParamSpec, ParamValues};
use crate::spec::{TargetKind, TargetSpec};
use crate::rng::{chain_rng, standard_normal, uniform};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::choice("dataset", "Data set", "", "Synthetic 1-feature data (2-D posterior), or a shipped real data set", DATASETS, 0).primary(),
    ParamSpec::log("prior_sd", "Prior scale", "σ_p", "Std. dev. of the N(0, σ_p²) prior on every weight and the bias", 0.01, 1e4, 10.0),
    ParamSpec::integer("n_points", "Data points (synthetic)", "N", "Size of the generated data set (ignored when data are loaded)", 10.0, 1e6, 1000.0, true).primary().shown_when("dataset", &[0.0]),
    ParamSpec::linear("true_w", "True slope (synthetic)", "w*", "Slope used to generate synthetic labels", -10.0, 10.0, 1.5).shown_when("dataset", &[0.0]),
    ParamSpec::linear("true_b", "True bias (synthetic)", "b*", "Bias used to generate synthetic labels", -10.0, 10.0, -0.5).shown_when("dataset", &[0.0]),
    ParamSpec::integer("n_features", "Features (breast cancer)", "d", "Use the first d of the 30 breast-cancer features", 1.0, 30.0, 4.0, false).primary().shown_when("dataset", &[1.0]),
    ParamSpec::integer("projection_dim", "Projection size (digits)", "P", "Digits 7-vs-9: project the 64 pixels onto P seeded random directions (as SGFS did for MNIST)", 1.0, 64.0, 5.0, false).primary().shown_when("dataset", &[2.0]),
    ParamSpec::choice("standardise", "Standardise features", "", "Built-in real data sets: shift and scale every feature to mean 0, sd 1 (uploaded files are used as given; the upload has its own option)", &["off", "on"], 1).shown_when("dataset", &[1.0, 2.0]),
    ParamSpec::integer("data_seed", "Data seed", "", "Seed of the synthetic data generator and of the random projection", 0.0, 1e9, 1.0, false).shown_when("dataset", &[0.0, 2.0]),
    ParamSpec::choice("start_at", "Chains start at", "", "mode: at the posterior mode (found by Newton); origin: at θ = 0, far out, to watch burn-in", &["mode", "origin"], 0),
];

/// Values of the `dataset` choice.
pub const DATASETS: &[&str] = &["synthetic", "breast_cancer", "digits_7v9"];

pub const SPEC: TargetSpec = TargetSpec {
    name: "logreg",
    label: "Logistic regression",
    description: "Bayesian logistic regression: synthetic slope + bias (2-D posterior), breast cancer, digits 7 vs 9, or a loaded CSV",
    kind: TargetKind::Regression,
    params: PARAMS,
    build: |values, data| Ok(Box::new(LogisticRegression::from_params(values, data)?)),
};

/// The logistic function σ(z) = 1/(1 + e^{−z}), computed without overflow.
#[inline]
/// Branch-free form of 1/(1 + e^{−z}) for z ≥ 0 and e^{z}/(1 + e^{z}) for z < 0 (bit-identical to
/// those two expressions; the sign test is a select, not a mispredicted branch, which matters in
/// the minibatch gradient where the sign is random).
pub fn sigmoid(z: f64) -> f64 {
    sigmoid_from_exp(z, crate::fastmath::exp_nonpositive(-z.abs()))
}

/// σ(z) given e = e^{−|z|} (the division half of [`sigmoid`], separate so that a loop of them
/// vectorises).
#[inline(always)]
fn sigmoid_from_exp(z: f64, e: f64) -> f64 {
    let numerator = if z >= 0.0 { 1.0 } else { e };
    numerator / (1.0 + e)
}

/// log σ(z), stable for large |z|.
#[inline]
pub fn log_sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        -(-z).exp().ln_1p()
    } else {
        z - z.exp().ln_1p()
    }
}

/// Features X (N × d, row-major), labels y ∈ {0,1}, Gaussian prior, with or without a bias.
/// The posterior mode and the Laplace standard deviations are found once (Newton) to place the view.
#[derive(Clone, Debug)]
pub struct LogisticRegression {
    d: usize,
    intercept: bool,
    features: Vec<f64>,
    labels: Vec<f64>,
    prior_sd: f64,
    names: Vec<String>,
    mode: Vec<f64>,
    /// Inverse negative Hessian at the mode (the Laplace covariance), when Newton succeeded.
    laplace_cov: Option<Vec<Vec<f64>>>,
    laplace_sd: Vec<f64>,
    start_at_mode: bool,
    /// Held-out rows (the `logreg_heldout` target), not used by the posterior.
    test: Option<super::test_set::TestSet>,
}

impl LogisticRegression {
    /// A model over given features and labels; labels must be 0/1 and both classes present.
    pub fn new(d: usize, features: Vec<f64>, labels: Vec<f64>, prior_sd: f64, names: Vec<String>) -> Result<Self, String> {
        check_labels(&labels)?;
        Ok(Self::assemble(d, true, features, labels, prior_sd, names))
    }

    /// Set the fields and find the mode and Laplace scales.
    #[doc(hidden)] // pub for tests/unit (issue 23)
    pub fn assemble(d: usize, intercept: bool, features: Vec<f64>, labels: Vec<f64>, prior_sd: f64, names: Vec<String>) -> Self {
        let dim = d + intercept as usize;
        let mut model = LogisticRegression {
            d,
            intercept,
            features,
            labels,
            prior_sd,
            names,
            mode: vec![0.0; dim],
            laplace_cov: None,
            laplace_sd: vec![1.0; dim],
            start_at_mode: false,
            test: None,
        };
        model.find_mode();
        model
    }

    /// Without the bias b (the SBPS notebook's model, docs/bouncy.md §11); labels as in [`Self::new`].
    pub fn without_intercept(d: usize, features: Vec<f64>, labels: Vec<f64>, prior_sd: f64, names: Vec<String>) -> Result<Self, String> {
        check_labels(&labels)?;
        Ok(Self::assemble(d, false, features, labels, prior_sd, names))
    }

    pub fn from_dataset(data: &Dataset, prior_sd: f64) -> Result<Self, String> {
        let mut names = data.feature_names.clone();
        names.push("intercept".into());
        Self::new(data.n_features(), data.features.clone(), data.responses.clone(), prior_sd, names)
    }

    /// The same model with held-out `test` rows attached (they do not enter the posterior).
    pub fn with_test_set(mut self, test: super::test_set::TestSet) -> Self {
        self.test = Some(test);
        self
    }

    /// The `logreg` registry entry: an uploaded data set, or the `dataset` choice.
    pub fn from_params(values: &ParamValues, data: Option<&Dataset>) -> Result<Self, String> {
        let prior_sd = values.get("prior_sd");
        let standardise = values.get_bool("standardise");
        let at_mode = values.get_usize("start_at") == 0;
        let prepared = match (data, values.get_usize("dataset")) {
            // User data are used exactly as given (no hidden rescaling).
            (Some(d), _) => return Ok(Self::from_dataset(d, prior_sd)?.starting_at_mode(at_mode)),
            (None, 0) => return Ok(Self::synthetic_1d(values).starting_at_mode(at_mode)),
            (None, 1) => {
                let all = crate::data::builtin("breast_cancer")?;
                let keep: Vec<usize> = (0..values.get_usize("n_features").min(all.n_features())).collect();
                all.select_features(&keep)
            }
            (None, _) => crate::data::builtin("digits_7v9")?.random_projection(values.get_usize("projection_dim"), values.get("data_seed") as u64),
        };
        let prepared = if standardise { prepared.standardised() } else { prepared };
        Ok(Self::from_dataset(&prepared, prior_sd)?.starting_at_mode(at_mode))
    }

    /// Rebuild from [`Model::export_parts`] without generating data or searching for the mode
    /// again; the buffers' lengths and the header are checked.
    pub fn from_parts(parts: crate::model::ExportedModel) -> Result<Self, String> {
        #[derive(serde::Deserialize)]
        struct Header {
            d: usize,
            intercept: bool,
            prior_sd: f64,
            names: Vec<String>,
            mode: Vec<f64>,
            laplace_cov: Option<Vec<Vec<f64>>>,
            laplace_sd: Vec<f64>,
            start_at_mode: bool,
        }
        let h: Header = serde_json::from_value(parts.header).map_err(|e| format!("exported logistic model: {e}"))?;
        let dim = h.d + h.intercept as usize;
        let n = parts.labels.len();
        if h.d == 0 || parts.features.len() != n * h.d || h.mode.len() != dim || h.laplace_sd.len() != dim || h.names.len() != dim || n == 0 {
            return Err(format!("exported logistic model: inconsistent shapes (d = {}, {} features, {} labels)", h.d, parts.features.len(), n));
        }
        check_labels(&parts.labels)?;
        Ok(LogisticRegression {
            d: h.d,
            intercept: h.intercept,
            features: parts.features,
            labels: parts.labels,
            prior_sd: h.prior_sd,
            names: h.names,
            mode: h.mode,
            laplace_cov: h.laplace_cov,
            laplace_sd: h.laplace_sd,
            start_at_mode: h.start_at_mode,
            test: None,
        })
    }

    /// Chains start at the posterior mode instead of the origin.
    pub fn start_at_mode(self) -> Self {
        self.starting_at_mode(true)
    }

    /// Chains start at the posterior mode (`true`) or at the origin.
    pub fn starting_at_mode(mut self, at_mode: bool) -> Self {
        self.start_at_mode = at_mode;
        self
    }

    /// The posterior mode (found by Newton's method at construction).
    pub fn mode(&self) -> &[f64] {
        &self.mode
    }

    /// Laplace-approximation standard deviations at the mode.
    pub fn laplace_sd(&self) -> &[f64] {
        &self.laplace_sd
    }

    /// Newton's method on log π: −H = Σ σ(1−σ) φφᵀ + I/σ_p², at most 50 iterations, halving the
    /// step while log π decreases (log π is concave, so full steps are accepted near the mode).
    fn find_mode(&mut self) {
        let dim = self.dim();
        let mut theta = vec![0.0; dim];
        let mut current = self.log_density(&theta);
        for _ in 0..50 {
            let (grad, neg_hessian) = self.gradient_and_negative_hessian(&theta);
            let Some(chol) = neg_hessian.cholesky() else { break };
            let step = chol.solve(&nalgebra::DVector::from_vec(grad));
            let mut size = 1.0;
            let mut next: Vec<f64> = theta.iter().zip(step.iter()).map(|(t, s)| t + s).collect();
            let mut next_value = self.log_density(&next);
            while !(next_value >= current) && size > 1e-6 {
                size *= 0.5;
                next = theta.iter().zip(step.iter()).map(|(t, s)| t + size * s).collect();
                next_value = self.log_density(&next);
            }
            let moved = step.iter().map(|s| (size * s).abs()).fold(0.0, f64::max);
            theta = next;
            current = next_value;
            if moved < 1e-8 * (1.0 + theta.iter().map(|t| t.abs()).fold(0.0, f64::max)) {
                break;
            }
        }
        let (_, neg_hessian) = self.gradient_and_negative_hessian(&theta);
        if let Some(inverse) = neg_hessian.cholesky().map(|c| c.inverse()) {
            self.laplace_sd = (0..dim).map(|j| inverse[(j, j)].max(0.0).sqrt()).collect();
            self.laplace_cov = Some(crate::linalg::matrix_to_rows(&inverse));
        }
        if theta.iter().all(|t| t.is_finite()) {
            self.mode = theta;
        }
    }

    /// ∇log π and −∇²log π in one pass over the data. Only the lower triangle is accumulated
    /// (−H is symmetric; `find_mode`'s Cholesky factorisations read only that triangle) and
    /// mirrored at the end: half the work of the full rank-one updates, each lower entry the same
    /// sum in the same order as before (issue 23: these Newton passes were 28 % of a hardening
    /// test's CPU, BENCHMARKS.md "CI time, ninth round (native)").
    fn gradient_and_negative_hessian(&self, theta: &[f64]) -> (Vec<f64>, nalgebra::DMatrix<f64>) {
        let dim = self.dim();
        let mut grad = vec![0.0; dim];
        self.add_grad_log_prior(theta, &mut grad);
        let mut h = nalgebra::DMatrix::<f64>::identity(dim, dim) / (self.prior_sd * self.prior_sd);
        let mut phi = vec![0.0; dim];
        let mut w_phi = vec![0.0; dim];
        for i in 0..self.labels.len() {
            let p = sigmoid(self.linear_predictor(i, theta));
            let w = p * (1.0 - p);
            phi[..self.d].copy_from_slice(self.row(i));
            if self.intercept {
                phi[self.d] = 1.0;
            }
            let residual = self.labels[i] - p;
            for (g, x) in grad.iter_mut().zip(&phi) {
                *g += residual * x;
            }
            for (wa, x) in w_phi.iter_mut().zip(&phi) {
                *wa = w * x;
            }
            // Column b of the column-major storage, rows a ≥ b: entry (a, b) += (w φ_a) φ_b.
            let storage = h.as_mut_slice();
            for (b, &phi_b) in phi.iter().enumerate() {
                for (entry, wa) in storage[b * dim + b..(b + 1) * dim].iter_mut().zip(&w_phi[b..]) {
                    *entry += wa * phi_b;
                }
            }
        }
        h.fill_upper_triangle_with_lower_triangle();
        (grad, h)
    }

    /// One standard-normal feature, labels from σ(w* x + b*): the whole posterior is 2-D.
    /// N = 10⁶ takes tens of milliseconds (one normal and one uniform per datum).
    pub fn synthetic_1d(values: &ParamValues) -> Self {
        let n = values.get_usize("n_points");
        let (w, b) = (values.get("true_w"), values.get("true_b"));
        let mut rng = chain_rng(values.get("data_seed") as u64);
        let features: Vec<f64> = (0..n).map(|_| standard_normal(&mut rng)).collect();
        let mut labels: Vec<f64> = features.iter().map(|x| if uniform(&mut rng) < sigmoid(w * x + b) { 1.0 } else { 0.0 }).collect();
        // Guarantee both classes so tiny N never produces an improper (separable) edge case.
        labels[0] = 1.0;
        labels[n - 1] = 0.0;
        Self::assemble(1, true, features, labels, values.get("prior_sd"), vec!["w".into(), "b".into()])
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.features[i * self.d..(i + 1) * self.d]
    }

    /// z_i = x_iᵀw + b.
    #[inline]
    fn linear_predictor(&self, i: usize, theta: &[f64]) -> f64 {
        let x = self.row(i);
        let z = x.iter().zip(theta).map(|(a, b)| a * b).sum::<f64>();
        if self.intercept {
            z + theta[self.d]
        } else {
            z
        }
    }

    /// The largest feature-vector norm max_i ‖[x_i, 1]‖ (a Lipschitz bound on |v·g_i| for unit v).
    pub fn max_row_norm(&self) -> f64 {
        let bias = if self.intercept { 1.0 } else { 0.0 };
        (0..self.labels.len()).map(|i| (self.row(i).iter().map(|x| x * x).sum::<f64>() + bias).sqrt()).fold(0.0, f64::max)
    }

    /// sup_θ λ_max(∇²U(θ)) ≤ ¼ λ_max(X̃ᵀX̃) + 1/σ_p², X̃ the rows [x_i, 1], since
    /// ∇²U = Σ σ(z_i)(1 − σ(z_i)) x̃_i x̃_iᵀ + I/σ_p² and σ(1 − σ) ≤ ¼. Costs O(N D²).
    pub fn potential_curvature_bound(&self) -> f64 {
        let dim = self.dim();
        let mut gram = nalgebra::DMatrix::<f64>::zeros(dim, dim);
        // [x_i, 1] with an intercept, x_i without.
        let mut row = vec![1.0; dim];
        for i in 0..self.labels.len() {
            row[..self.d].copy_from_slice(self.row(i));
            for a in 0..dim {
                for b in 0..dim {
                    gram[(a, b)] += row[a] * row[b];
                }
            }
        }
        let largest = crate::linalg::largest_symmetric_eigenvalue(&gram).max(0.0);
        0.25 * largest + 1.0 / (self.prior_sd * self.prior_sd)
    }

    pub fn prior_sd(&self) -> f64 {
        self.prior_sd
    }

    /// Features (N × d, row-major) and 0/1 labels, as the model uses them.
    pub fn data(&self) -> (&[f64], &[f64]) {
        (&self.features, &self.labels)
    }

    /// [`Model::add_grad_log_lik_batch`] for d = `D` features, with or without the intercept:
    /// the same operations in the same order as [`Self::batch_gradient_any`].
    fn batch_gradient_fixed<const D: usize, const INTERCEPT: bool>(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        let weights: [f64; D] = theta[..D].try_into().expect("θ has d weights");
        let bias = if INTERCEPT { theta[D] } else { 0.0 };
        let mut sums: [f64; D] = out[..D].try_into().expect("out has d weights");
        let mut bias_sum = if INTERCEPT { out[D] } else { 0.0 };
        for chunk in batch.chunks(BATCH_CHUNK) {
            let residuals = self.residuals_fixed::<D, INTERCEPT>(chunk, &weights, bias);
            (sums, bias_sum) = self.accumulate_fixed::<D, INTERCEPT>(chunk, &residuals, sums, bias_sum);
        }
        out[..D].copy_from_slice(&sums);
        if INTERCEPT {
            out[D] = bias_sum;
        }
    }

    /// y_i − σ(x_iᵀw + b) for the data of one chunk (≤ [`BATCH_CHUNK`]); the rest stays 0. The
    /// exponentials come first and the divisions in a separate loop the compiler can vectorise.
    #[inline(always)]
    fn residuals_fixed<const D: usize, const INTERCEPT: bool>(&self, chunk: &[usize], weights: &[f64; D], bias: f64) -> [f64; BATCH_CHUNK] {
        let mut z = [0.0; BATCH_CHUNK];
        let mut exp_minus_abs_z = [0.0; BATCH_CHUNK];
        let mut labels = [0.0; BATCH_CHUNK];
        for (k, &i) in chunk.iter().enumerate() {
            let x: &[f64; D] = self.features[i * D..(i + 1) * D].try_into().expect("row of d features");
            let mut dot = x[0] * weights[0];
            for j in 1..D {
                dot += x[j] * weights[j];
            }
            if INTERCEPT {
                dot += bias;
            }
            z[k] = dot;
            labels[k] = self.labels[i];
            exp_minus_abs_z[k] = crate::fastmath::exp_nonpositive(-dot.abs());
        }
        let mut residuals = [0.0; BATCH_CHUNK];
        for k in 0..BATCH_CHUNK {
            residuals[k] = labels[k] - sigmoid_from_exp(z[k], exp_minus_abs_z[k]);
        }
        residuals
    }

    /// sums += Σ_k r_k x_{i_k} (and bias_sum += Σ_k r_k), in chunk order. Not inlined, so that the
    /// sums stay in registers instead of round-tripping through the stack around the exp calls.
    #[inline(never)]
    fn accumulate_fixed<const D: usize, const INTERCEPT: bool>(
        &self,
        chunk: &[usize],
        residuals: &[f64; BATCH_CHUNK],
        mut sums: [f64; D],
        mut bias_sum: f64,
    ) -> ([f64; D], f64) {
        for (&r, &i) in residuals.iter().zip(chunk) {
            let x: &[f64; D] = self.features[i * D..(i + 1) * D].try_into().expect("row of d features");
            for j in 0..D {
                sums[j] += r * x[j];
            }
            if INTERCEPT {
                bias_sum += r;
            }
        }
        (sums, bias_sum)
    }

    /// [`Model::add_grad_log_lik_batch`] for any d.
    fn batch_gradient_any(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        let mut residuals = [0.0; BATCH_CHUNK];
        let d = self.d;
        let (weights, bias) = out.split_at_mut(d);
        for chunk in batch.chunks(BATCH_CHUNK) {
            for (r, &i) in residuals.iter_mut().zip(chunk) {
                *r = self.labels[i] - sigmoid(self.linear_predictor(i, theta));
            }
            for (&r, &i) in residuals.iter().zip(chunk) {
                for (o, x) in weights.iter_mut().zip(self.row(i)) {
                    *o += r * x;
                }
                if self.intercept {
                    bias[0] += r;
                }
            }
        }
    }
}

/// Labels must be 0/1 with both classes present (otherwise the posterior is improper or the data
/// are not logistic-regression data); the message names the first bad row of the CSV.
fn check_labels(labels: &[f64]) -> Result<(), String> {
    if labels.is_empty() {
        return Err("no data rows: logistic regression needs labelled data".into());
    }
    if let Some((i, y)) = labels.iter().enumerate().find(|(_, y)| **y != 0.0 && **y != 1.0) {
        return Err(format!("row {}: label {y} is not 0 or 1 (logistic regression needs 0/1 labels in the last column)", i + 2));
    }
    let ones = labels.iter().filter(|y| **y == 1.0).count();
    if ones == 0 || ones == labels.len() {
        return Err(format!("all {} labels are {}: logistic regression needs both classes", labels.len(), labels[0]));
    }
    Ok(())
}

/// Residuals y_i − σ(z_i) computed ahead of the accumulation, per chunk of the minibatch (the
/// page's default minibatch fits one chunk; the buffer is zeroed once per call).
const BATCH_CHUNK: usize = 32;

impl Model for LogisticRegression {
    fn dim(&self) -> usize {
        self.d + self.intercept as usize
    }
    fn n_data(&self) -> usize {
        self.labels.len()
    }
    fn log_prior(&self, theta: &[f64]) -> f64 {
        -0.5 * theta.iter().map(|t| t * t).sum::<f64>() / (self.prior_sd * self.prior_sd)
    }
    fn add_grad_log_prior(&self, theta: &[f64], out: &mut [f64]) {
        super::add_isotropic_normal_gradient(theta, self.prior_sd, out)
    }
    fn log_lik(&self, i: usize, theta: &[f64]) -> f64 {
        let z = self.linear_predictor(i, theta);
        if self.labels[i] == 1.0 {
            log_sigmoid(z)
        } else {
            log_sigmoid(-z)
        }
    }
    fn add_grad_log_lik(&self, i: usize, theta: &[f64], out: &mut [f64]) {
        let residual = self.labels[i] - sigmoid(self.linear_predictor(i, theta));
        for (o, x) in out.iter_mut().zip(self.row(i)) {
            *o += residual * x;
        }
        if self.intercept {
            out[self.d] += residual;
        }
    }
    /// Fused minibatch score sum: residuals y_i − σ(z_i) for a chunk first (independent exp calls
    /// overlap), then the accumulation, in batch order, so the sums are bit-identical to calling
    /// [`Model::add_grad_log_lik`] datum by datum. The loop is compiled for the
    /// exact d (dot products unrolled, the sums kept in registers, one bounds check per row) for
    /// the built-in targets' defaults only (synthetic 1-D; breast cancer, 4 features; digits, 5
    /// projections; the SBPS setup at D = 4): each size adds about 2 KB to the wasm.
    fn add_grad_log_lik_batch(&self, batch: &[usize], theta: &[f64], out: &mut [f64]) {
        match (self.d, self.intercept) {
            (1, true) => self.batch_gradient_fixed::<1, true>(batch, theta, out),
            (4, true) => self.batch_gradient_fixed::<4, true>(batch, theta, out),
            (5, true) => self.batch_gradient_fixed::<5, true>(batch, theta, out),
            (4, false) => self.batch_gradient_fixed::<4, false>(batch, theta, out),
            _ => self.batch_gradient_any(batch, theta, out),
        }
    }
    fn score_projection_bound(&self) -> Option<f64> {
        // |u·g_i| = |y_i − σ(z_i)| |u·[x_i, 1]| ≤ ‖[x_i, 1]‖ for unit u (docs/bouncy.md §9;
        // without the 1 when there is no intercept).
        Some(self.max_row_norm())
    }
    fn prior_curvature_bound(&self) -> Option<f64> {
        Some(1.0 / (self.prior_sd * self.prior_sd))
    }
    fn curvature_bound(&self) -> Option<f64> {
        Some(self.potential_curvature_bound())
    }
    /// One fused pass over the data without an index list (fast for N = 10⁶).
    fn grad_log_density(&self, theta: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        self.add_grad_log_prior(theta, out);
        for i in 0..self.labels.len() {
            self.add_grad_log_lik(i, theta, out);
        }
    }
    fn test_set(&self) -> Option<&super::test_set::TestSet> {
        self.test.as_ref()
    }
    fn initial_point(&self) -> Vec<f64> {
        if self.start_at_mode {
            self.mode.clone()
        } else {
            vec![0.0; self.dim()]
        }
    }
    /// ±4.5 Laplace standard deviations around the mode (found once by Newton with the exact
    /// Hessian at construction; at most ±1000 per side).
    fn export_parts(&self) -> Option<crate::model::ExportedModel> {
        let header = serde_json::json!({
            "kind": "logistic", "d": self.d, "intercept": self.intercept, "prior_sd": self.prior_sd, "names": self.names,
            "mode": self.mode, "laplace_cov": self.laplace_cov, "laplace_sd": self.laplace_sd, "start_at_mode": self.start_at_mode,
        });
        Some(crate::model::ExportedModel { header, features: self.features.clone(), labels: self.labels.clone() })
    }
    fn laplace_moments(&self) -> Option<Moments> {
        self.laplace_cov.clone().map(|cov| Moments { mean: self.mode.clone(), cov })
    }
    fn view(&self) -> View {
        let half = |j: usize| (4.5 * self.laplace_sd[j]).clamp(1e-9, 1e3);
        let second = 1.min(self.dim() - 1);
        View::centred(self.mode[0], self.mode[second], half(0), half(second))
    }
    fn coordinate_names(&self) -> Vec<String> {
        self.names.clone()
    }
}
