//! The `#[wasm_bindgen]` surface of nested sampling on the page (issue 22): a Web Worker builds a
//! [`NestedRunner`] from a `NestedSpec` (JSON, src/sgais/nested_page.rs), advances it a bounded
//! number of iterations per call and posts its `NestedResult`; the page combines SGAIS, AIS and NS
//! runs with [`sgais_combine_ns_json`]. Marshalling only.

use crate::sgais::nested::NestedRun;
use crate::sgais::nested_page::NestedSpec;
use wasm_bindgen::prelude::*;

fn js_error(message: impl AsRef<str>) -> JsError {
    JsError::new(message.as_ref())
}

/// One nested-sampling run (one replica at one data size) for a Web Worker.
#[wasm_bindgen]
pub struct NestedRunner {
    run: NestedRun,
}

#[wasm_bindgen]
impl NestedRunner {
    #[wasm_bindgen(constructor)]
    pub fn new(spec_json: &str, csv: Option<Vec<u8>>) -> Result<NestedRunner, JsError> {
        crate::entry_counts::count("sgais");
        let spec: NestedSpec = serde_json::from_str(spec_json).map_err(|_| js_error(crate::web::SGAIS_UNREADABLE))?;
        let data = match csv {
            Some(bytes) => Some(crate::data::parse_csv(&bytes).map_err(js_error)?),
            None => None,
        };
        let (run, _seed) = spec.build(data.as_ref()).map_err(js_error)?;
        Ok(NestedRunner { run })
    }

    /// Up to `iterations` more nested-sampling iterations; false once the run ended.
    pub fn advance(&mut self, iterations: u32) -> bool {
        crate::entry_counts::count("sgais");
        !self.run.advance(iterations.max(1) as usize)
    }

    /// The `NestedResult` so far as JSON, with the wall time measured by the worker.
    pub fn result_json(&self, seconds: f64) -> String {
        serde_json::to_string(&self.run.result(seconds.is_finite().then_some(seconds))).unwrap_or_default()
    }
}

/// [`crate::web::sgais_combine_json`] plus nested-sampling results (a JSON list of `NestedResult`).
#[wasm_bindgen]
pub fn sgais_combine_ns_json(runs_json: &str, ns_json: &str) -> Result<String, JsError> {
    let runs: Vec<crate::sgais::page::PageRun> = serde_json::from_str(runs_json).map_err(|_| js_error(crate::web::SGAIS_UNREADABLE))?;
    let nested: Vec<crate::sgais::nested::NestedResult> = serde_json::from_str(ns_json).map_err(|_| js_error(crate::web::SGAIS_UNREADABLE))?;
    Ok(serde_json::to_string(&crate::sgais::page::combine_with_nested(&runs, &nested)).unwrap_or_default())
}

/// [`crate::web::sgais_gallery_json`] plus nested-sampling results: NS's cost beside SGAIS's and AIS's
/// (src/sgais/gallery.rs `gallery_with_nested`).
#[wasm_bindgen]
pub fn sgais_gallery_ns_json(runs_json: &str, ns_json: &str) -> Result<String, JsError> {
    let runs: Vec<crate::sgais::page::PageRun> = serde_json::from_str(runs_json).map_err(|_| js_error(crate::web::SGAIS_UNREADABLE))?;
    let nested: Vec<crate::sgais::nested::NestedResult> = serde_json::from_str(ns_json).map_err(|_| js_error(crate::web::SGAIS_UNREADABLE))?;
    Ok(serde_json::to_string(&crate::sgais::gallery::gallery_with_nested(&runs, &nested)).unwrap_or_default())
}

/// Check the panel's nested-sampling settings (`[[name, value], ...]`): "" when they are valid,
/// otherwise the message naming the control (src/sgais/nested_page.rs `split_nested_settings`).
#[wasm_bindgen]
pub fn sgais_check_ns_settings(settings_json: &str) -> String {
    let settings: Vec<(String, String)> = serde_json::from_str(settings_json).unwrap_or_default();
    crate::sgais::nested_page::split_nested_settings(&settings).err().unwrap_or_default()
}
