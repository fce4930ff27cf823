//! Exporting a panel's retained samples (CSV).

use super::Lab;

impl Lab {
    /// Retained samples as CSV (header: coordinate names).
    pub fn samples_csv(&self) -> String {
        let mut out = self.chain.model().coordinate_names().join(",");
        out.push('\n');
        for p in self.chain.samples().iter() {
            let row: Vec<String> = p.iter().map(|x| x.to_string()).collect();
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }
}
