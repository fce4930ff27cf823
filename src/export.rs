//! Samples as CSV in the long ("tidy") format ArviZ and pandas read directly: one row per draw,
//! columns `chain, draw` and one column per parameter (`az.from_dataframe` / `pd.read_csv` then
//! `set_index(["chain", "draw"])`).

use crate::ring::RingBuffer;

/// A CSV field: quoted (with doubled quotes) when it holds a comma, quote or line break.
fn field(name: &str) -> String {
    if name.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// Every retained sample of every chain, chains numbered from 0 in the order given. `draw` is the
/// sample's index since the chain's samples were last cleared (a ring that dropped its oldest
/// samples starts at the first one it kept), so draws of a chain are consecutive integers.
pub fn long_format_csv(names: &[String], chains: &[&RingBuffer]) -> String {
    let mut out = String::from("chain,draw");
    for name in names {
        out.push(',');
        out.push_str(&field(name));
    }
    out.push('\n');
    for (c, ring) in chains.iter().enumerate() {
        let first = ring.total_pushed() - ring.len() as u64;
        for (k, point) in ring.iter().enumerate() {
            out.push_str(&format!("{c},{}", first + k as u64));
            for x in point {
                out.push(',');
                out.push_str(&x.to_string());
            }
            out.push('\n');
        }
    }
    out
}
