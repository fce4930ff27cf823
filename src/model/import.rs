//! Rebuilding a target a worker exported: the dispatch from an [`ExportedModel`]'s kind to the
//! target that reads it. It sits beside the targets (not in `model/mod.rs`), so the trait module
//! below them never imports a target.

use super::{ExportedModel, Model};

/// Rebuild a target from [`ExportedModel`] parts (the inverse of [`Model::export_parts`]), without
/// repeating its construction (data generation, mode search).
pub fn import_parts(parts: ExportedModel) -> Result<Box<dyn Model>, String> {
    match parts.header.get("kind").and_then(|k| k.as_str()) {
        Some("logistic") => Ok(Box::new(super::logistic::LogisticRegression::from_parts(parts)?)),
        Some("linear") => Ok(Box::new(super::linear::LinearRegression::from_parts(parts)?)),
        other => Err(format!("cannot import a target of kind {other:?}; allowed: logistic, linear")),
    }
}
