//! `abrsim check [FILES…] [--json] [--now-holding]`: runs every
//! file's paper claims (one run per variant the claims use, shared between
//! them), prints scenario | claim | paper | this run | holds? and the totals,
//! and fails (exit 1) when a claim expected to hold does not.
//!
//! `--json` prints one JSON object per claim instead (one a line), with its
//! status: `held`, `failing`, `expected_fail` or `now_holds`. `--now-holding`
//! lists only the claims marked `expected: false` that this run meets — the
//! ones whose `expected` may now be flipped to true.

use sim_core::claims::{self, Status};
use sim_core::scenario::{format_errors, Limits};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What `abrsim check` takes.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Scenario files (default: every scenarios/*.json under the current directory).
    pub files: Vec<PathBuf>,
    /// One JSON object per claim instead of the table (the totals go to stderr).
    #[arg(long)]
    pub json: bool,
    /// List only the claims marked `expected: false` that this run meets.
    #[arg(long)]
    pub now_holding: bool,
}

/// Every `.json` file of `dir`, sorted.
fn library(dir: &str) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{dir}: {e} (give the files, or run from the repository root)"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

fn cell(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n > width {
        format!("{}…", text.chars().take(width - 1).collect::<String>())
    } else {
        format!("{text}{}", " ".repeat(width - n))
    }
}

pub fn main(args: CheckArgs) -> Result<bool, String> {
    let (as_json, now_holding) = (args.json, args.now_holding);
    let mut files = args.files;
    if files.is_empty() {
        files = library("scenarios")?;
    }
    let clock = Instant::now();
    let now = || clock.elapsed().as_secs_f64() * 1000.0;
    let mut out = std::io::stdout().lock();
    let mut print = |line: String| {
        // A closed stdout (`abrsim check | head`) is not an error of the check.
        let _ = writeln!(out, "{line}");
    };
    let (mut held, mut expected_fail, mut failing, mut now_holds) = (0, 0, 0, 0);
    if !as_json {
        print(format!(
            "{} {} {} {} holds?",
            cell("scenario", 30),
            cell("claim", 28),
            cell("paper", 26),
            cell("this run", 12)
        ));
    }
    for path in &files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let (file, outcomes) = claims::check_file(&text, &Limits::default(), &now)
            .map_err(|errors| format!("{}:\n{}", path.display(), format_errors(&errors)))?;
        for (claim, o) in file.claims.iter().zip(&outcomes) {
            match o.status {
                Status::Held => held += 1,
                Status::ExpectedFail => expected_fail += 1,
                Status::Failing => failing += 1,
                Status::NowHolds => now_holds += 1,
                Status::Pending => {}
            }
            if now_holding && o.status != Status::NowHolds {
                continue;
            }
            if as_json {
                let due = claim.due_ms(file.until_ms);
                print(claims::outcome_json(&file.scenario, claim, o, due).to_string());
                continue;
            }
            let name = match &claim.variant {
                Some(v) => format!("{} [{v}]", claim.id),
                None => claim.id.clone(),
            };
            let verdict = match o.status {
                Status::Held => "✓".to_string(),
                Status::Failing => "✗ FAILING".to_string(),
                Status::ExpectedFail => {
                    format!("✗ expected: {}", claim.reason.as_deref().unwrap_or(""))
                }
                Status::NowHolds => "✓ NOW HOLDS (marked expected: false)".to_string(),
                Status::Pending => "pending".to_string(),
            };
            print(format!(
                "{} {} {} {} {}",
                cell(&file.scenario, 30),
                cell(&name, 28),
                cell(&claim.paper_text(), 26),
                cell(&o.value.map_or_else(|| "—".to_string(), claims::fmt_num), 12),
                cell(&verdict, 100).trim_end()
            ));
        }
    }
    let total = held + expected_fail + failing + now_holds;
    let summary = format!(
        "{total} claims: {held} held, {expected_fail} expected to fail, {failing} failing, {now_holds} now hold although marked expected: false"
    );
    if as_json {
        eprintln!("{summary}");
    } else {
        print(String::new());
        print(summary);
    }
    Ok(failing == 0)
}
