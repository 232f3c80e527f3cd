//! `abrsim`, the headless runner of SPEC §10:
//!
//! ```text
//! abrsim run SCENARIO.json [--until MS] [--window FROM:TO]... [--set PATH=VALUE]... [--seed N] [--variant ID] [--limit NAME=VALUE]... [--csv DIR]
//! abrsim sweep SCENARIO.json --param PATH=V1,V2,... [--param PATH2=...] [--until MS] [--window A:B] [--jobs N]
//! ```
//!
//! `run` prints one JSON report on stdout; `sweep` (sweep.rs) one JSON line per grid point. Bad input of any kind ends with a message
//! naming what is wrong on stderr and exit status 2, never a panic.

use sim_core::runner::{run_report, RunOptions};
use sim_core::scenario::format_errors;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

mod sweep;

const USAGE: &str = "usage: abrsim run SCENARIO.json [--until MS] [--window FROM:TO]... [--set PATH=VALUE]... [--seed N] [--variant ID] [--limit NAME=VALUE]... [--csv DIR]\n       abrsim sweep SCENARIO.json --param PATH=V1,V2,... [--param PATH2=...] [--until MS] [--window A:B] [--jobs N]";

struct Args {
    scenario: PathBuf,
    opts: RunOptions,
    csv: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut it = args.iter();
    match it.next().map(String::as_str) {
        Some("run") => {}
        Some("-h" | "--help") | None => return Err(USAGE.into()),
        Some(other) => return Err(format!("unknown command '{other}'\n{USAGE}")),
    }
    let mut scenario = None;
    let mut opts = RunOptions::default();
    let mut csv = None;
    while let Some(arg) = it.next() {
        let mut value =
            |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--until" => {
                let v = value("--until")?;
                opts.until_ms = Some(
                    v.parse()
                        .map_err(|_| format!("--until: '{v}' is not a number of milliseconds"))?,
                );
            }
            "--seed" => {
                let v = value("--seed")?;
                opts.seed =
                    Some(v.parse().map_err(|_| format!("--seed: '{v}' is not a whole number"))?);
            }
            "--window" => {
                let v = value("--window")?;
                let parsed = v
                    .split_once(':')
                    .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
                opts.windows
                    .push(parsed.ok_or_else(|| {
                        format!("--window: '{v}' is not FROM:TO in milliseconds")
                    })?);
            }
            "--set" => {
                let v = value("--set")?;
                let (path, raw) =
                    v.split_once('=').ok_or_else(|| format!("--set: '{v}' is not PATH=VALUE"))?;
                opts.sets.push((path.trim().to_string(), raw.trim().to_string()));
            }
            "--limit" => {
                let v = value("--limit")?;
                let (key, raw) =
                    v.split_once('=').ok_or_else(|| format!("--limit: '{v}' is not NAME=VALUE"))?;
                let x: f64 = raw
                    .trim()
                    .parse()
                    .map_err(|_| format!("--limit {key}: '{raw}' is not a number"))?;
                opts.limits.set(key.trim(), x)?;
            }
            "--variant" => opts.variant = Some(value("--variant")?),
            "--csv" => csv = Some(PathBuf::from(value("--csv")?)),
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option '{flag}'\n{USAGE}"))
            }
            path if scenario.is_none() => scenario = Some(PathBuf::from(path)),
            extra => return Err(format!("unexpected argument '{extra}'\n{USAGE}")),
        }
    }
    let scenario = scenario.ok_or_else(|| format!("no scenario file given\n{USAGE}"))?;
    Ok(Args { scenario, opts, csv })
}

fn run(args: &[String]) -> Result<(), String> {
    let args = parse_args(args)?;
    let text = sweep::read_text(&args.scenario, args.opts.limits.max_input_bytes)?;
    let mut csv_out = match &args.csv {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("--csv {}: {e}", dir.display()))?;
            let path = dir.join("samples.csv");
            let file =
                std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some((std::io::BufWriter::new(file), false, path))
        }
        None => None,
    };
    let mut io_error = None;
    let clock = Instant::now();
    let mut report = run_report(
        &text,
        &args.opts,
        &|| clock.elapsed().as_secs_f64() * 1000.0,
        &mut |sim, rows| {
            let Some((out, header_done, _)) = csv_out.as_mut() else { return };
            let width = sim.columns().len();
            let mut write = || -> std::io::Result<()> {
                if !*header_done {
                    writeln!(out, "{}", sim.columns().join(","))?;
                    *header_done = true;
                }
                for row in rows.chunks_exact(width) {
                    let cells: Vec<String> = row.iter().map(|&x| sweep::csv_cell(x)).collect();
                    writeln!(out, "{}", cells.join(","))?;
                }
                Ok(())
            };
            if let Err(e) = write() {
                io_error.get_or_insert(e);
            }
        },
    )
    .map_err(|errors| format!("{}:\n{}", args.scenario.display(), format_errors(&errors)))?;
    // The process's peak resident memory so far, for the benchmark (issue 9); absent where the
    // platform does not say.
    if let (Some(mb), Some(stats)) =
        (peak_rss_mb(), report.get_mut("stats").and_then(|s| s.as_object_mut()))
    {
        stats.insert("peak_rss_mb".into(), serde_json::json!((mb * 10.0).round() / 10.0));
    }
    if let Some((mut out, _, path)) = csv_out {
        if let Some(e) = io_error.or_else(|| out.flush().err()) {
            return Err(format!("{}: {e}", path.display()));
        }
    }
    // A closed stdout (`abrsim run … | head`) ends the program quietly, not with a panic.
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{}", serde_json::to_string_pretty(&report).expect("report serialises"))
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

/// Peak resident set size of this process in MB (10^6 bytes): `VmHWM` of /proc/self/status on
/// Linux, None elsewhere or when it cannot be read.
fn peak_rss_mb() -> Option<f64> {
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        // "VmHWM:     12345 kB"
        let kb: f64 = line["VmHWM:".len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kb * 1024.0 / 1e6)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("sweep") => sweep::main(&args[1..]),
        _ => run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("abrsim: {message}");
            ExitCode::from(2)
        }
    }
}
