//! Reading plotters' SVG output back in the plot tests: where each drawn element went (formerly
//! `plot::svg_probe` in src/plot/mod.rs, a `#[cfg(test)]` module; issue 23).
#![allow(dead_code)]

/// One SVG element: its tag, stroke and fill colours, the points it covers, and its text.
#[derive(Debug, Clone)]
pub struct Element {
    pub tag: String,
    pub stroke: String,
    pub fill: String,
    pub points: Vec<(f64, f64)>,
    /// Circle radius: how far ink reaches beyond `points` (a line's half stroke may overlap the
    /// frame line it runs along, so lines count by their centre line).
    pub reach: f64,
    pub text: String,
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    Some(tag[start..].split('"').next()?.to_string())
}

fn number(tag: &str, name: &str) -> f64 {
    attribute(tag, name).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
}

/// Every polyline, line, circle, rect and text element of an SVG string.
pub fn elements(svg: &str) -> Vec<Element> {
    let mut out = Vec::new();
    for chunk in svg.split('<').skip(1) {
        let tag_name = chunk.split(|c: char| c.is_whitespace() || c == '>' || c == '/').next().unwrap_or("");
        let head = chunk.split('>').next().unwrap_or("");
        let head = &format!(" {head}");
        let mut reach = 0.0;
        let points = match tag_name {
            "polyline" => attribute(head, "points")
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|p| p.split_once(',').and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?))))
                .collect(),
            "line" => vec![(number(head, "x1"), number(head, "y1")), (number(head, "x2"), number(head, "y2"))],
            "circle" => {
                reach = number(head, "r");
                vec![(number(head, "cx"), number(head, "cy"))]
            }
            "rect" => {
                let (x, y, w, h) = (number(head, "x"), number(head, "y"), number(head, "width"), number(head, "height"));
                vec![(x, y), (x + w, y + h)]
            }
            "text" => vec![(number(head, "x"), number(head, "y"))],
            _ => continue,
        };
        let text = chunk.split_once('>').map(|(_, t)| t.trim().to_string()).unwrap_or_default();
        out.push(Element {
            tag: tag_name.to_string(),
            stroke: attribute(head, "stroke").unwrap_or_default(),
            fill: attribute(head, "fill").unwrap_or_default(),
            points,
            reach,
            text,
        });
    }
    out
}

/// Whether all ink of `e` lies in the rectangle (left, top, right, bottom), ± `slack` pixels.
pub fn inside(e: &Element, (left, top, right, bottom): (f64, f64, f64, f64), slack: f64) -> bool {
    e.points.iter().all(|&(x, y)| {
        x - e.reach >= left - slack && x + e.reach <= right + slack && y - e.reach >= top - slack && y + e.reach <= bottom + slack
    })
}
