//! `abrsim`, the headless runner:
//!
//! ```text
//! abrsim run SCENARIO.json [--until MS] [--window FROM:TO]... [--set PATH=VALUE]... [--seed N] [--variant ID] [--limit NAME=VALUE]... [--csv DIR]
//! abrsim sweep SCENARIO.json --param PATH=V1,V2,... [--param PATH2=...] [--until MS] [--window A:B] [--jobs N]
//! abrsim check [FILES…] [--json] [--now-holding]
//! ```
//!
//! `run` (run.rs) prints one JSON report on stdout; `sweep` (sweep.rs) one JSON line per grid
//! point; `check` (check.rs) judges the papers' claims (scenarios/README.md, "Paper claims"). Each subcommand is one variant
//! of [`Command`] with its own `Args` struct and module.
//! Bad input of any kind ends with a message naming what is wrong on stderr and exit status 2,
//! never a panic.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod bounds;
mod check;
mod cli;
mod output;
mod run;
mod sweep;

/// Headless runner for ABR Lab scenarios.
#[derive(Parser, Debug)]
#[command(name = "abrsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run one scenario and print its report as JSON.
    Run(run::RunArgs),
    /// Run one scenario over a grid of parameter values; one JSON line per grid point.
    Sweep(sweep::SweepCli),
    /// Check the papers' claims of scenario files (default: every scenarios/*.json); exit 1 when
    /// a claim expected to hold fails.
    Check(check::CheckArgs),
}

fn main() -> ExitCode {
    // Usage errors: clap prints the message and the usage, and exits with status 2.
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Run(args) => run::main(args),
        Command::Sweep(args) => sweep::SweepArgs::try_from(args).and_then(|a| sweep::main(&a)),
        Command::Check(args) => match check::main(args) {
            // A claim expected to hold that fails: exit 1 (bad input stays 2).
            Ok(false) => return ExitCode::from(1),
            Ok(true) => Ok(()),
            Err(e) => Err(e),
        },
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // Whatever the message echoes of the input, no raw control characters reach the
            // terminal and no number runs to hundreds of digits.
            eprintln!("abrsim: {}", sim_core::scenario::echo::tame(&message));
            ExitCode::from(2)
        }
    }
}
