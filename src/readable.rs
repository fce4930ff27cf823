//! Numbers in the sentences and chart labels the core writes, as the page writes them (www/format.js
//! `formatNumber`): three significant digits, thousands separated ("135,000"), a superscript power
//! of ten below 10⁻⁴ ("9.23·10⁻⁵", never "e-5"). A leaf: it imports nothing, so any module may use it.

/// A number as the slider shows it (3 significant digits, www/format.js `formatNumber`), as a
/// lecturer reads it: 0.0512, 1.24, 1,230, 12,300, 100,000, 0.000923, 9.23·10⁻⁵ (never "e-5").
pub fn show(x: f64) -> String {
    if !x.is_finite() {
        return "—".to_string(); // as the page writes a number it cannot show, never "inf" or "NaN"
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let x: f64 = format!("{x:.2e}").parse().unwrap_or(x); // rounded first: 0.00009999… is 0.0001
    if x.abs() < 1e-4 || x.abs() >= 1e15 {
        return power_of_ten(x);
    }
    let decimals = 2 - x.abs().log10().floor() as i32;
    let scale = 10f64.powi(decimals);
    let rounded = (x * scale).round() / scale;
    let text = format!("{rounded:.*}", decimals.max(0) as usize);
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text };
    if rounded.abs() >= 1e3 { thousands(&text) } else { text }
}

/// "9.23·10⁻⁵": 3 significant digits times a power of ten with a superscript exponent.
fn power_of_ten(x: f64) -> String {
    let text = format!("{x:.2e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    times_ten_to(mantissa.trim_end_matches('0').trim_end_matches('.'), exponent)
}

/// "1.2" and "6" (Rust's `{:e}` exponent) → "1.2·10⁶", "1" and "-7" → "1·10⁻⁷": the page's power of
/// ten (www/format.js `formatNumber`), for chart ticks as for sentences (issue 26: ticks read "5e7").
pub fn times_ten_to(mantissa: &str, exponent: &str) -> String {
    let superscript: String = exponent.chars().map(|c| match c {
        '-' => '⁻',
        d => "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().nth(d.to_digit(10).unwrap_or(0) as usize).unwrap_or(d),
    }).collect();
    format!("{mantissa}·10{superscript}")
}

/// A fixed-notation number's integer part grouped by thousands, as the page prints counts
/// ("110000" → "110,000", "-1234.5" → "-1,234.5"); shorter integer parts unchanged ("1000" → "1,000").
pub fn group_thousands(text: &str) -> String {
    let (whole, fraction) = text.split_once('.').map_or((text, None), |(w, f)| (w, Some(f)));
    let digits = whole.trim_start_matches('-');
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return text.to_string();
    }
    let grouped = thousands(whole);
    fraction.map_or(grouped.clone(), |f| format!("{grouped}.{f}"))
}

/// An integer's digits with a comma every three ("12300" → "12,300"; a leading minus kept).
fn thousands(digits: &str) -> String {
    let (sign, digits) = digits.strip_prefix('-').map_or(("", digits), |d| ("-", d));
    let grouped: Vec<String> = digits.as_bytes().rchunks(3).rev().map(|c| String::from_utf8_lossy(c).into_owned()).collect();
    format!("{sign}{}", grouped.join(","))
}

/// A share of runs as a percentage that reads as above `limit` when it is above it: whole
/// percents, else the first number of decimals (up to 3) whose rounding is above the limit
/// (review s42: "in 10 % of runs (at most 10 %)" for a share of 10.2 %). A share at or below
/// the limit is shown in whole percents.
pub fn percent_above(share: f64, limit: f64) -> String {
    let (p, l) = (100.0 * share, 100.0 * limit);
    (0..=3usize)
        .map(|d| format!("{p:.d$}"))
        .find(|text| !(share > limit) || text.parse::<f64>().is_ok_and(|v| v > l))
        .unwrap_or_else(|| format!("{p:.3}"))
}
