//! The headless run: apply the options' overrides, build the
//! scenario's model, and let the one report writer (`crate::session::report`)
//! run it and aggregate the sample rows into windows and totals. The native
//! `abrsim` binary and the scenario tests both go through [`run_report`], so
//! the tests check exactly what the runner prints.

use crate::cell::sim::Simulation;
use crate::ip::IpSimulation;
use crate::model::{split_model, ModelKind};
use crate::scenario::cost::Cost;
use crate::scenario::{self, ScenarioError};
use crate::session::report::write_report;
use serde_json::Value;

pub use crate::session::{check_windows, RowSource, RunOptions};

/// Parses scenario text and applies the options' `--until`, `--seed` and `--set` overrides.
pub fn apply_options(text: &str, opts: &RunOptions) -> Result<Value, Vec<ScenarioError>> {
    let mut value = scenario::strict_json::parse(text, opts.limits.max_input_bytes)?;
    if !value.is_object() {
        return Err(vec![ScenarioError::new(
            "",
            format!(
                "the scenario must be a JSON object {{\"format\": …}}, not {}",
                scenario::reader::describe(&value)
            ),
        )]);
    }
    let mut errors = Vec::new();
    if let Some(id) = &opts.variant {
        scenario::apply_variant(&mut value, id).map_err(|e| vec![e])?;
    }
    if let Some(until) = opts.until_ms {
        if let Err(e) = scenario::apply_set(&mut value, "run.until_ms", &until.to_string()) {
            errors.push(e);
        }
    }
    if let Some(seed) = opts.seed {
        if let Err(e) = scenario::apply_set(&mut value, "run.seed", &seed.to_string()) {
            errors.push(e);
        }
    }
    for (path, raw) in &opts.sets {
        if let Err(e) = scenario::apply_set(&mut value, path, raw) {
            errors.push(ScenarioError::new(
                e.path.clone(),
                format!("--set {path}={raw}: {}", e.message),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(value)
}

/// A scenario validated for a run, of either model.
enum Checked {
    Cell(crate::cell::scenario::Scenario),
    Packet(crate::ip::scenario::IpScenario),
}

/// Validates a run and gives its cost: the one estimate every caller asks before building
/// anything (this runner, `abrsim sweep` for each point it will run, the browser's engine through
/// the same validation). The model's terms (sources, sampling, queues, cells in flight, the
/// max-min oracle's input changes and water-fillings) come from the scenario; the options add
/// their report windows. A cost over the limits is refused, naming the largest term, its figure and the limit.
fn check(text: &str, opts: &RunOptions) -> Result<(Checked, Cost), Vec<ScenarioError>> {
    let (kind, value) = split_model(apply_options(text, opts)?)?;
    let (checked, mut cost, until) = match kind {
        ModelKind::Cell => {
            let s =
                scenario::read_checked::<crate::cell::scenario::Scenario>(&value, &opts.limits)?;
            let cost = crate::cell::scenario::cost::cell_cost(&s);
            let until = s.run.until_ms;
            (Checked::Cell(s), cost, until)
        }
        ModelKind::Packet => {
            let s = scenario::read_checked::<crate::ip::IpScenario>(&value, &opts.limits)?;
            let cost = crate::ip::scenario::ip_cost(&s);
            let until = s.run.until_ms;
            (Checked::Packet(s), cost, until)
        }
    };
    check_windows(opts, until)?;
    cost.add_windows(opts.windows.len());
    let mut errors = Vec::new();
    cost.check(until, &opts.limits, &mut errors);
    if errors.is_empty() {
        Ok((checked, cost))
    } else {
        Err(errors)
    }
}

/// The estimated cost of running `text` with `opts` (see [`check`]), or why it is refused.
pub fn estimate(text: &str, opts: &RunOptions) -> Result<Cost, Vec<ScenarioError>> {
    check(text, opts).map(|(_, cost)| cost)
}

/// Runs a scenario of either model to its end and returns the runner's
/// report (see [`write_report`]). `clock_ms` reads the wall clock (the caller's, so
/// this stays free of platform calls); `on_rows` sees every batch of sample
/// rows (for CSV output).
pub fn run_report(
    text: &str,
    opts: &RunOptions,
    clock_ms: &dyn Fn() -> f64,
    on_rows: &mut dyn FnMut(&RowSource<'_>, &[f64]),
) -> Result<Value, Vec<ScenarioError>> {
    Ok(match check(text, opts)?.0 {
        Checked::Cell(s) => write_report(Simulation::build(&s), opts, clock_ms, on_rows),
        Checked::Packet(s) => write_report(IpSimulation::build(&s), opts, clock_ms, on_rows),
    })
}
