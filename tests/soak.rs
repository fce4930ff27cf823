//! Bounded memory (issue 8): every registered sampler runs for a long time through the page's
//! [`Lab`] (chain + sample ring + density image) on a cheap target, and the live heap — counted by
//! this test binary's own global allocator — must not grow.
//!
//! Steps per sampler: `SGVIZ_SOAK_STEPS` (default 10⁶ for `cargo test`; `make soak` runs 10⁷).
//! Assertion: live heap after the full run ≤ live heap after 10⁵ steps + 64 KiB. All long-lived
//! buffers (sample ring of 10⁵ points, density image, trajectory pieces, the SBPS history) are
//! allocated or full by 10⁵ steps. Over the remaining 9·10⁵ steps (10⁶ run) a leak of one 8-byte
//! allocation every 100 steps adds 72 KB and fails; at 10⁷ steps one every 1000 steps fails; a
//! Vec growing with the step count fails by orders of magnitude. (Observed growth: 0 bytes.)
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
const CHUNK: u64 = 20_000;

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
    let steps: u64 = std::env::var("SGVIZ_SOAK_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
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
