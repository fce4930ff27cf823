//! The `#[wasm_bindgen]` surface of the scan charts ([`crate::scan`]): a Web Worker builds a
//! [`ScanRunner`] from the figure's scan spec (JSON), advances it in slices and posts its chart
//! spec and points as JSON. Marshalling only.

use crate::scan::{Scan, ScanSpec};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct ScanRunner {
    scan: Scan,
}

#[wasm_bindgen]
impl ScanRunner {
    #[wasm_bindgen(constructor)]
    pub fn new(spec_json: &str) -> Result<ScanRunner, JsError> {
        let spec: ScanSpec = serde_json::from_str(spec_json).map_err(|_| JsError::new("the figure's scan settings could not be read"))?;
        Ok(ScanRunner { scan: Scan::new(spec).map_err(|e| JsError::new(&e))? })
    }

    /// Fraction of the runs done after up to `max_work` more gradient evaluations (or steps); −1 on failure.
    pub fn advance(&mut self, max_work: f64) -> f64 {
        self.scan.advance(max_work.clamp(1.0, 1e9) as u64)
    }

    /// The chart spec as JSON (finished points only).
    pub fn chart_json(&self) -> String {
        serde_json::to_string(&self.scan.chart()).unwrap_or_default()
    }

    /// The finished points per curve as JSON: `[[{x, y, se, replicas}, …], …]`.
    pub fn points_json(&self) -> String {
        serde_json::to_string(&self.scan.points()).unwrap_or_default()
    }

    /// Why the scan stopped, when a run failed.
    pub fn failure(&self) -> Option<String> {
        self.scan.failure().map(str::to_string)
    }
}
