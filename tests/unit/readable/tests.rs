use sgviz::readable::{group_thousands, percent_above, show, times_ten_to};

/// A share above the promise's 10 % never reads as 10 % (review s42: "in 10 % of runs (at most
/// 10 %)"); hand-worked roundings.
#[test]
fn a_share_above_the_limit_reads_above_it() {
    assert_eq!(percent_above(0.41, 0.1), "41");
    assert_eq!(percent_above(0.102, 0.1), "10.2");
    assert_eq!(percent_above(0.10004, 0.1), "10.004");
    assert_eq!(percent_above(0.1049, 0.1), "10.5");
    assert_eq!(percent_above(0.05, 0.1), "5");
    assert_eq!(percent_above(0.1, 0.1), "10");
}

/// `show` writes what the page's `formatNumber` (www/format.js, a separate implementation) writes:
/// the pairs below are its outputs under node for the same inputs (issue 23, eighteenth pass),
/// among them the module doc's examples.
#[test]
fn show_writes_what_the_pages_format_number_writes() {
    let page = [
        (0.0, "0"), (0.05123, "0.0512"), (1.2449, "1.24"), (1234.0, "1,230"), (12345.0, "12,300"),
        (99999.5, "100,000"), (0.00092345, "0.000923"), (0.000092345, "9.23·10⁻⁵"), (0.000099996, "0.0001"),
        (-1234.5, "-1,230"), (1e15, "1·10¹⁵"), (2.5e-7, "2.5·10⁻⁷"), (-3.14159e-6, "-3.14·10⁻⁶"),
        (999.96, "1,000"), (123456789.0, "123,000,000"), (-0.5, "-0.5"), (7.0, "7"),
        (f64::INFINITY, "—"), (f64::NEG_INFINITY, "—"), (f64::NAN, "—"),
    ];
    for (x, text) in page {
        assert_eq!(show(x), text, "show({x})");
    }
}

/// The power of ten and the thousands grouping as their doc comments state them, by hand.
#[test]
fn powers_of_ten_and_thousands_are_written_as_the_doc_says() {
    assert_eq!(times_ten_to("1.2", "6"), "1.2·10⁶");
    assert_eq!(times_ten_to("1", "-7"), "1·10⁻⁷");
    assert_eq!(times_ten_to("5", "10"), "5·10¹⁰");
    for (text, grouped) in [("110000", "110,000"), ("-1234.5", "-1,234.5"), ("1000", "1,000"), ("999", "999"), ("-123", "-123"), ("12a45", "12a45"), ("1234567.25", "1,234,567.25")] {
        assert_eq!(group_thousands(text), grouped, "group_thousands({text})");
    }
}
