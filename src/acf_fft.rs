//! The page's autocorrelation and ESS at O(n log n) cost (issue 26: no long call on the main
//! thread): the sample autocorrelation ρ(0..=L) of a series from one zero-padded FFT (the
//! Wiener–Khinchin identity: the inverse transform of the power spectrum is the circular
//! autocovariance, equal to the linear one at lags ≤ L once the series is padded to ≥ n + L), and
//! Geyer's initial monotone sequence estimator read from those ρ. The numbers are those of the
//! direct O(n · L) sums in `crate::diagnostics` (`autocorrelation`, `effective_sample_size_bounded`),
//! to rounding: docs/diagnostics.md §12 (DIAG.8), (DIAG.9).

/// e^(−2πik/N), k < N/2, for an FFT of length N: computed once per length and kept (the page asks
/// for the same few lengths twice a second; the sines and cosines were a large share of a call).
fn twiddles(n: usize) -> std::rc::Rc<Vec<(f64, f64)>> {
    thread_local! {
        static TABLES: std::cell::RefCell<Vec<(usize, std::rc::Rc<Vec<(f64, f64)>>)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    TABLES.with(|tables| {
        if let Some((_, table)) = tables.borrow().iter().find(|(size, _)| *size == n) {
            return table.clone();
        }
        let step = -2.0 * std::f64::consts::PI / n as f64;
        let table = std::rc::Rc::new((0..n / 2).map(|k| ((step * k as f64).cos(), (step * k as f64).sin())).collect::<Vec<_>>());
        tables.borrow_mut().push((n, table.clone()));
        table
    })
}

/// In-place iterative radix-2 FFT of (re, im), length a power of two; `inverse` without the 1/N.
fn fft(re: &mut [f64], im: &mut [f64], inverse: bool) {
    let n = re.len();
    debug_assert!(n.is_power_of_two() && im.len() == n);
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let table = twiddles(n);
    // The inverse transform uses the conjugate twiddles.
    let sign = if inverse { -1.0 } else { 1.0 };
    let mut len = 2;
    while len <= n {
        let half = len / 2;
        let stride = n / len;
        for start in (0..n).step_by(len) {
            for k in 0..half {
                let (wr, wi) = table[k * stride];
                let wi = sign * wi;
                let (a, b) = (start + k, start + k + half);
                let tr = re[b] * wr - im[b] * wi;
                let ti = re[b] * wi + im[b] * wr;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
            }
        }
        len <<= 1;
    }
}

/// Sample autocorrelation ρ(0..=min(max_lag, n − 1)) of `series`: ρ(s) = Σ_{i<n−s} c_i c_{i+s} /
/// Σ c_i², c the series minus its mean (docs/diagnostics.md (DIAG.8)). `[1.0]` for fewer than two
/// values or a constant series, as the direct sum.
pub fn autocorrelation_fft(series: &[f64], max_lag: usize) -> Vec<f64> {
    autocorrelation_unless_constant(series, max_lag).unwrap_or_else(|| vec![1.0])
}

/// ρ(0..=min(max_lag, n − 1)), or None for fewer than two values or a constant series.
fn autocorrelation_unless_constant(series: &[f64], max_lag: usize) -> Option<Vec<f64>> {
    let n = series.len();
    if n < 2 {
        return None;
    }
    let lags = max_lag.min(n - 1);
    let mean = series.iter().sum::<f64>() / n as f64;
    let size = (n + lags + 1).next_power_of_two();
    let mut re = vec![0.0; size];
    for (r, x) in re.iter_mut().zip(series) {
        *r = x - mean;
    }
    let var0: f64 = re[..n].iter().map(|c| c * c).sum();
    if !(var0 > 0.0) {
        return None;
    }
    let mut im = vec![0.0; size];
    fft(&mut re, &mut im, false);
    for (r, i) in re.iter_mut().zip(im.iter_mut()) {
        *r = *r * *r + *i * *i;
        *i = 0.0;
    }
    fft(&mut re, &mut im, true);
    // re[s] / size is the lag-s autocovariance sum; re[0] / size = Σ c². Lag 0 is 1 by definition.
    let zero = re[0];
    Some(std::iter::once(1.0).chain((1..=lags).map(|s| re[s] / zero)).collect())
}

/// ρ(0..=min(max_lag, n − 1)) of two series of one length n from ONE forward and one inverse FFT
/// (docs/diagnostics.md (DIAG.13)): x goes in the real part, y in the imaginary part; with
/// Z = FFT(x + iy), FFT(x)_k = (Z_k + conj Z_{N−k})/2 and FFT(y)_k = (Z_k − conj Z_{N−k})/(2i), so
/// |FFT(x)|² + i|FFT(y)|² is formed from Z, and its inverse transform holds x's autocovariance sums
/// in the real part and y's in the imaginary part (both power spectra are real and even). Half the
/// transforms of two [`autocorrelation_unless_constant`] calls, the same numbers to rounding. None
/// for a series with fewer than two values or constant.
fn autocorrelation_pair_unless_constant(x: &[f64], y: &[f64], max_lag: usize) -> [Option<Vec<f64>>; 2] {
    let n = x.len();
    if n < 2 || y.len() != n {
        return [autocorrelation_unless_constant(x, max_lag), autocorrelation_unless_constant(y, max_lag)];
    }
    let lags = max_lag.min(n - 1);
    let size = (n + lags + 1).next_power_of_two();
    let centred = |series: &[f64]| {
        let mean = series.iter().sum::<f64>() / n as f64;
        let mut c = vec![0.0; size];
        for (r, v) in c.iter_mut().zip(series) {
            *r = v - mean;
        }
        c
    };
    let (mut re, mut im) = (centred(x), centred(y));
    let var0 = [re[..n].iter().map(|c| c * c).sum::<f64>(), im[..n].iter().map(|c| c * c).sum::<f64>()];
    fft(&mut re, &mut im, false);
    let mut power_x = vec![0.0; size];
    let mut power_y = vec![0.0; size];
    for k in 0..size {
        let j = (size - k) % size;
        let (sum_re, diff_im) = (re[k] + re[j], im[k] - im[j]);
        let (sum_im, diff_re) = (im[k] + im[j], re[k] - re[j]);
        power_x[k] = 0.25 * (sum_re * sum_re + diff_im * diff_im);
        power_y[k] = 0.25 * (sum_im * sum_im + diff_re * diff_re);
    }
    fft(&mut power_x, &mut power_y, true);
    let rho = |sums: &[f64], var0: f64| {
        (var0 > 0.0).then(|| std::iter::once(1.0).chain((1..=lags).map(|s| sums[s] / sums[0])).collect())
    };
    [rho(&power_x, var0[0]), rho(&power_y, var0[1])]
}

/// Geyer's integrated autocorrelation time from ρ(0..): τ = −1 + 2 Σ_k Γ_k over the pairs Γ_k =
/// ρ(2k) + ρ(2k+1), each capped by the one before (monotone), stopped at the first Γ_k ≤ 0 or when
/// 2k + 1 reaches min(max_lag, n/2) (docs/diagnostics.md (DIAG.9)); also whether the sum stopped
/// at a non-positive pair (false: τ is a lower bound).
fn geyer_time(rho: &[f64], n: usize, max_lag: usize) -> (f64, bool) {
    let max_lag = max_lag.min(n / 2);
    let mut tau: f64 = -1.0;
    let mut previous_pair = f64::INFINITY;
    let mut k = 0;
    while 2 * k + 1 < max_lag {
        let pair = (rho[2 * k] + rho[2 * k + 1]).min(previous_pair);
        if pair <= 0.0 {
            return (tau.max(1.0), true);
        }
        tau += 2.0 * pair;
        previous_pair = pair;
        k += 1;
    }
    (tau.max(1.0), 2 * k + 1 >= n / 2)
}

/// ESS n/τ of `series` with Geyer's τ over at most `max_lag` lags; when τ is not settled within
/// them, the series thinned by 2, 4, … (docs/diagnostics.md §12, (DIAG.2)): the rule of
/// `crate::diagnostics::effective_sample_size_bounded`, each ρ from one FFT, so the cost is
/// O(n log n) whatever τ is.
pub fn effective_sample_size_fft(series: &[f64], max_lag: usize) -> f64 {
    let mut stride = 1;
    loop {
        let thinned: Vec<f64> = series.iter().step_by(stride).copied().collect();
        let n = thinned.len();
        // Fewer than four values or a constant series: τ = 1, as the direct sum says.
        let rho = if n < 4 { None } else { autocorrelation_unless_constant(&thinned, max_lag.min(n / 2)) };
        let (tau, truncated) = rho.map_or((1.0, true), |rho| geyer_time(&rho, n, max_lag));
        if truncated || n < 4 * max_lag.max(4) {
            return n as f64 / tau;
        }
        stride *= 2;
    }
}

/// [`effective_sample_size_fft`] of two series of one length (the page's displayed pair), the two
/// thinned alike while both are unsettled and transformed together
/// ([`autocorrelation_pair_unless_constant`]): the same numbers to rounding at half the transforms.
pub fn effective_sample_sizes_fft(x: &[f64], y: &[f64], max_lag: usize) -> [f64; 2] {
    if x.len() != y.len() {
        return [effective_sample_size_fft(x, max_lag), effective_sample_size_fft(y, max_lag)];
    }
    let mut ess = [None, None];
    let mut stride = 1;
    while ess.iter().any(Option::is_none) {
        let thinned: [Vec<f64>; 2] = [x, y].map(|series| series.iter().step_by(stride).copied().collect());
        let n = thinned[0].len();
        let lags = max_lag.min(n / 2);
        let rho = if n < 4 {
            [None, None]
        } else if ess.iter().all(Option::is_none) {
            autocorrelation_pair_unless_constant(&thinned[0], &thinned[1], lags)
        } else {
            [0, 1].map(|c| if ess[c].is_none() { autocorrelation_unless_constant(&thinned[c], lags) } else { None })
        };
        for c in 0..2 {
            if ess[c].is_some() {
                continue;
            }
            let (tau, truncated) = rho[c].as_ref().map_or((1.0, true), |rho| geyer_time(rho, n, max_lag));
            if truncated || n < 4 * max_lag.max(4) {
                ess[c] = Some(n as f64 / tau);
            }
        }
        stride *= 2;
    }
    ess.map(|e| e.unwrap_or(f64::NAN))
}
