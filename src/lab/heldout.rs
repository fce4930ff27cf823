//! The lab's held-out test curves (SGLD paper Fig. 3, src/heldout.rs) for targets with a test set:
//! the run is split at the tracker's checkpoints, and the tracker restarts with the chain.

use super::Lab;
use crate::heldout::HeldOut;
use crate::plot::chart::ChartSpec;

impl Lab {
    /// Run `steps` steps through the timeline's events, stopping at every held-out checkpoint.
    pub(super) fn run_tracking_held_out(&mut self, steps: u64) -> u64 {
        let end = self.chain.steps() + steps;
        let mut ran = 0;
        loop {
            self.observe_held_out();
            let now = self.chain.steps();
            if now >= end {
                break;
            }
            let until = self.heldout.as_ref().map_or(end, |h| h.next_step().clamp(now + 1, end));
            let got = self.run_through_events(until - now);
            ran += got;
            if got < until - now {
                break;
            }
        }
        ran
    }

    fn observe_held_out(&mut self) {
        let Some(tracker) = self.heldout.as_mut() else { return };
        let model = self.chain.model();
        if let (Some(test), true) = (model.test_set(), self.chain.steps() >= tracker.next_step()) {
            tracker.observe(model, test, self.chain.position(), self.chain.steps());
        }
    }

    /// Start the held-out curves again (new chain, reset, rewind, or a sampler setting changed).
    pub(super) fn restart_held_out(&mut self) {
        self.heldout = HeldOut::of(self.chain.model(), self.chain.sampler_params().try_get("batch_size"));
    }

    pub fn held_out(&self) -> Option<&HeldOut> {
        self.heldout.as_ref()
    }

    pub(super) fn held_out_chart(&self) -> Result<ChartSpec, String> {
        self.heldout.as_ref().map(HeldOut::chart).ok_or_else(|| "chart 'heldout' needs a target with a test set (logreg_heldout)".to_string())
    }
}
