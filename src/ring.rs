//! Fixed-capacity ring buffer of D-dimensional points: retained samples and traces never grow
//! memory, however long a chain runs.

/// Row-major storage of the most recent `capacity` points of dimension `dim`.
#[derive(Clone, Debug)]
pub struct RingBuffer {
    dim: usize,
    capacity: usize,
    data: Vec<f64>,
    /// Index of the slot the next push writes.
    head: usize,
    len: usize,
    /// Total points ever pushed (so consumers can tell what is new since they last looked).
    pushed: u64,
}

impl RingBuffer {
    pub fn new(dim: usize, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        RingBuffer { dim, capacity, data: vec![0.0; dim * capacity], head: 0, len: 0, pushed: 0 }
    }

    pub fn dim(&self) -> usize {
        self.dim
    }
    pub fn capacity(&self) -> usize {
        self.capacity
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Number of points pushed since creation (not bounded by the capacity).
    pub fn total_pushed(&self) -> u64 {
        self.pushed
    }

    pub fn push(&mut self, point: &[f64]) {
        debug_assert_eq!(point.len(), self.dim);
        let at = self.head * self.dim;
        self.data[at..at + self.dim].copy_from_slice(point);
        self.head = (self.head + 1) % self.capacity;
        self.len = (self.len + 1).min(self.capacity);
        self.pushed += 1;
    }

    /// The k-th oldest retained point (k < len).
    pub fn get(&self, k: usize) -> &[f64] {
        let start = (self.head + self.capacity - self.len + k) % self.capacity;
        &self.data[start * self.dim..(start + 1) * self.dim]
    }

    /// The most recent point, if any.
    pub fn last(&self) -> Option<&[f64]> {
        (self.len > 0).then(|| self.get(self.len - 1))
    }

    /// Retained points, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &[f64]> + '_ {
        (0..self.len).map(move |k| self.get(k))
    }

    /// One coordinate of every retained point, oldest first.
    pub fn coordinate(&self, j: usize) -> Vec<f64> {
        self.iter().map(|p| p[j]).collect()
    }

    /// Forget the newest points until only `total` had ever been pushed (as if the later pushes
    /// never happened; points they overwrote stay lost). No-op if `total` ≥ [`Self::total_pushed`].
    pub fn truncate_to(&mut self, total: u64) {
        let drop = self.pushed.saturating_sub(total);
        let removed = (drop.min(self.len as u64)) as usize;
        self.head = (self.head + self.capacity - removed % self.capacity) % self.capacity;
        self.len -= removed;
        self.pushed -= drop;
    }

    pub fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }
}
