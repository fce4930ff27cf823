//! Rewinding a run (issue 24): the chain is a deterministic function of its settings, seed and
//! the events of its [`Timeline`], so any step of the run can be shown again exactly by rebuilding
//! the chain from the timeline's settings and replaying the events up to that step.

use super::{new_chain, set_setting, Lab};
use crate::timeline::{Event, Timeline};

impl Lab {
    /// The run's timeline (its events and how far it has gone).
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Go to step `target` of this run and return the step reached (fewer if the chain diverged
    /// on the way). Forward: run on. Back: rebuild the chain from the settings and seed of the
    /// timeline's start and replay its events; the state at `target` is bit-for-bit the state the
    /// run had there (same random numbers, same minibatches).
    pub fn seek(&mut self, target: u64) -> Result<u64, String> {
        let now = self.chain.steps();
        if let Some(why) = self.timeline.refuse_seek(now, target) {
            return Err(why);
        }
        if target < now {
            self.rebuild_at_timeline_start()?;
        }
        let steps = target.saturating_sub(self.chain.steps());
        self.run(steps);
        Ok(self.chain.steps())
    }

    fn rebuild_at_timeline_start(&mut self) -> Result<(), String> {
        let recording = self.chain.recording_parts();
        let config = self.timeline.config().clone();
        self.chain = new_chain(&config)?;
        self.chain.record_parts(recording);
        self.config = config;
        self.watch_for_runaway();
        self.rebin_all();
        self.restart_held_out();
        self.apply_events_at(0);
        Ok(())
    }

    /// Change a sampler parameter in place, without recording it (the caller records it).
    pub(super) fn apply_sampler_param(&mut self, name: &str, value: f64) -> Result<(), String> {
        self.chain.set_sampler_param(name, value)?;
        self.chain.clear_statistics();
        set_setting(&mut self.config, name, value);
        self.rebin_all();
        self.restart_held_out();
        Ok(())
    }

    /// Apply the timeline's events recorded at `step` (each was valid when it was recorded).
    fn apply_events_at(&mut self, step: u64) {
        let events: Vec<Event> = self.timeline.events_at(step).cloned().collect();
        for event in events {
            let applied = match &event {
                Event::SamplerParam(name, value) => self.apply_sampler_param(name, *value),
                Event::Discard => {
                    self.chain.clear_statistics();
                    self.rebin_all();
                    Ok(())
                }
                Event::Restart(point) => self.chain.restart_at(point),
            };
            debug_assert!(applied.is_ok(), "a recorded event failed on replay: {applied:?}");
        }
    }

    /// Run up to `steps` steps, stopping at each step where the timeline has events to apply them
    /// (after a rewind, playing on repeats the run); returns the steps run.
    pub(super) fn run_through_events(&mut self, steps: u64) -> u64 {
        let end = self.chain.steps() + steps;
        let mut ran = 0;
        loop {
            let now = self.chain.steps();
            match self.timeline.next_event_step(now).filter(|&s| s <= end) {
                Some(at) => {
                    let got = self.chain.run(at - now);
                    ran += got;
                    if got < at - now {
                        break;
                    }
                    self.apply_events_at(at);
                }
                None => {
                    ran += self.chain.run(end - now);
                    break;
                }
            }
        }
        self.timeline.reached(self.chain.steps());
        ran
    }
}
