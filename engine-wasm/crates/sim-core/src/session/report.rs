//! The headless report, written once for both models: run the
//! simulation to its end in chunks, as the browser worker does, drain its
//! rows at the drain deadlines, show every batch to the caller, hand each
//! row to the report windows whose span covers its sample interval, and
//! write the report — the run's identity and statistics, the windows and the
//! totals. What a window sums of a row and the figures it gives, and the
//! model's own end-of-run keys, are the model's ([`Reported`], [`Tally`]:
//! the cell model's VCs and ports, the packet model's classes, flows and AQM).

use super::{drain_deadlines, Recorder, RowSource, RunOptions};
use crate::kernel::RunOutcome;
use crate::scenario::{Meta, RunSpec, ScenarioError};
use crate::time::SimTime;
use serde_json::{json, Map, Value};

/// Events handled per call into the engine, as the browser worker does.
pub const CHUNK_EVENTS: u64 = 100_000;

/// What a model adds to the report beside its sample rows.
pub trait Reported {
    /// A window's sums.
    type Sums: Tally;
    /// The `"model"` key the report carries, if any (the cell model, the
    /// default, writes none).
    const MODEL: Option<&'static str>;
    /// The names, in `stats`, of what the sources sent and of its rate.
    const SENT: [&'static str; 2];
    /// Runs events up to and including `deadline`, handling at most `max_events`.
    fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome;
    /// The recorder the model samples into, and what the report says of
    /// the run beside the windows.
    fn parts(&mut self) -> Parts<'_>;
    /// How the windows read a row and name what they sum.
    fn context(&self) -> <Self::Sums as Tally>::Context;
    /// Empty sums.
    fn sums(&self, cx: &<Self::Sums as Tally>::Context) -> Self::Sums;
    /// The model's keys after `stats`, given the totals (which it may add
    /// end-of-run counters to).
    fn extras(&self, cx: &<Self::Sums as Tally>::Context, totals: &mut Value)
        -> Map<String, Value>;
}

/// What the report says of a run beside its windows.
pub struct Parts<'a> {
    pub meta: &'a Meta,
    pub run: &'a RunSpec,
    pub warnings: &'a [ScenarioError],
    /// The sample rows, the series hash and the events handled.
    pub rec: &'a mut Recorder,
    /// What the sources sent (cells, packets).
    pub sent: u64,
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

/// What a report window sums of the rows its span covers: the model's.
pub trait Tally {
    /// What the model's windows read a row with (the column positions, the ids).
    type Context;
    /// Adds a row (with the row before it, for counters) to the sums.
    fn add(&mut self, cx: &Self::Context, row: &[f64], prev: &[f64]);
    /// The window's figures over its `rows` sample rows of `sample_ms` each.
    fn figures(&self, cx: &Self::Context, rows: u64, sample_ms: f64) -> Map<String, Value>;
}

/// A port's sums over a window, alike in both models: the mean queue, the
/// peak queue, the mean utilisation and the units (cells, packets) lost. The
/// port's columns start at `c`: its first, then queue mean, queue maximum,
/// utilisation and the lost counter.
#[derive(Clone, Copy, Debug, Default)]
pub struct PortSums([f64; 4]);

impl PortSums {
    pub fn add(&mut self, row: &[f64], prev: &[f64], c: usize) {
        let acc = &mut self.0;
        acc[0] += row[c + 1];
        acc[1] = acc[1].max(row[c + 2]);
        acc[2] += row[c + 3];
        acc[3] += row[c + 4] - prev[c + 4];
    }

    /// The figures over `n` rows; `lost` names the units lost.
    pub fn figures(&self, n: f64, lost: &str) -> Value {
        let acc = &self.0;
        let mut out = Map::new();
        out.insert("queue_mean".into(), json!(round(acc[0] / n, 3)));
        out.insert("queue_max".into(), json!(acc[1] as u64));
        out.insert("utilization".into(), json!(round(acc[2] / n, 5)));
        out.insert(lost.into(), json!(acc[3] as u64));
        Value::Object(out)
    }
}

/// A report window: its span, the rows it covered and the model's sums.
#[derive(Clone, Debug)]
pub struct Window<T> {
    span: Span,
    rows: u64,
    sums: T,
}

impl<T: Tally> Window<T> {
    fn to_json(&self, cx: &T::Context, sample_ms: f64) -> Value {
        let mut out = Map::new();
        out.insert("from_ms".into(), json!(self.span.from_ms));
        out.insert("to_ms".into(), json!(self.span.to_ms));
        out.insert("samples".into(), json!(self.rows));
        out.extend(self.sums.figures(cx, self.rows, sample_ms));
        Value::Object(out)
    }
}

/// Runs `sim` to `until_ms`, drains its rows, shows each batch to `on_rows`
/// and adds each row to every window (and to `totals`) whose span covers it.
fn run_to_end<S: Reported>(
    sim: &mut S,
    cx: &<S::Sums as Tally>::Context,
    (until_ms, sample_ms): (f64, f64),
    windows: &mut [Window<S::Sums>],
    totals: &mut Window<S::Sums>,
    on_rows: &mut dyn FnMut(&RowSource<'_>, &[f64]),
) {
    let width = sim.parts().rec.columns().len();
    let mut prev = vec![0.0; width];
    let mut consume = |sim: &mut S, prev: &mut Vec<f64>| {
        let rec = sim.parts().rec;
        let rows = rec.take();
        on_rows(&RowSource::new(rec.columns()), &rows);
        for row in rows.chunks_exact(width) {
            let end = row[0];
            let start = end - sample_ms;
            for w in windows.iter_mut().chain(std::iter::once(&mut *totals)) {
                if w.span.covers(start, end) {
                    w.rows += 1;
                    w.sums.add(cx, row, prev);
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

/// Runs a built simulation of either model to its end and returns the runner's
/// report. `clock_ms` reads the wall clock (the caller's, so this stays free
/// of platform calls); `on_rows` sees every batch of sample rows.
pub fn write_report<M: Reported>(
    mut sim: M,
    opts: &RunOptions,
    clock_ms: &dyn Fn() -> f64,
    on_rows: &mut dyn FnMut(&RowSource<'_>, &[f64]),
) -> Value {
    let cx = sim.context();
    let RunSpec { until_ms, sample_interval_ms: sample_ms, .. } = *sim.parts().run;
    let window =
        |from_ms, to_ms| Window { span: Span { from_ms, to_ms }, rows: 0, sums: sim.sums(&cx) };
    let mut windows: Vec<_> = opts.windows.iter().map(|&(f, t)| window(f, t)).collect();
    let mut totals = window(0.0, until_ms);
    let started = clock_ms();
    run_to_end(&mut sim, &cx, (until_ms, sample_ms), &mut windows, &mut totals, on_rows);
    let wall_ms = clock_ms() - started;

    let mut totals = totals.to_json(&cx, sample_ms);
    let extras = sim.extras(&cx, &mut totals);
    let Parts { meta, run, warnings, rec, sent } = sim.parts();
    let (events, hash) = (rec.events, rec.series_hash());
    let per_s = |x: f64| if wall_ms > 0.0 { (x / wall_ms * 1000.0).round() } else { 0.0 };
    let mut stats = Map::new();
    stats.insert("events".into(), json!(events));
    stats.insert("wall_ms".into(), json!(round(wall_ms, 3)));
    stats.insert(M::SENT[0].into(), json!(sent));
    stats.insert("events_per_s".into(), json!(per_s(events as f64)));
    stats.insert(M::SENT[1].into(), json!(per_s(sent as f64)));
    let realtime = if wall_ms > 0.0 { round(until_ms / wall_ms, 3) } else { 0.0 };
    stats.insert("realtime_factor".into(), json!(realtime));
    stats.insert("series_hash".into(), json!(hash));

    let mut report = Map::new();
    report.insert("scenario".into(), json!(meta.id));
    report.insert("variant".into(), json!(opts.variant));
    if let Some(model) = M::MODEL {
        report.insert("model".into(), json!(model));
    }
    report.insert("until_ms".into(), json!(until_ms));
    report.insert("seed".into(), json!(run.seed));
    report.insert("stats".into(), Value::Object(stats));
    report.extend(extras);
    let windows: Vec<Value> = windows.iter().map(|w| w.to_json(&cx, sample_ms)).collect();
    report.insert("windows".into(), json!(windows));
    report.insert("totals".into(), totals);
    let warnings: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
    report.insert("warnings".into(), json!(warnings));
    Value::Object(report)
}

/// `x` rounded to `digits` decimals, for a report.
pub fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}
