//! The SGAIS panel's sentence on the surprise rule (docs/sgais.md (SGAIS.19)): which chunks got the
//! extra annealing work, per run, so that a student sees where the particles met data they did not
//! predict (after the distribution shift's change points). Empty when no chunk was boosted (the
//! rule off, or no chunk finished yet).

use super::format::{group_digits, join_and};
use super::run::ChunkRecord;

/// One sentence over the runs `(label, records)`: the first chunk of a run is always boosted (the
/// prior predicts nothing), so the sentence names it once and lists the later boosted chunks by
/// their ends, per run; runs with none are named as such.
pub fn surprise_note(runs: &[(&str, &[ChunkRecord])]) -> String {
    let boosted_runs: Vec<&(&str, &[ChunkRecord])> = runs.iter().filter(|(_, records)| records.iter().any(|r| r.boosted)).collect();
    if boosted_runs.is_empty() {
        return String::new();
    }
    let mut flagged = Vec::new();
    let mut quiet = Vec::new();
    for (label, records) in &boosted_runs {
        let ends: Vec<String> = records.iter().skip(1).filter(|r| r.boosted).map(|r| group_digits(r.n as f64, 0)).collect();
        if ends.is_empty() {
            quiet.push(label.to_string());
        } else {
            flagged.push(format!("n = {} ({label})", join_and(&ends)));
        }
    }
    let first = if boosted_runs.iter().all(|(_, records)| records.first().is_some_and(|r| r.boosted)) { "the first chunk of each run" } else { "the first chunk" };
    let mut text = format!("Surprise rule: extra annealing work for {first}");
    if !flagged.is_empty() {
        text.push_str(&format!(" and, where the particles did not predict the data, for the chunks ending at {}", flagged.join("; ")));
    }
    if !quiet.is_empty() {
        text.push_str(&format!("; no later chunk flagged for {}", join_and(&quiet)));
    }
    text.push('.');
    text
}
