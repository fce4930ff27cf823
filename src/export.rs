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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_chains_in_long_format_with_draws_counted_from_the_first_kept() {
        let mut a = RingBuffer::new(2, 3);
        for k in 0..5 {
            a.push(&[k as f64, -(k as f64)]);
        }
        let mut b = RingBuffer::new(2, 3);
        b.push(&[0.5, 1.5]);
        let names = vec!["θ1".to_string(), "a,b".to_string()];
        let csv = long_format_csv(&names, &[&a, &b]);
        // Ring a kept pushes 2, 3, 4 of 0..5; ring b its only push.
        assert_eq!(csv, "chain,draw,θ1,\"a,b\"\n0,2,2,-2\n0,3,3,-3\n0,4,4,-4\n1,0,0.5,1.5\n");
    }
}
