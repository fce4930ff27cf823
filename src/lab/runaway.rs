//! The runaway hand-over between the chain and its panels: the chain watches for runaways once the
//! truth's moments are known, and discarding since a runaway restores the density image too.

use super::Lab;
use crate::truth::TruthSource;

impl Lab {
    /// The samples recorded since a confirmed runaway began are removed (moments, retained
    /// samples, density image, as if never recorded) and the particle goes back to where the
    /// excursion began (see [`Chain::discard_since_runaway`]). Errs when there is no runaway.
    pub fn discard_since_runaway(&mut self) -> Result<(), String> {
        // Taken only once the chain has discarded: a refused discard (no runaway) keeps the
        // snapshot for the runaway that may still be confirmed.
        self.chain.discard_since_runaway()?;
        let snapshot = self.density_before_excursion.take();
        self.timeline.break_at(self.chain.steps());
        match snapshot {
            Some((at, density)) if at == self.chain.samples().total_pushed() => {
                self.density = density;
                self.binned = at;
            }
            _ => self.rebin_all(),
        }
        Ok(())
    }

    /// Let the chain watch for runaways once the truth's moments are known.
    pub(super) fn watch_for_runaway(&mut self) {
        if let Some(m) = self.truth.moments.as_ref().filter(|_| self.truth.source != TruthSource::NeedsReferenceRun) {
            self.chain.watch_for_runaway(m);
        }
    }
}
