//! SBPS and pSBPS refuse a run whose minibatch gradients carry no noise (full batches n ≥ N on a
//! non-Gaussian target without synthetic noise: the band has no margin, docs/bouncy.md), and
//! refuse it the same way whichever slider makes it: N lowered to n (a rebuild) or n raised to N
//! (a live move). Review s52: BPS lesson step 4 refused N → 10 at n = 100 but ran n → 1,000 at
//! N = 1,000, with the remedy "Raise the minibatch size n to 1,000 (now 1,000)". A refused live
//! move changes nothing: n stays where it was, and a move to n < N is still accepted after it.

use sgviz::chain::{Chain, ChainConfig};

fn logreg(sampler: &str, n_points: usize, batch: usize) -> ChainConfig {
    ChainConfig::new("logreg", sampler, 1).with("n_points", n_points.to_string()).with("batch_size", batch.to_string())
}

#[test]
fn n_raised_to_n_data_is_refused_live_as_its_build_is() {
    for sampler in ["sbps", "psbps"] {
        let built = Chain::new(&logreg(sampler, 1000, 1000));
        let build_error = built.err().unwrap_or_else(|| panic!("{sampler}: a full batch on logreg builds"));
        assert!(build_error.contains("cannot run") && build_error.contains("Pick a minibatch n < N"), "{build_error}");
        let mut chain = Chain::new(&logreg(sampler, 1000, 100)).unwrap();
        chain.run(200);
        let live = chain.set_sampler_param("batch_size", 1000.0).expect_err("n = N accepted live");
        assert_eq!(live, build_error, "{sampler}: the live refusal says what the build's says");
        assert_eq!(chain.sampler_params().get_usize("batch_size"), 100, "{sampler}: a refused move changes nothing");
        let steps = chain.steps();
        assert_eq!(chain.run(50), 50, "{sampler}: the chain runs on after the refusal");
        assert_eq!(chain.steps(), steps + 50);
        chain.set_sampler_param("batch_size", 999.0).unwrap_or_else(|e| panic!("{sampler}: n = 999 < N refused: {e}"));
        assert_eq!(chain.sampler_params().get_usize("batch_size"), 999);
    }
}

/// Where the band is exact (a Gaussian target) or the gradients carry synthetic noise, a full
/// batch is a valid setting, live as at a build.
#[test]
fn a_full_batch_is_accepted_where_the_gradients_are_noisy_or_the_band_exact() {
    let mut gaussian = Chain::new(&ChainConfig::new("gaussian", "sbps", 1)).unwrap();
    let n_data = gaussian.model().n_data();
    gaussian.set_sampler_param("batch_size", n_data as f64).unwrap_or_else(|e| panic!("Gaussian, n = N refused: {e}"));
    let noisy = ChainConfig::new("banana", "sbps", 1).with("grad_noise", "1");
    let mut banana = Chain::new(&noisy).unwrap();
    let n_data = banana.model().n_data();
    banana.set_sampler_param("batch_size", n_data as f64).unwrap_or_else(|e| panic!("banana with s = 1, n = N refused: {e}"));
}
