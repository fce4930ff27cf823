//! Numbers as the SGAIS panel and CLI sentences print them (shared by the replica summary, the
//! agreement check and the shift comparison).

/// Thousands separators and a fixed number of decimals, e.g. −142,013.21.
pub fn group_digits(x: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, x.abs());
    let (int, frac) = text.split_once('.').map_or((text.as_str(), None), |(i, f)| (i, Some(f)));
    let mut grouped = String::new();
    for (k, ch) in int.chars().enumerate() {
        if k > 0 && (int.len() - k).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if x < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') { "−" } else { "" };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(-142013.4794, 2), "−142,013.48");
        assert_eq!(group_digits(999.996, 2), "1,000.00");
        assert_eq!(group_digits(12.0, 0), "12");
        assert_eq!(group_digits(-0.001, 2), "0.00");
    }

    /// Issue 23: each of cargo-mutants' 14 mutants of `group_digits` changes one of these, except
    /// `x < 0.0` → `x <= 0.0`, equivalent: at x = 0 (either sign) every printed digit is 0, so no sign.
    #[test]
    fn groups_fall_every_three_digits_from_the_right_and_only_a_nonzero_negative_gets_a_sign() {
        assert_eq!(group_digits(1234.5, 1), "1,234.5");
        assert_eq!(group_digits(-1234567.0, 0), "−1,234,567");
        assert_eq!(group_digits(123456.0, 0), "123,456");
        assert_eq!(group_digits(-12.34, 1), "−12.3");
        assert_eq!(group_digits(12.0, 1), "12.0");
        assert_eq!(group_digits(0.0, 2), "0.00");
        assert_eq!(group_digits(-0.0, 2), "0.00");
        assert_eq!(group_digits(-0.4, 0), "0");
    }
}

/// A list in words: "a", "a and b", "a, b and c".
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
