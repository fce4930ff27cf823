//! Bounded memory (issue 8): every registered sampler runs for a long time through the page's
//! [`Lab`] (chain + sample ring + density image) on a cheap target, and the live heap — counted by
//! this test binary's own global allocator — must not grow.
//!
//! Steps per sampler: `SGVIZ_SOAK_STEPS` (default 3·10⁵ for `cargo test`; `make soak` runs 10⁷).
//! Assertion: live heap after the full run ≤ live heap after 10⁵ steps + 64 KiB. All long-lived
//! buffers (sample ring of 10⁵ points, density image, trajectory pieces, the SBPS history) are
//! allocated or full by 10⁵ steps. (Observed growth: 0 bytes.)
//!
//! The size of the `cargo test` run follows from the defects it guards (issue 8: memory that
//! grows with the step count; issue 23: sized for CI), with N steps in all, N − 10⁵ after the
//! reference reading, and the live heap counted by allocation size:
//! - a buffer that keeps one element per step or event (the ring or the SBPS history unbounded): a
//!   Vec of 8-byte elements counts its capacity, which doubles; 102,000 elements at the reference
//!   (2,000 steps of [`lab_for`] first) sit in a capacity of 131,072, which doubles to 262,144
//!   (+1 MiB, 16 × the allowance) at step ≈ 1.3·10⁵ and again at ≈ 2.6·10⁵: caught from
//!   N ≈ 1.3·10⁵ on, by 3 MiB at 3·10⁵;
//! - separate allocations leaked as the chain runs, b bytes every k steps: b(N − 10⁵)/k bytes, caught
//!   when k < b(N − 10⁵)/65,536: for 8 bytes, one every ≤ 24 steps at N = 3·10⁵ (at 10⁶: ≤ 109;
//!   `make soak`'s 10⁷: ≤ 1,208);
//! - a leak per read-out of the page ([`Lab::state`], [`Lab::path`] after every [`CHUNK`] steps):
//!   (N − 10⁵)/CHUNK read-outs, 50 at N = 3·10⁵ (45 with the 20,000-step chunks of the 10⁶ run):
//!   one of ≥ 1,311 bytes per read-out is caught (the 10⁶ run: ≥ 1,457).
//! Checked by leaking on purpose in `Lab::run` (BENCHMARKS.md, "CI time", fourth round): one 8-byte
//! Vec element per step fails at 3·10⁵ with the live heap 3 MiB up, as derived. The figures for
//! sparse separate allocations are the arithmetic above, not a run (a leaked `Box` that nothing
//! reads was removed by the optimiser, so that breakage never reached the heap).
//! This file holds a single test so no other test's allocations run concurrently.

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;
use sgviz::registry::SAMPLERS;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const WARM_STEPS: u64 = 100_000;
const ALLOWED_GROWTH: isize = 64 * 1024;
const CHUNK: u64 = 4_000;

/// A cheap target the sampler runs on at its default settings: the 2-D Gaussian (pseudo-data
/// N = 100), or logistic regression with N = 200 for samplers that cannot run there or diverge
/// there (SGFS/OSGFS: the Gaussian's pseudo-data scores are identical, so the empirical Fisher is 0).
fn lab_for(sampler: &str) -> Lab {
    let candidates = [ChainConfig::new("gaussian", sampler, 7), ChainConfig::new("logreg", sampler, 7).with("n_points", 200)];
    for config in candidates {
        if let Ok(mut lab) = Lab::new(config, 200, 200, 1.0) {
            if lab.run(2000) == 2000 {
                return lab;
            }
        }
    }
    panic!("{sampler}: no cheap target runs at default settings");
}

fn run(lab: &mut Lab, steps: u64) {
    let mut done = 0;
    while done < steps {
        let ran = lab.run(CHUNK.min(steps - done));
        // Read-outs the page takes every frame (they allocate and must free).
        let _ = lab.state();
        let _ = lab.path();
        assert!(ran > 0, "chain stopped: {:?}", lab.chain().status());
        done += ran;
    }
}

#[test]
fn live_heap_stays_flat_over_long_runs_of_every_sampler() {
    let steps: u64 = std::env::var("SGVIZ_SOAK_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(300_000);
    let mut report = Vec::new();
    for spec in SAMPLERS {
        let mut lab = lab_for(spec.name);
        let started = std::time::Instant::now();
        run(&mut lab, WARM_STEPS);
        let warm = LIVE.load(Ordering::Relaxed);
        run(&mut lab, steps - WARM_STEPS);
        let end = LIVE.load(Ordering::Relaxed);
        report.push(format!("{:8}: live heap {warm} → {end} bytes (Δ {}) over {steps} steps in {:.1?}", spec.name, end - warm, started.elapsed()));
        assert!(end - warm <= ALLOWED_GROWTH, "{}: live heap grew by {} bytes between step {WARM_STEPS} and step {steps}\n{}", spec.name, end - warm, report.join("\n"));
    }
    println!("{}", report.join("\n"));
}
