//! The `#[wasm_bindgen]` surface of the page's ESS worker (www/mixing.js): the mixing numbers of a
//! chain from the window the page packed ([`MixingWindow`], docs/diagnostics.md §12). Marshalling only.

use crate::plot::diagnostics_panel::MixingWindow;
use crate::web::WebLab;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(js_class = Lab)]
impl WebLab {
    /// What `mixing_json` is computed from, packed for the worker (`mixing_of_window_json` there):
    /// O(window), a copy of the displayed pair's last 20,000 samples.
    pub fn mixing_window(&self) -> Vec<f64> {
        self.lab.mixing_window().packed()
    }
    /// How many times the chain's statistics were cleared (a slider moved, Reset, a seek): mixing
    /// numbers from a window taken at another count are another setting's (www/mixing.js).
    pub fn statistics_cleared(&self) -> f64 {
        self.lab.chain().clears() as f64
    }
}

/// `mixing_json` of a chain from its packed `mixing_window`.
#[wasm_bindgen]
pub fn mixing_of_window_json(packed: Vec<f64>) -> Result<String, JsError> {
    let window = MixingWindow::unpacked(&packed).ok_or_else(|| JsError::new("The ESS could not be computed: press Reset."))?;
    Ok(window.mixing().to_string())
}
