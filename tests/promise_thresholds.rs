//! The promise's verdict on a prediction (src/promise.rs `Prediction::failure`, docs/diagnostics.md
//! §7): a bias failure when the law's own E2 exceeds 0.1 (with the relative tolerance of 10⁻⁶ that
//! src/promise.rs documents for defaults placed exactly on the line), else a mixing failure when more
//! than 10 % of runs have E2 > 0.3 after 5,000 samples, else none; bias first (issue 23, ninth
//! mutation pass). The thresholds are the documented numbers, written here, not read from the code.

use sgviz::promise::Prediction;
use sgviz::setting_warning::Failure;

fn verdict(bias: f64, failure_share: f64) -> Option<Failure> {
    Prediction { bias, mean_e2: 0.2, failure_share, lower_bound: false, validity: sgviz::promise::Validity::Valid }.failure()
}

#[test]
fn bias_above_a_tenth_fails_first_and_more_than_a_tenth_of_runs_above_the_claim_fails_mixing() {
    // On the lines: kept.
    assert_eq!(verdict(0.1, 0.1), None);
    assert_eq!(verdict(0.1 * (1.0 + 1e-6), 0.0), None, "the documented 10⁻⁶ tolerance is inclusive");
    assert_eq!(verdict(0.0, 0.0), None);
    // Just over the bias line: a bias failure, whatever the mixing.
    assert_eq!(verdict(0.1 * (1.0 + 3e-6), 0.0), Some(Failure::Bias));
    assert_eq!(verdict(0.2, 0.0), Some(Failure::Bias));
    assert_eq!(verdict(0.2, 0.9), Some(Failure::Bias), "bias is reported before mixing");
    // Under the bias line, more than 10 % of runs over the claim: a mixing failure.
    assert_eq!(verdict(0.05, 0.1001), Some(Failure::Mixing));
    assert_eq!(verdict(0.1, 0.5), Some(Failure::Mixing));
    // NaN shares (states beyond the error law's size: bias only) never fail mixing.
    assert_eq!(verdict(0.05, f64::NAN), None);
}
