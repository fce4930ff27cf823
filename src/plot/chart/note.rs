//! A chart with nothing to plot, drawn as its sentence alone (issue 26: the bouncy samplers' "No
//! noise chart: …" and the SGAIS charts before a run were drawn inside an empty axes frame, which
//! reads as a broken chart). The title is wrapped to the canvas and centred, with no frame, axes
//! or legend. Tested in tests/unit/plot/chart/tests.rs (`a_chart_without_data_is_its_sentence_alone`).

use super::labels::{wrap_title, LabelBox};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The note's text colour: a dark grey, legible on white but not mistaken for data.
const NOTE: RGBColor = RGBColor(70, 70, 70);

/// Draw `text` wrapped and centred on `root` (already filled white), at the charts' title size;
/// returns the estimated boxes of its lines.
pub fn draw_note<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, text: &str, scale: f64) -> Result<Vec<LabelBox>, DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |css: f64| (css * scale).round().max(1.0) as u32;
    let (font, margin) = (px(15.0), px(12.0) as i32);
    let (width, height) = root.dim_in_pixel();
    let lines = wrap_title(text, width as i32 - 2 * margin, 0.58 * font as f64);
    let line_height = (font as f64 * 1.35).ceil() as i32;
    let top = ((height as i32 - lines.len() as i32 * line_height) / 2).max(margin);
    let mut boxes = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let (x, y) = (width as i32 / 2, top + k as i32 * line_height);
        root.draw(&Text::new(line.clone(), (x, y), ("sans-serif", font).into_font().color(&NOTE).pos(Pos::new(HPos::Center, VPos::Top))))?;
        let half = (line.chars().count() as f64 * 0.58 * font as f64 / 2.0).ceil() as i32;
        boxes.push((x - half, y, x + half, y + line_height));
    }
    Ok(boxes)
}
