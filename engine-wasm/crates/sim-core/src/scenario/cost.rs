//! The cost model: from a validated scenario, before anything is
//! built, an estimate of the events a run handles and the memory it holds.
//! Limits on sizes alone let a 10,000 Mbit/s background onto a 0.001 Mbit/s
//! link run for minutes; the estimate counts what the sources offer, capped
//! by what their links carry, over the time they are on, × the events each
//! cell or packet costs along its path. A refusal names the largest term, so
//! the user knows what to shorten or slow.
//!
//! The figures are estimates from above, within a small factor of the events
//! a run counts (`stats.events`): the test `cost_estimates_bound_the_library`
//! (tests/bounded_cost.rs) checks them against every library run.

use super::{Limits, ScenarioError};
use std::collections::HashMap;

/// Bytes a queued cell or packet holds in the engine (the record and its
/// share of the queue's storage), for the memory estimate.
pub const QUEUED_BYTES: f64 = 64.0;
/// Bytes of one sample value (an f64), kept by the viewer for the whole run.
pub const SAMPLE_BYTES: f64 = 8.0;
/// Bytes a cell or packet on a link holds (its record in the link's FIFO,
/// with the FIFO's room to grow), for the memory estimate.
pub const IN_FLIGHT_BYTES: f64 = 64.0;
/// Bytes a report window holds per sample column: its sums and, at the end,
/// its share of the report (a JSON entry per VC and port figure).
pub const WINDOW_BYTES_PER_COLUMN: f64 = 512.0;
/// Bytes the engine holds for each port, source and hop of a source's path
/// (measured: the bounded-cost test holds the estimate to what a run allocates).
pub const PORT_BYTES: f64 = 8192.0;
pub const SOURCE_BYTES: f64 = 8192.0;
pub const HOP_BYTES: f64 = 1024.0;
/// Bytes any run holds whatever its size: the event queue's and the sample
/// store's first blocks, the report.
pub const BASE_BYTES: f64 = 2e6;
/// Steps of the max-min oracle's water-filling (one flow or resource looked
/// at) that cost about as much as one event.
pub const ORACLE_STEPS_PER_EVENT: f64 = 16.0;

/// One term of an estimate: where it comes from, its size, and how it was figured.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    pub path: String,
    pub value: f64,
    pub detail: String,
}

/// A run's estimated cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cost {
    pub events: Vec<Term>,
    /// Bytes.
    pub memory: Vec<Term>,
    /// Which of `memory` is the sample rows a viewer keeps: not held when a runner streams them
    /// to a file (`Limits::samples_on_disk`).
    pub samples_term: Option<usize>,
    /// Sample rows of the run and columns of each, for what the options add.
    pub rows: f64,
    pub columns: usize,
}

impl Cost {
    pub fn total_events(&self) -> f64 {
        self.events.iter().map(|t| t.value).sum()
    }

    pub fn total_memory_mb(&self) -> f64 {
        self.memory.iter().map(|t| t.value).sum::<f64>() / 1e6
    }

    /// The memory terms a run holds under `limits`: all but the sample rows when they go to disk.
    fn held(&self, limits: &Limits) -> Vec<Term> {
        let on_disk = |i| limits.samples_on_disk && self.samples_term == Some(i);
        self.memory
            .iter()
            .enumerate()
            .filter(|&(i, _)| !on_disk(i))
            .map(|(_, t)| t.clone())
            .collect()
    }

    /// What `count` report windows add: each looks at every sample row and
    /// sums every column of the rows it covers, and is reported whole.
    pub fn add_windows(&mut self, count: usize) {
        if count == 0 {
            return;
        }
        let (n, columns) = (count as f64, self.columns as f64);
        self.events.push(Term {
            path: "--window".into(),
            value: n * self.rows * (1.0 + columns / 8.0),
            detail: format!("{count} report windows × {} sample rows", self.rows),
        });
        self.memory.push(Term {
            path: "--window".into(),
            value: n * columns * WINDOW_BYTES_PER_COLUMN,
            detail: format!("{count} report windows × {columns} columns"),
        });
    }

    /// Refuses a cost over `limits`, naming the largest term.
    pub fn check(&self, until_ms: f64, limits: &Limits, errors: &mut Vec<ScenarioError>) {
        let largest = |terms: &[Term]| {
            terms.iter().max_by(|a, b| a.value.total_cmp(&b.value)).cloned().unwrap_or(Term {
                path: "run.until_ms".into(),
                value: 0.0,
                detail: String::new(),
            })
        };
        let events = self.total_events();
        if events > limits.max_events {
            let t = largest(&self.events);
            errors.push(ScenarioError::new(
                t.path.clone(),
                format!(
                    "the run would handle about {events:.2e} events over {until_ms} ms, more than the limit of {:.2e} (limits.max_events); the largest share is {} ({:.2e}: {}): shorten run.until_ms or slow it",
                    limits.max_events, t.path, t.value, t.detail
                ),
            ));
        }
        let held = self.held(limits);
        let mb = held.iter().map(|t| t.value).sum::<f64>() / 1e6;
        if mb > limits.max_memory_mb {
            let t = largest(&held);
            errors.push(ScenarioError::new(
                t.path.clone(),
                format!(
                    "the run would hold about {mb:.0} MB, more than the limit of {} MB (limits.max_memory_mb); the largest share is {} ({:.0} MB: {})",
                    limits.max_memory_mb,
                    t.path,
                    t.value / 1e6,
                    t.detail
                ),
            ));
        }
    }
}

/// A source's time on within `[0, until]`, ms.
pub fn on_ms(start: f64, stop: Option<f64>, until: f64) -> f64 {
    (stop.unwrap_or(until).min(until) - start.min(until)).max(0.0)
}

/// Per-port offered load (cells or packets per second) and the sample rows,
/// shared by both models.
pub struct Tally {
    /// (link, direction) → offered per second, summed over sources.
    pub offered: HashMap<(usize, usize), f64>,
    pub cost: Cost,
}

impl Tally {
    /// A source of `per_s` over `hops` links for `secs`, costing `per_unit`
    /// events per unit sent per hop and one at the source.
    pub fn source(
        &mut self,
        path: String,
        per_s: f64,
        secs: f64,
        hops: usize,
        per_hop: f64,
        what: &str,
    ) {
        // Its start, and its first unit however short its time on.
        let units = if secs > 0.0 { 1.0 + per_s * secs } else { 0.0 };
        let value = units * (1.0 + per_hop * hops as f64);
        self.cost.events.push(Term {
            path,
            value,
            detail: format!("{per_s:.0} {what}/s × {secs} s × {hops} hops"),
        });
    }

    /// The sample rows a viewer keeps, and the events that record them.
    pub fn samples(&mut self, until_ms: f64, interval_ms: f64, columns: usize) {
        let rows = (until_ms / interval_ms).ceil();
        (self.cost.rows, self.cost.columns) = (rows, columns);
        self.cost.events.push(Term {
            path: "run.sample_interval_ms".into(),
            value: rows * (1.0 + columns as f64 / 8.0),
            detail: format!("{rows} sample rows of {columns} columns"),
        });
        self.cost.samples_term = Some(self.cost.memory.len());
        self.cost.memory.push(Term {
            path: "run.sample_interval_ms".into(),
            value: rows * columns as f64 * SAMPLE_BYTES,
            detail: format!("{rows} sample rows × {columns} columns"),
        });
    }

    /// The units a port's queue can come to hold: its excess inflow over the
    /// run, at most its buffer.
    pub fn queues(
        &mut self,
        ports: impl Iterator<Item = ((usize, usize), String, f64, f64)>,
        secs: f64,
    ) {
        for (key, path, rate_per_s, buffer) in ports {
            let inflow = self.offered.get(&key).copied().unwrap_or(0.0);
            let excess = (inflow - rate_per_s).max(0.0) * secs;
            let held = excess.min(buffer);
            if held > 0.0 {
                self.cost.memory.push(Term {
                    path,
                    value: held * QUEUED_BYTES,
                    detail: format!("{held:.0} queued of a {buffer} buffer"),
                });
            }
        }
    }
}

impl Tally {
    /// The network the engine builds: its ports (each with its queue, its
    /// algorithm's state and its share of the routing tables), each source's
    /// state along its path, and the event queue's entries for them.
    pub fn network(&mut self, ports: usize, sources: usize, hops: usize) {
        let value = BASE_BYTES
            + ports as f64 * PORT_BYTES
            + sources as f64 * SOURCE_BYTES
            + hops as f64 * HOP_BYTES
            + (ports as f64 * sources as f64 * 4.0).min(4.0 * 1024.0 * 1024.0);
        self.cost.memory.push(Term {
            path: "links".into(),
            value,
            detail: format!("the engine: {ports} ports, {sources} sources over {hops} hops"),
        });
    }

    /// The units on each link at once: what enters it (its offered load, at
    /// most its rate) × its delay. A 10 Gbit/s link with a 10 s delay holds
    /// 2.4 × 10⁸ cells.
    pub fn in_flight(
        &mut self,
        links: impl Iterator<Item = ((usize, usize), String, f64, f64)>,
        what: &str,
    ) {
        for (key, path, rate_per_s, delay_s) in links {
            let inflow = self.offered.get(&key).copied().unwrap_or(0.0).min(rate_per_s);
            let held = inflow * delay_s;
            if held >= 1.0 {
                self.cost.memory.push(Term {
                    path,
                    value: held * IN_FLIGHT_BYTES,
                    detail: format!("{held:.0} {what} in flight ({inflow:.0}/s × {delay_s} s)"),
                });
            }
        }
    }
}

/// Maps each ordered pair of joined nodes to (link index, direction 0 a→b / 1 b→a).
pub fn link_pairs(
    ends: impl Iterator<Item = (usize, usize)>,
) -> HashMap<(usize, usize), (usize, usize)> {
    let mut pairs = HashMap::new();
    for (i, (a, b)) in ends.enumerate() {
        pairs.entry((a, b)).or_insert((i, 0));
        pairs.entry((b, a)).or_insert((i, 1));
    }
    pairs
}

pub fn ports_on(
    path: &[usize],
    pairs: &HashMap<(usize, usize), (usize, usize)>,
) -> Vec<(usize, usize)> {
    path.windows(2).filter_map(|w| pairs.get(&(w[0], w[1])).copied()).collect()
}
