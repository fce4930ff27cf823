//! What a Web Worker hands over to the page's labs: the prepared truth and contour grid
//! ([`Lab::export_prepared`]), a large built target ([`Lab::export_model`]), and a deferred lab
//! taking them from the caches once they arrived ([`Lab::adopt_cached_truth`]).

use super::{truth_key, Lab, GRID_CACHE, TRUTH_CACHE};
use crate::diagnostics::Moments;
use serde_json::{json, Value};

impl Lab {
    pub(super) fn key(&self) -> String {
        truth_key(&self.config, self.chain.target_params())
    }

    /// What a Web Worker hands to the page once the truth is known: `{key, truth, grid}` (grid:
    /// the contour grid of a 2-D target at pair (0, 1), else null), for [`adopt_prepared`].
    pub fn export_prepared(&self) -> Value {
        let grid = (self.pair == (0, 1)).then_some(self.grid.as_ref()).flatten().map(|g| json!({"view": g.view, "nx": g.nx, "ny": g.ny, "log_density": g.log_density}));
        json!({ "key": self.key(), "truth": self.truth, "grid": grid, "pending": self.reference.is_some() })
    }

    /// The built target as transferable parts when it is large and can be exported, for
    /// [`adopt_model`] on the page's main thread.
    pub fn export_model(&self) -> Option<crate::model::ExportedModel> {
        (self.chain.model().n_data() > crate::entry_counts::LARGE_BUILD_DATA).then(|| self.chain.model().export_parts()).flatten()
    }

    /// Take the truth (and grid) from the caches when a deferred lab is still waiting for them;
    /// true when something changed (redraw the static layer).
    pub fn adopt_cached_truth(&mut self) -> bool {
        if !self.deferred {
            return false;
        }
        let key = self.key();
        let mut truth_arrived = false;
        let mut moments_changed = false;
        if self.awaiting_truth {
            if let Some(truth) = TRUTH_CACHE.with(|c| c.borrow().get(&key).cloned()) {
                moments_changed = !same_moments(truth.moments.as_ref(), self.truth.moments.as_ref());
                self.truth = truth;
                self.awaiting_truth = false;
                truth_arrived = true;
            }
        }
        let grid_arrived = self.grid.is_none() && self.chain.model().dim() == 2 && self.pair == (0, 1) && GRID_CACHE.with(|c| c.borrow().contains_key(&key));
        if truth_arrived || grid_arrived {
            self.refresh_view();
        }
        // Only new truth moments restart the runaway watch: a contour grid, or the worker's copy
        // of closed-form moments the lab already watched with, must not forget an excursion
        // already under way.
        if moments_changed {
            self.watch_for_runaway();
        }
        truth_arrived || grid_arrived
    }
}

/// Whether two truths have the same moments (both absent counts as the same).
pub(super) fn same_moments(a: Option<&Moments>, b: Option<&Moments>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.mean == b.mean && a.cov == b.cov,
        (None, None) => true,
        _ => false,
    }
}
