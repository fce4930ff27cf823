//! Unit tests of src/data.rs (`data::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::data::*;

#[test]
fn parses_a_small_table() {
    let d = parse_csv(b"a,b,y\n1,2,0\n3,4.5,1\n").unwrap();
    assert_eq!(d.len(), 2);
    assert_eq!(d.feature_names, vec!["a", "b"]);
    assert_eq!(d.row(1), &[3.0, 4.5]);
    assert_eq!(d.responses, vec![0.0, 1.0]);
}

#[test]
fn malformed_inputs_name_row_and_column() {
    let cases: &[(&[u8], &str)] = &[
        (b"", "file is empty"),
        (b"a,y\n", "no data rows"),
        (b"a,y\n1,0\n2\n", "row 3: has 1 columns, the header has 2"),
        (b"a,y\n1,0\nx,1\n", "row 3, column 1 ('a'): 'x' is not a number"),
        (b"a,y\n1,\n", "row 2, column 2 ('y'): empty cell"),
        (b"a,y\n1,inf\n", "not a finite number"),
        (b"y\n1\n", "fewer than 2 columns"),
        (b"a,,y\n1,2,3\n", "row 1, column 2: empty column name"),
        (b"a,y\n\xff,1\n", "not UTF-8"),
        (b"1.5,2,0\n3,4.5,1\n", "row 1 is all numbers (1.5, 2, 0), so it looks like data, not a header"),
        (b"\"1\",2e3,-4,5,6\n3,4.5,1,1,1\n", "row 1 is all numbers (1, 2e3, -4, …)"),
    ];
    for (input, expected) in cases {
        let err = parse_csv(input).unwrap_err();
        assert!(err.contains(expected), "input {:?}: got '{err}', expected '{expected}'", String::from_utf8_lossy(input));
    }
}

/// A header with some numeric names (e.g. years) is still a header.
#[test]
fn a_header_with_some_numeric_names_is_accepted() {
    let d = parse_csv(b"2019,2020,label\n1,2,0\n").unwrap();
    assert_eq!((d.len(), d.response_name.as_str()), (1, "label"));
}

#[test]
fn files_above_the_limit_are_refused_by_size_before_parsing() {
    assert!(check_size(MAX_BYTES as u64).is_ok());
    let err = check_size(MAX_BYTES as u64 + 1).unwrap_err();
    assert!(err.contains("the limit is 50 MB"), "{err}");
    let err = parse_csv(&vec![b'1'; MAX_BYTES + 1]).unwrap_err();
    assert!(err.contains("the limit is 50 MB"), "{err}");
}

#[test]
fn standardisation_gives_zero_mean_unit_variance() {
    let d = parse_csv(b"a,b,y\n1,10,0\n2,10,1\n3,10,0\n6,10,1\n").unwrap().standardised();
    let col: Vec<f64> = (0..4).map(|i| d.row(i)[0]).collect();
    let mean = col.iter().sum::<f64>() / 4.0;
    let var = col.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 4.0;
    assert!(mean.abs() < 1e-12 && (var - 1.0).abs() < 1e-12);
    assert!((0..4).all(|i| d.row(i)[1] == 0.0), "constant column is only centred");
}

#[test]
fn builtin_data_sets_parse_with_their_documented_shapes() {
    let shapes = [("breast_cancer", 569, 30), ("digits_7v9", 359, 64), ("diabetes", 442, 10)];
    for (name, rows, columns) in shapes {
        let d = builtin(name).unwrap();
        assert_eq!((d.len(), d.n_features()), (rows, columns), "{name}");
    }
    assert!(builtin("iris").unwrap_err().contains("allowed: breast_cancer"));
}

#[test]
fn random_projection_is_linear_and_seeded() {
    let d = parse_csv(b"a,b,c,y\n1,0,0,0\n0,1,0,1\n2,1,0,1\n").unwrap();
    let p = d.random_projection(2, 9);
    assert_eq!(p.n_features(), 2);
    // Row 3 = 2·row 1 + row 2 by linearity.
    for c in 0..2 {
        assert!((p.row(2)[c] - (2.0 * p.row(0)[c] + p.row(1)[c])).abs() < 1e-12);
    }
    assert_eq!(p, d.random_projection(2, 9));
    assert_ne!(p, d.random_projection(2, 10));
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut rng = sgviz::rng::chain_rng(5);
    for len in 0..2000 {
        let alphabet = b"0123456789,.-e\n\r\"ab \xff";
        let bytes: Vec<u8> = (0..len % 97).map(|_| alphabet[sgviz::rng::index_below(&mut rng, alphabet.len())]).collect();
        let _ = parse_csv(&bytes);
    }
}
