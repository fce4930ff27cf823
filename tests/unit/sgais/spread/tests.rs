//! Unit tests of src/sgais/spread.rs (issue 23, twelfth pass): the replica summary every SGAIS
//! line of the page is written from, against hand-worked values.

use sgviz::sgais::spread::Spread;

/// 1, 2, 3, 6: mean 3, squared deviations 4 + 1 + 0 + 9 = 14, sd √(14/3), se = sd/√4.
#[test]
fn four_values_by_hand() {
    let s = Spread::of(&[1.0, 2.0, 3.0, 6.0]).unwrap();
    assert_eq!((s.count, s.mean, s.min, s.max), (4, 3.0, 1.0, 6.0));
    let sd = (14.0f64 / 3.0).sqrt();
    assert!((s.sd.unwrap() - sd).abs() < 1e-15 && (s.se.unwrap() - sd / 2.0).abs() < 1e-15, "{s:?}");
}

/// Non-finite values are left out; one value has no sd or se; none gives no spread.
#[test]
fn non_finite_values_are_dropped_and_one_value_has_no_spread() {
    let s = Spread::of(&[f64::NAN, 2.0, f64::INFINITY, 4.0]).unwrap();
    assert_eq!((s.count, s.mean, s.sd, s.min, s.max), (2, 3.0, Some(2f64.sqrt()), 2.0, 4.0));
    let one = Spread::of(&[-7.0, f64::NEG_INFINITY]).unwrap();
    assert_eq!((one.count, one.mean, one.sd, one.se, one.min, one.max), (1, -7.0, None, None, -7.0, -7.0));
    assert_eq!(Spread::of(&[f64::NAN]), None);
    assert_eq!(Spread::of(&[]), None);
}
