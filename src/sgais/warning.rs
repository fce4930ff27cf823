//! A plain warning beside an SGAIS estimate when its own numbers say it cannot be trusted
//! (issue 26: the paper-settings run reported −14,394 ± 49 against the exact −14,242 with ESS 1,
//! and said nothing). Two signs, each read off the run: the importance weights collapsed onto a
//! few particles (ESS below 5 % of M, or below 2), so the ± of the replicas understates the error;
//! or the error against the exact value exceeds 3 standard errors of the replica mean, so the
//! estimate is biased beyond what its spread shows.

use super::spread::Spread;

/// Smallest acceptable share of the M particles carrying the weight.
const ESS_SHARE: f64 = 0.05;
/// Error beyond this many standard errors of the replica mean is called a bias.
const ERROR_IN_SE: f64 = 3.0;

/// The warning for an estimate with weights' `ess` over `particles` and `error` against the exact
/// value (when known), or None when neither sign is present.
pub fn reliability_warning(ess: Option<&Spread>, particles: usize, error: Option<&Spread>) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(e) = ess.filter(|e| e.min < (ESS_SHARE * particles as f64).max(2.0)) {
        parts.push(format!(
            "the particle weights collapsed (ESS {:.1} of M = {particles}): the estimate rests on a few particles, so its ± understates its error",
            e.min
        ));
    }
    if let Some((mean, se)) = error.and_then(|e| e.se.map(|se| (e.mean, se))).filter(|(m, se)| *se > 0.0 && m.abs() > ERROR_IN_SE * se) {
        parts.push(format!("the error against the exact value ({mean:+.1} nats) is {:.1} standard errors: the replicas agree with each other, not with the truth", mean.abs() / se));
    }
    (!parts.is_empty()).then(|| format!("Warning: {}.", parts.join("; and ")))
}
