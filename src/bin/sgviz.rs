//! `sgviz` — the command-line face of the sampler core.
//!
//! ```text
//! sgviz list
//! sgviz sample --target T --sampler S --steps N --seed K [--burn-in B] [--set name=value]...
//!              [--data FILE.csv] [--samples OUT.csv]
//! sgviz defaults --target T --sampler S [--set name=value]... [--data FILE.csv]
//! sgviz evidence --target linreg|softmax|gmm [--data FILE.csv] [--preset accurate|paper] [--set name=value]...
//!                --seed K [--replicas R] [--ais] [--ns]
//! ```
//! `sample` prints one JSON object: mean, cov, n_samples, grad_evals, seconds, status, diagnostics.
//! `defaults` prints the sampler's target-derived defaults and slider ranges (issue 12), the
//! target's curvature summary they come from, the resolved parameters and any pairing warning.
//! `evidence` (SGAIS, `sgviz::sgais::cli`) prints one JSON object per chunk and a summary line.
//! Bad arguments exit with status 2 and a one-line message saying what is allowed.

use sgviz::chain::{Chain, ChainConfig, ChainStatus};
use sgviz::data::read_data_file;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: sgviz list | sgviz sample --target T --sampler S --steps N --seed K [--burn-in B] [--set name=value]... [--data FILE.csv] [--samples OUT.csv] | sgviz defaults --target T --sampler S [--set name=value]... [--data FILE.csv] | sgviz evidence --target linreg|softmax|gmm [--data FILE.csv] [--preset accurate|paper] [--set name=value]... --seed K [--replicas R] [--ais] [--ns]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("list") if args.len() == 1 => {
            println!("{}", serde_json::to_string_pretty(&sgviz::registry::to_json()).expect("registry serialises"));
            Ok(())
        }
        Some("sample") => parse_sample_args(&args[1..]).and_then(|a| run_sample(&a)),
        Some("defaults") => parse_defaults_args(&args[1..]).and_then(|c| print_defaults(&c)),
        Some("evidence") => sgviz::sgais::cli::evidence_cli(&args[1..], &mut std::io::stdout().lock()),
        Some("--help") | Some("-h") | Some("help") => {
            print!("{USAGE}\nTarget parameters a sampler never reads (`--set` refuses them):\n{}", sgviz::registry::unread_help());
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'; allowed: list, sample, defaults, evidence")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sgviz: {message}");
            ExitCode::from(2)
        }
    }
}

/// Parsed arguments of `sgviz sample`.
struct SampleArgs {
    config: ChainConfig,
    steps: u64,
    samples_out: Option<String>,
}

fn parse_sample_args(args: &[String]) -> Result<SampleArgs, String> {
    let mut config = ChainConfig::new("", "", 0);
    let (mut steps, mut seed_given, mut data_path, mut samples_out) = (None, false, None, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        if chain_flag(&mut config, &mut data_path, flag, &mut value)? {
            continue;
        }
        match flag.as_str() {
            "--steps" => steps = Some(parse_count("--steps", &value()?, 1)?),
            "--seed" => {
                config.seed = parse_count("--seed", &value()?, 0)?;
                seed_given = true;
            }
            "--burn-in" => config.burn_in = parse_count("--burn-in", &value()?, 0)?,
            "--samples" => samples_out = Some(value()?),
            other => return Err(format!("unknown option '{other}'; allowed: --target --sampler --steps --seed --burn-in --set --data --samples")),
        }
    }
    require(&[(config.target.is_empty(), "--target"), (config.sampler.is_empty(), "--sampler"), (steps.is_none(), "--steps"), (!seed_given, "--seed")])?;
    refuse_unread(&config)?;
    load_data(&mut config, data_path)?;
    let steps = steps.expect("checked above");
    // Samples stream to the --samples file as they are produced, and the chain retains as many as
    // the page's (the measured signal reads them, docs/diagnostics.md §8), so `warning` says what
    // the page says: with 1 retained, HMC at L = 1 on the mixture was warned in 0/40 CLI runs
    // (seeds 101–140 × 5,000), 13/40 on the page.
    config.capacity = sgviz::chain::DEFAULT_CAPACITY;
    Ok(SampleArgs { config, steps, samples_out })
}

/// The flags `sample` and `defaults` share (--target, --sampler, --set, --data): true if `flag`
/// was one of them.
fn chain_flag(config: &mut ChainConfig, data_path: &mut Option<String>, flag: &str, value: &mut dyn FnMut() -> Result<String, String>) -> Result<bool, String> {
    match flag {
        "--target" => config.target = value()?,
        "--sampler" => config.sampler = value()?,
        "--set" => config.settings.push(parse_setting(&value()?)?),
        "--data" => *data_path = Some(value()?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// The first required flag that is missing, as an error with the usage.
fn require(flags: &[(bool, &str)]) -> Result<(), String> {
    match flags.iter().find(|(missing, _)| *missing) {
        Some((_, name)) => Err(format!("{name} is required; {USAGE}")),
        None => Ok(()),
    }
}

/// A `--set` of a target parameter the sampler never reads (the registry's `unread`) is refused,
/// not silently ignored; an unknown sampler is left to the chain's own message.
fn refuse_unread(config: &ChainConfig) -> Result<(), String> {
    sgviz::registry::sampler(&config.sampler).map_or(Ok(()), |spec| sgviz::registry::refuse_unread(spec, &config.settings))
}

/// Read `--data FILE` into the configuration.
fn load_data(config: &mut ChainConfig, path: Option<String>) -> Result<(), String> {
    if let Some(path) = path {
        config.data = Some(read_data_file(&path)?);
    }
    Ok(())
}

/// `defaults` takes the target, sampler, settings and data of `sample`, nothing else.
fn parse_defaults_args(args: &[String]) -> Result<ChainConfig, String> {
    let mut config = ChainConfig::new("", "", 0);
    let mut data_path = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        if !chain_flag(&mut config, &mut data_path, flag, &mut value)? {
            return Err(format!("unknown option '{flag}'; allowed: --target --sampler --set --data"));
        }
    }
    require(&[(config.target.is_empty(), "--target"), (config.sampler.is_empty(), "--sampler")])?;
    refuse_unread(&config)?;
    load_data(&mut config, data_path)?;
    config.capacity = sgviz::mixing_meter::MAX_MEASURED;
    Ok(config)
}

/// One JSON object: the derived parameters, the curvature summary, the resolved parameters and
/// the pairing warning (null when the defaults meet their criteria).
fn print_defaults(config: &ChainConfig) -> Result<(), String> {
    let chain = Chain::new(config)?;
    let curvature = sgviz::curvature::Curvature::of(chain.model());
    println!(
        "{}",
        serde_json::json!({
            "target": chain.target_spec().name,
            "sampler": chain.sampler_spec().name,
            "derived": chain.derived(),
            "warning": chain.warning(),
            "curvature": curvature,
            "target_params": chain.target_params().to_json(),
            "sampler_params": chain.sampler_params().to_json(),
        })
    );
    Ok(())
}

fn parse_count(flag: &str, text: &str, min: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(v) if v >= min => Ok(v),
        _ => Err(format!("{flag}: '{text}' is not allowed; expected a whole number ≥ {min}")),
    }
}

fn parse_setting(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').ok_or_else(|| format!("--set '{text}': expected name=value"))?;
    Ok((name.trim().to_string(), value.trim().to_string()))
}

fn run_sample(args: &SampleArgs) -> Result<(), String> {
    let mut chain = Chain::new(&args.config)?;
    let mut writer = match &args.samples_out {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| format!("cannot write --samples {path}: {e}"))?;
            let mut w = std::io::BufWriter::new(file);
            writeln!(w, "{}", chain.model().coordinate_names().join(",")).map_err(|e| e.to_string())?;
            Some(w)
        }
        None => None,
    };
    let mut write_error = None;
    let started = Instant::now();
    chain.run_observed(args.steps, &mut |theta| {
        if let Some(w) = writer.as_mut() {
            let line: Vec<String> = theta.iter().map(|x| format!("{x}")).collect();
            if let Err(e) = writeln!(w, "{}", line.join(",")) {
                write_error.get_or_insert(e.to_string());
            }
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    if let Some(w) = writer.as_mut() {
        w.flush().map_err(|e| e.to_string())?;
    }
    if let Some(e) = write_error {
        return Err(format!("writing samples failed: {e}"));
    }
    println!("{}", summary_json(&chain, seconds));
    match chain.status() {
        ChainStatus::Running => Ok(()),
        ChainStatus::Diverged(message) => Err(message.clone()),
    }
}

fn summary_json(chain: &Chain, seconds: f64) -> serde_json::Value {
    let moments = chain.moments();
    let status = match chain.status() {
        ChainStatus::Running => "ok".to_string(),
        ChainStatus::Diverged(m) => m.clone(),
    };
    let diagnostics: serde_json::Map<String, serde_json::Value> =
        chain.diagnostics().into_iter().map(|d| (d.name.to_string(), finite_or_null(d.value))).collect();
    serde_json::json!({
        "target": chain.target_spec().name,
        "sampler": chain.sampler_spec().name,
        "seed": chain.seed(),
        "steps": chain.steps(),
        "n_samples": chain.n_recorded(),
        "mean": moments.mean,
        "cov": moments.cov,
        "grad_evals": chain.grad_evals(),
        "seconds": seconds,
        "status": status,
        "truth": chain.model().exact_moments(),
        "diagnostics": diagnostics,
        "derived": chain.derived(),
        "warning": combined_warning(chain),
        "setting_warning": chain.setting_warning(),
        "target_params": chain.target_params().to_json(),
        "sampler_params": chain.sampler_params().to_json(),
    })
}

/// The pairing warning and the current setting's warning (issue 21), in one sentence list.
fn combined_warning(chain: &Chain) -> Option<String> {
    let texts: Vec<String> = chain.warning().map(str::to_string).into_iter().chain(chain.setting_warning().map(|w| w.text)).collect();
    (!texts.is_empty()).then(|| texts.join(" "))
}

fn finite_or_null(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x)
    } else {
        serde_json::Value::Null
    }
}
