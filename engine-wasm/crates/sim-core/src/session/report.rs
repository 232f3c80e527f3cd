//! The run behind a headless report (SPEC §10), once for both models: run
//! the simulation to its end in chunks, as the browser worker does, drain
//! its rows at the drain deadlines, show every batch to the caller, and hand
//! each row to the report windows whose span covers its sample interval. What
//! a window sums is the model's (the cell runner's VCs and ports, the packet
//! report's classes, flows and AQM); when it runs and what it sees is here.

use super::{drain_deadlines, RowSource};
use crate::kernel::RunOutcome;
use crate::time::SimTime;

/// Events handled per call into the engine, as the browser worker does.
pub const CHUNK_EVENTS: u64 = 100_000;

/// What the report writer needs of a model's simulation.
pub trait Sampled {
    /// Runs events up to and including `deadline`, handling at most `max_events`.
    fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome;
    /// Removes and returns the sample rows recorded since the last call.
    fn take_samples(&mut self) -> Vec<f64>;
    /// Names of the sample columns, in row order.
    fn columns(&self) -> &[String];
}

/// The span of a report window, `[from_ms, to_ms]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub from_ms: f64,
    pub to_ms: f64,
}

impl Span {
    /// Whether a row's sample interval `[start_ms, end_ms]` lies in the span.
    pub fn covers(&self, start_ms: f64, end_ms: f64) -> bool {
        const EPS: f64 = 1e-9;
        start_ms >= self.from_ms - EPS && end_ms <= self.to_ms + EPS
    }
}

/// A report window: what it sums of the rows its span covers is the model's.
pub trait Tally {
    /// What the model's windows read a row with (the column positions).
    type Context;
    fn span(&self) -> Span;
    /// Adds a row (with the row before it, for counters) to the sums.
    fn add(&mut self, cx: &Self::Context, row: &[f64], prev: &[f64]);
}

/// Runs `sim` to `until_ms`, drains its rows, shows each batch to `on_rows`
/// and adds each row to every window (and to `totals`) whose span covers it.
pub fn run_to_end<S: Sampled, W: Tally>(
    sim: &mut S,
    cx: &W::Context,
    (until_ms, sample_ms): (f64, f64),
    windows: &mut [W],
    totals: &mut W,
    on_rows: &mut dyn FnMut(&RowSource<'_>, &[f64]),
) {
    let width = sim.columns().len();
    let mut prev = vec![0.0; width];
    let mut consume = |sim: &mut S, prev: &mut Vec<f64>| {
        let rows = sim.take_samples();
        on_rows(&RowSource::new(sim.columns()), &rows);
        for row in rows.chunks_exact(width) {
            let end = row[0];
            let start = end - sample_ms;
            for w in windows.iter_mut().chain(std::iter::once(&mut *totals)) {
                if w.span().covers(start, end) {
                    w.add(cx, row, prev);
                }
            }
            prev.copy_from_slice(row);
        }
    };
    for deadline in drain_deadlines(until_ms, sample_ms, width) {
        while sim.run_until(deadline, CHUNK_EVENTS) == RunOutcome::BudgetExhausted {
            consume(sim, &mut prev);
        }
        consume(sim, &mut prev);
    }
}

/// `x` rounded to `digits` decimals, for a report.
pub fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}
