//! Data sets: a CSV reader with row-and-column error messages, and standardisation as an explicit
//! option. Format: a header row, numeric columns, the last column is the response (0/1 labels for
//! logistic regression, real values for linear regression).

/// Breast Cancer Wisconsin (Diagnostic), 569 × 30 features + `malignant` (data/README.md).
pub const BREAST_CANCER_CSV: &str = include_str!("../data/breast_cancer.csv");
/// Optical digits, 7 versus 9, 359 × 64 pixels + `is_nine` (data/README.md).
pub const DIGITS_7V9_CSV: &str = include_str!("../data/digits_7v9.csv");
/// Diabetes progression, 442 × 10 features + `progression` (data/README.md).
pub const DIABETES_CSV: &str = include_str!("../data/diabetes.csv");

/// Names of the data sets shipped inside the binary (and the wasm module).
pub const BUILTIN: &[&str] = &["breast_cancer", "digits_7v9", "diabetes"];

/// One of the shipped data sets, parsed (raw features, not standardised).
pub fn builtin(name: &str) -> Result<Dataset, String> {
    let text = match name {
        "breast_cancer" => BREAST_CANCER_CSV,
        "digits_7v9" => DIGITS_7V9_CSV,
        "diabetes" => DIABETES_CSV,
        _ => return Err(format!("unknown data set '{name}'; allowed: {}", BUILTIN.join(", "))),
    };
    parse_csv(text.as_bytes())
}

/// Largest accepted upload, in bytes.
pub const MAX_BYTES: usize = 50 * 1024 * 1024;
/// Largest accepted number of data rows.
pub const MAX_ROWS: usize = 1_000_000;

/// Features (row-major N × d) and responses.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    pub feature_names: Vec<String>,
    pub response_name: String,
    pub features: Vec<f64>,
    pub responses: Vec<f64>,
}

impl Dataset {
    /// Number of rows N.
    pub fn len(&self) -> usize {
        self.responses.len()
    }
    pub fn is_empty(&self) -> bool {
        self.responses.is_empty()
    }
    /// Number of features d.
    pub fn n_features(&self) -> usize {
        self.feature_names.len()
    }
    /// Row i's features.
    pub fn row(&self, i: usize) -> &[f64] {
        let d = self.n_features();
        &self.features[i * d..(i + 1) * d]
    }

    /// A copy with every feature column shifted to mean 0 and scaled to standard deviation 1
    /// (constant columns are only centred).
    pub fn standardised(&self) -> Dataset {
        let (n, d) = (self.len(), self.n_features());
        let mut out = self.clone();
        for j in 0..d {
            let mean = (0..n).map(|i| self.features[i * d + j]).sum::<f64>() / n as f64;
            let var = (0..n).map(|i| (self.features[i * d + j] - mean).powi(2)).sum::<f64>() / n as f64;
            let scale = if var > 0.0 { var.sqrt() } else { 1.0 };
            for i in 0..n {
                out.features[i * d + j] = (self.features[i * d + j] - mean) / scale;
            }
        }
        out
    }

    /// A copy with the response centred and scaled to unit standard deviation (for linear
    /// regression on real data, so that unit noise and prior scales are sensible).
    pub fn standardised_response(&self) -> Dataset {
        let n = self.len() as f64;
        let mean = self.responses.iter().sum::<f64>() / n;
        let var = self.responses.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / n;
        let scale = if var > 0.0 { var.sqrt() } else { 1.0 };
        let mut out = self.clone();
        out.responses.iter_mut().for_each(|y| *y = (*y - mean) / scale);
        out
    }

    /// Features multiplied by a seeded Gaussian random matrix R (d × k, entries N(0, 1/k)): the
    /// random projection the SGFS paper applied to MNIST 7-vs-9 (Ahn et al. 2012, §5.1).
    pub fn random_projection(&self, k: usize, seed: u64) -> Dataset {
        let d = self.n_features();
        let mut rng = crate::rng::chain_rng(seed);
        let scale = 1.0 / (k as f64).sqrt();
        let r: Vec<f64> = (0..d * k).map(|_| scale * crate::rng::standard_normal(&mut rng)).collect();
        let mut features = vec![0.0; self.len() * k];
        for i in 0..self.len() {
            let x = self.row(i);
            let out = &mut features[i * k..(i + 1) * k];
            for (j, xj) in x.iter().enumerate() {
                if *xj != 0.0 {
                    for (o, rjc) in out.iter_mut().zip(&r[j * k..(j + 1) * k]) {
                        *o += xj * rjc;
                    }
                }
            }
        }
        Dataset {
            feature_names: (1..=k).map(|c| format!("proj{c}")).collect(),
            response_name: self.response_name.clone(),
            features,
            responses: self.responses.clone(),
        }
    }

    /// Keep only the listed feature columns (in that order).
    pub fn select_features(&self, columns: &[usize]) -> Dataset {
        let d = self.n_features();
        let features = (0..self.len()).flat_map(|i| columns.iter().map(move |&j| self.features[i * d + j])).collect();
        Dataset {
            feature_names: columns.iter().map(|&j| self.feature_names[j].clone()).collect(),
            response_name: self.response_name.clone(),
            features,
            responses: self.responses.clone(),
        }
    }
}

/// Refuse a file of `len` bytes above [`MAX_BYTES`], before it is read whole.
pub fn check_size(len: u64) -> Result<(), String> {
    if len > MAX_BYTES as u64 {
        return Err(format!("file is {:.1} MB; the limit is {} MB", len as f64 / (1024.0 * 1024.0), MAX_BYTES / (1024 * 1024)));
    }
    Ok(())
}

/// Read and parse a CSV file, checking its size first (CLI `--data`). Errors name the path.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_data_file(path: &str) -> Result<Dataset, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read --data {path}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("--data {path}: not a regular file"));
    }
    check_size(meta.len()).map_err(|e| format!("--data {path}: {e}"))?;
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read --data {path}: {e}"))?;
    parse_csv(&bytes).map_err(|e| format!("--data {path}: {e}"))
}

/// Parse CSV bytes. Errors name the row (1-based, counting the header as row 1) and the column.
pub fn parse_csv(bytes: &[u8]) -> Result<Dataset, String> {
    check_size(bytes.len() as u64)?;
    let text = std::str::from_utf8(bytes).map_err(|e| format!("file is not UTF-8 text (byte {})", e.valid_up_to()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().ok_or("file is empty: expected a header row and at least one data row")?;
    let names: Vec<String> = header.split(',').map(|c| c.trim().trim_matches('"').to_string()).collect();
    if names.len() < 2 {
        return Err("header has fewer than 2 columns: need at least one feature and the response (last column)".into());
    }
    if let Some(k) = names.iter().position(|n| n.is_empty()) {
        return Err(format!("row 1, column {}: empty column name in the header", k + 1));
    }
    if names.iter().all(|n| parse_cell(n).is_ok()) {
        return Err(format!(
            "row 1 is all numbers ({}), so it looks like data, not a header: add a first row of column names (the last one names the response)",
            names.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(", ") + if names.len() > 3 { ", …" } else { "" }
        ));
    }
    let width = names.len();
    let mut features = Vec::new();
    let mut responses = Vec::new();
    for (index, line) in lines {
        let row = index + 1;
        if responses.len() == MAX_ROWS {
            return Err(format!("row {row}: more than {MAX_ROWS} data rows; the limit is {MAX_ROWS}"));
        }
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != width {
            return Err(format!("row {row}: has {} columns, the header has {width}", cells.len()));
        }
        for (k, cell) in cells.iter().enumerate() {
            let value = parse_cell(cell).map_err(|why| format!("row {row}, column {} ('{}'): {why}", k + 1, names[k]))?;
            if k + 1 == width {
                responses.push(value);
            } else {
                features.push(value);
            }
        }
    }
    if responses.is_empty() {
        return Err("file has a header but no data rows".into());
    }
    let response_name = names[width - 1].clone();
    Ok(Dataset { feature_names: names[..width - 1].to_vec(), response_name, features, responses })
}

fn parse_cell(cell: &str) -> Result<f64, String> {
    let trimmed = cell.trim().trim_matches('"');
    if trimmed.is_empty() {
        return Err("empty cell".into());
    }
    let shown: String = trimmed.chars().take(20).collect();
    match trimmed.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(format!("'{shown}' is not a finite number")),
        Err(_) => Err(format!("'{shown}' is not a number")),
    }
}
