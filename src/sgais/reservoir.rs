//! The history {y_k, k < n} that SGAIS draws its minibatches B from (paper eq. 4: i.i.d., with
//! replacement), either kept whole or summarised by a uniform reservoir (paper §5; Vitter 1985,
//! Algorithm R) for streaming data. Items are data indices.

use crate::rng::{index_below, ChainRng};

/// A uniform random sample of fixed capacity from a stream (Vitter's Algorithm R): the first
/// `capacity` items fill it; item t (0-based) then replaces a uniformly chosen slot with
/// probability capacity/(t + 1). After any number of items, every item seen is in the reservoir
/// with the same probability.
#[derive(Clone, Debug)]
pub struct Reservoir {
    capacity: usize,
    items: Vec<usize>,
    seen: usize,
}

impl Reservoir {
    pub fn new(capacity: usize) -> Self {
        Reservoir { capacity: capacity.max(1), items: Vec::with_capacity(capacity.max(1)), seen: 0 }
    }

    /// Offer one stream item.
    pub fn offer(&mut self, item: usize, rng: &mut ChainRng) {
        if self.items.len() < self.capacity {
            self.items.push(item);
        } else {
            let slot = index_below(rng, self.seen + 1);
            if slot < self.capacity {
                self.items[slot] = item;
            }
        }
        self.seen += 1;
    }

    pub fn items(&self) -> &[usize] {
        &self.items
    }
    /// Number of items offered so far.
    pub fn seen(&self) -> usize {
        self.seen
    }
}

/// Where history minibatches come from.
#[derive(Clone, Debug)]
pub enum History {
    /// All previous data 0..n are kept; draws are uniform over them.
    Full { len: usize },
    /// Streaming: draws are uniform over a reservoir of the previous data.
    Streaming(Reservoir),
}

impl History {
    /// `reservoir_size` = 0 keeps the full history.
    pub fn new(reservoir_size: usize) -> Self {
        if reservoir_size == 0 {
            History::Full { len: 0 }
        } else {
            History::Streaming(Reservoir::new(reservoir_size))
        }
    }

    /// The true number of previous data n − 1 (what eq. 4 scales by, also in streaming mode).
    pub fn true_count(&self) -> usize {
        match self {
            History::Full { len } => *len,
            History::Streaming(r) => r.seen(),
        }
    }

    /// Append data indices `start..end` (a finished chunk) to the history.
    pub fn extend(&mut self, start: usize, end: usize, rng: &mut ChainRng) {
        match self {
            History::Full { len } => *len = end,
            History::Streaming(r) => (start..end).for_each(|i| r.offer(i, rng)),
        }
    }

    /// Fill `batch` with indices drawn i.i.d. uniformly, with replacement, from the history.
    /// Leaves it empty when there is no history.
    pub fn draw_batch(&self, size: usize, batch: &mut Vec<usize>, rng: &mut ChainRng) {
        batch.clear();
        match self {
            History::Full { len: 0 } => {}
            History::Full { len } => batch.extend((0..size).map(|_| index_below(rng, *len))),
            History::Streaming(r) if r.items().is_empty() => {}
            History::Streaming(r) => batch.extend((0..size).map(|_| r.items()[index_below(rng, r.items().len())])),
        }
    }
}
