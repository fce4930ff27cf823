//! src/lab/analysis.rs `Lab::mixing`'s "ESS per 1,000 gradients", which the page prints beside the
//! ESS (issue 23, twentieth mutation pass: `1000.0 * e` → `1000.0 / e` survived, since
//! tests/frozen_chain.rs's frozen chain has ESS 1, where the two agree). Oracle: SGHMC on the
//! Gaussian toy with minibatch = N = 100 takes 100 gradients a sample (docs/diagnostics.md §12),
//! so per 1,000 gradients the ESS of a window of W samples is 1,000·ESS/(100·W).

use sgviz::chain::ChainConfig;
use sgviz::lab::Lab;

#[test]
fn ess_per_thousand_gradients_is_the_ess_over_the_windows_gradients() {
    let config = ChainConfig::new("gaussian", "sghmc", 1).with("batch_size", 100).with("sghmc_lr", 9.233e-4).with("friction", 0.01);
    let mut lab = Lab::new(config, 200, 200, 1.0).unwrap();
    lab.run(2_000);
    let mixing = lab.mixing();
    let window = mixing["window"].as_f64().unwrap();
    assert_eq!(window, 2_000.0);
    for j in 0..2 {
        let ess = mixing["ess"][j].as_f64().unwrap();
        let per_1000 = mixing["ess_per_1000_grads"][j].as_f64().unwrap();
        assert!(ess > 2.0, "coordinate {j}: a moving chain ({mixing})");
        let by_hand = 1000.0 * ess / (100.0 * window);
        assert!((per_1000 - by_hand).abs() < 1e-12 * by_hand, "coordinate {j}: {per_1000} against {by_hand}");
    }
}

/// The page's ESS worker (www/mixing.js) receives the window packed into one array
/// (`Lab::mixing_window`, `MixingWindow::packed`) and answers with `MixingWindow::mixing` of it
/// unpacked: the numbers must be the ones `Lab::mixing` gives on the page's thread, and the window
/// must hold the displayed pair's last samples (read here from the chain's ring).
#[test]
fn the_packed_window_the_worker_receives_gives_the_pages_mixing_numbers() {
    use sgviz::plot::diagnostics_panel::MixingWindow;
    let config = ChainConfig::new("banana", "sgld", 3);
    let mut lab = Lab::new(config, 200, 200, 1.0).unwrap();
    lab.run(3_000);
    let window = lab.mixing_window();
    let ring = lab.chain().samples();
    assert_eq!(window.x.len(), ring.len().min(20_000));
    let last = ring.get(ring.len() - 1);
    assert_eq!((window.x.last().copied(), window.y.last().copied()), (Some(last[0]), Some(last[1])), "the window ends at the newest sample of the pair");
    let unpacked = MixingWindow::unpacked(&window.packed()).expect("a packed window unpacks");
    assert_eq!(unpacked, window);
    assert_eq!(unpacked.mixing(), lab.mixing());
    assert!(MixingWindow::unpacked(&[1.0]).is_none(), "no header");
    assert!(MixingWindow::unpacked(&[1.0, 2.0, 3.0]).is_none(), "x and y of different lengths");
}
