//! A seeded chain as a replayable timeline. A chain is a deterministic function of its settings,
//! its seed and what the user did to it along the way (a sampler parameter changed at step k, the
//! samples discarded at step k, a restart from a dragged point at step k). The timeline records
//! those events with their steps; replaying them on a chain rebuilt from the settings at the
//! timeline's start reproduces the run exactly: the same random numbers, the same minibatches.
//!
//! Events are applied *after* the chain has taken `step` steps. Changing something while rewound
//! starts a new branch: the events after that step are forgotten.

use crate::chain::ChainConfig;

/// Something the user did to a running chain that changes what comes after.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A sampler parameter changed in place (the chain keeps its position and random stream).
    SamplerParam(String, f64),
    /// The samples so far were discarded (burn-in); the chain went on from where it was.
    Discard,
    /// The chain restarted from this point (dragged on the 2-D panel).
    Restart(Vec<f64>),
}

/// The events of one run since its chain was built, and how far the run has gone.
#[derive(Clone, Debug)]
pub struct Timeline {
    config: ChainConfig,
    /// `(step, event)` in the order they were applied (steps non-decreasing).
    events: Vec<(u64, Event)>,
    /// The step from which the run can no longer be replayed (e.g. a runaway was undone), if any.
    broken_at: Option<u64>,
    /// The furthest step the current branch has reached.
    furthest: u64,
}

impl Timeline {
    /// A new timeline for a chain just built from `config`.
    pub fn start(config: &ChainConfig) -> Self {
        Timeline { config: config.clone(), events: Vec::new(), broken_at: None, furthest: 0 }
    }

    /// The settings the chain was built from at the timeline's start.
    pub fn config(&self) -> &ChainConfig {
        &self.config
    }

    /// Record `event`, applied after `step` steps; the events after `step` (a branch left by
    /// rewinding) are forgotten, and the branch now ends at `step`.
    pub fn record(&mut self, step: u64, event: Event) {
        self.events.retain(|(s, _)| *s <= step);
        self.events.push((step, event));
        self.furthest = step;
    }

    /// From `step` on, the run cannot be reproduced by replaying (seeking back is refused).
    pub fn break_at(&mut self, step: u64) {
        self.broken_at = Some(self.broken_at.map_or(step, |b| b.min(step)));
    }

    /// Note that the run has reached `step`.
    pub fn reached(&mut self, step: u64) {
        self.furthest = self.furthest.max(step);
    }

    /// The furthest step of the current branch (the scrubber's end).
    pub fn furthest(&self) -> u64 {
        self.furthest
    }

    /// Whether seeking back is possible.
    pub fn replayable(&self) -> bool {
        self.broken_at.is_none()
    }

    /// The events applied after exactly `step` steps, in order.
    pub fn events_at(&self, step: u64) -> impl Iterator<Item = &Event> + '_ {
        self.events.iter().filter(move |(s, _)| *s == step).map(|(_, e)| e)
    }

    /// The first step after `after` at which events are applied, if any.
    pub fn next_event_step(&self, after: u64) -> Option<u64> {
        self.events.iter().map(|(s, _)| *s).find(|&s| s > after)
    }

    /// Why seeking from step `current` to `target` cannot be done, or None when it can.
    pub fn refuse_seek(&self, current: u64, target: u64) -> Option<String> {
        match self.broken_at {
            Some(at) if target < current => Some(format!(
                "cannot rewind: the run was changed at step {at} in a way that cannot be replayed (a runaway was undone); press Reset to start a new timeline"
            )),
            _ => None,
        }
    }
}
