//! The truth behind a panel: from the cache, in closed form, by grid quadrature, as a labelled
//! Laplace approximation for large 2-D targets, or by a chunked exact MALA reference run.

use super::{placeholder_truth, truth_key, Lab, GRID_TRUTH_BUDGET, REFERENCE_SAMPLING, REFERENCE_WARM_UP, TRUTH_CACHE};
use crate::model::laplace::laplace_approximation;
use crate::model::Model;
use crate::truth::{truth_for, ReferenceRun, Truth, TruthSource};
use serde_json::{json, Value};

impl Lab {
    /// The truth for the current model, from the cache, in closed form / by quadrature, or by
    /// starting a reference run.
    pub(super) fn refresh_truth(&mut self) {
        self.reference = None;
        self.awaiting_truth = false;
        let key = truth_key(&self.config, self.chain.target_params());
        if let Some(cached) = TRUTH_CACHE.with(|c| c.borrow().get(&key).cloned()) {
            self.truth = cached;
            return;
        }
        if let Some(shipped) = crate::truth_shipped::for_key(&key, self.chain.model()) {
            self.truth = shipped;
            TRUTH_CACHE.with(|c| c.borrow_mut().insert(key, self.truth.clone()));
            return;
        }
        if self.deferred {
            // Closed-form moments cost nothing: E1/E2 work at once; the worker's truth (with its
            // marginal curves) replaces this one when it arrives.
            self.truth = match self.chain.model().exact_moments() {
                Some(moments) => Truth { moments: Some(moments), marginals: Vec::new(), source: TruthSource::ClosedForm, error_bound: 0.0, error: "closed form".into() },
                None => placeholder_truth(),
            };
            self.awaiting_truth = true;
            return;
        }
        crate::entry_counts::count("truth");
        let model = self.chain.model();
        self.truth = if crate::truth::truth_cost(model) > GRID_TRUTH_BUDGET { laplace_truth(model) } else { truth_for(model) };
        if self.truth.source == TruthSource::NeedsReferenceRun {
            if let Ok(model) = self.build_model() {
                self.reference = Some(ReferenceRun::new(model, self.config.seed ^ 0x5eed, REFERENCE_WARM_UP, REFERENCE_SAMPLING));
            }
        } else {
            TRUTH_CACHE.with(|c| c.borrow_mut().insert(key, self.truth.clone()));
        }
    }

    pub(super) fn build_model(&self) -> Result<Box<dyn Model>, String> {
        (self.chain.target_spec().build)(self.chain.target_params(), self.config.data.as_ref())
    }

    /// Advance a pending reference run by up to `steps`; returns `{running, fraction, text}`.
    /// A truth that another lab on the same target, settings and data has finished in the meantime
    /// is adopted at once (so a compared chain shows the main chain's truth without its own run).
    pub fn advance_truth(&mut self, steps: u64) -> Value {
        if self.reference.is_some() {
            if let Some(cached) = TRUTH_CACHE.with(|c| c.borrow().get(&truth_key(&self.config, self.chain.target_params())).cloned()) {
                self.truth = cached;
                self.reference = None;
                self.refresh_view();
            }
        }
        let Some(run) = self.reference.as_mut() else {
            return json!({ "running": false, "fraction": 1.0, "text": self.truth.error });
        };
        if steps > 0 {
            crate::entry_counts::count("truth");
        }
        let progress = run.advance(steps);
        let fraction = progress.steps_done as f64 / progress.total_steps.max(1) as f64;
        if progress.finished {
            if let Some(result) = run.result() {
                self.truth = result.to_truth();
                TRUTH_CACHE.with(|c| c.borrow_mut().insert(truth_key(&self.config, self.chain.target_params()), self.truth.clone()));
            }
            self.reference = None;
            self.refresh_view();
            self.watch_for_runaway();
            return json!({ "running": false, "fraction": 1.0, "text": self.truth.error });
        }
        json!({ "running": true, "fraction": fraction, "text": format!("computing the exact MALA reference: {:.0} %", 100.0 * fraction) })
    }
}

/// Laplace approximation as the truth for 2-D targets too large for a quick grid: with N ≥ 10⁵
/// data its mean is off by O(1/√N) posterior sds (the skewness term), its covariance by O(1/N)
/// relative (docs/truth.md §2–3).
pub(super) fn laplace_truth(model: &dyn Model) -> Truth {
    match model.laplace_moments().or_else(|| laplace_approximation(model)) {
        Some(moments) => Truth {
            moments: Some(moments),
            marginals: Vec::new(),
            source: TruthSource::Laplace,
            error_bound: f64::NAN,
            error: format!(
                "Laplace approximation at the mode (N = {}: grid quadrature would stall the page; its mean is off by about 1/√N posterior sds, the skewness term, its covariance by about 1/N relative)",
                model.n_data()
            ),
        },
        None => truth_for(model),
    }
}
