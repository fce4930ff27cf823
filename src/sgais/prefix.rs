//! The replicas compared before they finish (docs/sgais.md §14): at the largest checkpoint that at
//! least two replicas have reached, their log Ẑ so far are estimates of the evidence of the same
//! data prefix (replicas share the chunk grid), so the agreement check of [`super::agreement`]
//! applies there as it does to the final values. In class time (issue 26) this is the first
//! spread and the first disagreement flag a slide can show.

use super::agreement::{agreement, Agreement};
use super::format::group_digits;
use super::replicas::{ReplicaResult, Spread};
use serde::{Deserialize, Serialize};

/// The replicas' log Ẑ at the deepest checkpoint reached by two or more of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrefixCheck {
    /// The checkpoint: data processed, common to the replicas counted.
    pub n: usize,
    /// Replicas that reached it (of all the replicas reported).
    pub replicas: usize,
    /// Their log Ẑ at n: mean, sd, standard error of the mean, range.
    pub log_z: Spread,
    /// The agreement check on those values and the variances their weights predict at n.
    pub agreement: Option<Agreement>,
    /// The check in words, saying where it is made ("at n = …, R replicas so far").
    pub text: String,
}

/// The check at the deepest checkpoint two or more replicas have reached; None before that.
pub fn prefix_check(results: &[ReplicaResult]) -> Option<PrefixCheck> {
    let mut depths: Vec<usize> = results.iter().map(|r| r.records.len()).collect();
    depths.sort_unstable_by(|a, b| b.cmp(a));
    let depth = *depths.get(1)?;
    if depth == 0 {
        return None;
    }
    let at: Vec<_> = results.iter().filter_map(|r| r.records.get(depth - 1)).collect();
    let n = at[0].n;
    let values: Vec<f64> = at.iter().map(|c| c.log_z).collect();
    let variances: Vec<f64> = at.iter().map(|c| c.log_z_var).collect();
    let log_z = Spread::of(&values)?;
    let agreement = agreement(&values, &variances);
    let text = match &agreement {
        Some(a) => format!("So far, at n = {} ({} replicas there): {}", group_digits(n as f64, 0), at.len(), a.sentence()),
        None => String::new(),
    };
    Some(PrefixCheck { n, replicas: at.len(), log_z, agreement, text })
}
