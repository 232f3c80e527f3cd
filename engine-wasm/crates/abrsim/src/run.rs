//! `abrsim run`: one scenario, one JSON report on stdout, and the sample rows as CSV
//! when asked.

use crate::cli;
use sim_core::runner::{run_report, RunOptions};
use sim_core::scenario::format_errors;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What `abrsim run` takes.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The scenario file (JSON, either model).
    pub scenario: PathBuf,
    /// Run until this simulated time instead of the scenario's `run.until_ms`.
    #[arg(long, value_name = "MS", value_parser = cli::millis)]
    pub until: Option<f64>,
    /// Add a report window [FROM, TO] in ms (repeatable).
    #[arg(long, value_name = "FROM:TO", value_parser = cli::window)]
    pub window: Vec<(f64, f64)>,
    /// Override a parameter by dotted path, e.g. vcs.vc1.rif=1/16 (repeatable, applied in order).
    #[arg(long, value_name = "PATH=VALUE", value_parser = cli::assignment)]
    pub set: Vec<(String, String)>,
    /// Override the scenario's `run.seed`.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Apply one of the scenario file's variants before the overrides.
    #[arg(long, value_name = "ID")]
    pub variant: Option<String>,
    /// Lower or raise a size limit, e.g. max_vcs=2000 (repeatable).
    #[arg(long, value_name = "NAME=VALUE", value_parser = cli::limit)]
    pub limit: Vec<(String, f64)>,
    /// Also write every sample row to DIR/samples.csv.
    #[arg(long, value_name = "DIR")]
    pub csv: Option<PathBuf>,
    /// Stream every sample row to a Parquet file as the run makes them (memory bounded by one
    /// row group, so `limits.max_memory_mb` leaves the rows out); the file appears when the run
    /// ends well.
    #[arg(long, value_name = "FILE.parquet")]
    pub samples: Option<PathBuf>,
}

pub fn main(args: RunArgs) -> Result<(), String> {
    let mut opts = RunOptions {
        until_ms: args.until,
        seed: args.seed,
        sets: args.set,
        windows: args.window,
        variant: args.variant,
        ..RunOptions::default()
    };
    for (key, value) in &args.limit {
        opts.limits.set(key, *value).map_err(|e| format!("--limit: {e}"))?;
    }
    opts.limits.samples_on_disk = args.samples.is_some();
    let mut parquet = args.samples.as_deref().map(sample_out::SampleFile::new);
    let text = crate::bounds::read_text(&args.scenario, opts.limits.max_input_bytes)?;
    // Written beside DIR/samples.csv and renamed over it only once the run has succeeded: a
    // refused or failed run leaves the file a previous run wrote.
    let mut csv_out = match &args.csv {
        Some(dir) => Some((crate::output::Output::create(&dir.join("samples.csv"))?, false)),
        None => None,
    };
    let mut io_error = None;
    let clock = Instant::now();
    let mut report =
        run_report(&text, &opts, &|| clock.elapsed().as_secs_f64() * 1000.0, &mut |sim, rows| {
            if let Some(file) = parquet.as_mut() {
                file.add(sim.columns(), rows);
            }
            let Some((file, header_done)) = csv_out.as_mut() else { return };
            let out = file.writer();
            let width = sim.columns().len();
            let mut write = || -> std::io::Result<()> {
                if !*header_done {
                    writeln!(out, "{}", sim.columns().join(","))?;
                    *header_done = true;
                }
                for row in rows.chunks_exact(width) {
                    let cells: Vec<String> =
                        row.iter().map(|&x| crate::bounds::csv_cell(x)).collect();
                    writeln!(out, "{}", cells.join(","))?;
                }
                Ok(())
            };
            if let Err(e) = write() {
                io_error.get_or_insert(e);
            }
        })
        .map_err(|errors| format!("{}:\n{}", args.scenario.display(), format_errors(&errors)))?;
    // The process's peak resident memory so far, for the benchmark; absent where the
    // platform does not say.
    if let (Some(mb), Some(stats)) =
        (peak_rss_mb(), report.get_mut("stats").and_then(|s| s.as_object_mut()))
    {
        stats.insert("peak_rss_mb".into(), serde_json::json!((mb * 10.0).round() / 10.0));
    }
    if let Some(file) = parquet {
        file.finish()?;
    }
    if let Some((file, _)) = csv_out {
        if let Some(e) = io_error {
            return Err(format!("{}: {e}", file.dest().display()));
        }
        file.commit()?;
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
