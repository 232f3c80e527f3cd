//! What a run is asked to do and what it shows its caller, for either model: the options
//! (`--until`, `--seed`, `--set`, windows, variant, limits), the window check, and the view of
//! the sample columns a row callback gets. The cell model's runner and the packet model's report
//! both use these; neither imports the other for them.

use crate::scenario::{self, ScenarioError};
use crate::time::SimTime;

/// What to run and what to report.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Overrides `run.until_ms`.
    pub until_ms: Option<f64>,
    /// Overrides `run.seed`.
    pub seed: Option<u64>,
    /// `(path, value)` overrides, applied in order.
    pub sets: Vec<(String, String)>,
    /// Report windows `[from, to]` in ms.
    pub windows: Vec<(f64, f64)>,
    /// A variant of the scenario to apply before the overrides.
    pub variant: Option<String>,
    /// Ceilings the scenario must stay under.
    pub limits: scenario::Limits,
}

/// What `on_rows` sees of the run beside each batch of rows: the column
/// names, for either model (`sim.columns()` in a callback reads the same
/// whichever model runs).
pub struct RowSource<'a> {
    columns: &'a [String],
}

impl<'a> RowSource<'a> {
    pub fn new(columns: &'a [String]) -> RowSource<'a> {
        RowSource { columns }
    }

    /// Names of the sample columns, in row order.
    pub fn columns(&self) -> &[String] {
        self.columns
    }
}

/// Checks the report windows against the run length.
pub fn check_windows(opts: &RunOptions, until: f64) -> Result<(), Vec<ScenarioError>> {
    let (count, limit) = (opts.windows.len(), opts.limits.max_windows);
    if count > limit {
        // Each window sums every column of every row it covers and is reported whole.
        return Err(vec![ScenarioError::new(
            "--window",
            format!("{count} report windows, more than the limit of {limit} (limits.max_windows)"),
        )]);
    }
    let mut errors = Vec::new();
    for (i, &(from, to)) in opts.windows.iter().enumerate() {
        if !(from.is_finite() && to.is_finite() && from >= 0.0 && from < to && to <= until) {
            errors.push(ScenarioError::new(
                format!("--window[{i}]"),
                format!("{from}:{to} must satisfy 0 ≤ FROM < TO ≤ until ({until} ms)"),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Sample values the runner lets pile up between drains (32 MB of f64).
const DRAIN_VALUES: f64 = 4e6;

/// The deadlines a run stops at to drain its sample rows: the end alone when
/// the whole run's rows fit `DRAIN_VALUES`, else steps of as many sample
/// intervals as fit, so that 10,000 links sampled every 0.01 ms never hold
/// more than one step's rows.
pub fn drain_deadlines(until_ms: f64, sample_ms: f64, width: usize) -> Vec<SimTime> {
    let rows = (until_ms / sample_ms).ceil();
    if rows * width as f64 <= DRAIN_VALUES {
        return vec![SimTime::from_ms(until_ms)];
    }
    let step = (DRAIN_VALUES / width as f64).floor().max(1.0) * sample_ms;
    let steps = (until_ms / step).ceil() as usize;
    (1..=steps).map(|k| SimTime::from_ms((k as f64 * step).min(until_ms))).collect()
}
