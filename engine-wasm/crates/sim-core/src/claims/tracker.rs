//! Window figures from sample rows, computed exactly as the runner's report
//! computes them (runner.rs for ATM scenarios, ip/report.rs for packet ones),
//! but only for the figures some claim reads, so the page can keep one beside
//! a run of any size.

use super::expr::WindowRef;
use super::{judge, Claim, Outcome};
use crate::scenario::ScenarioError;
use std::collections::HashMap;

/// How a figure is made from one or two sample columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Agg {
    /// Mean over the window's rows.
    Mean(usize),
    /// Mean over the rows where the column has a value (packet model's ratio, D_UDP).
    MeanFinite(usize),
    Max(usize),
    Min(usize),
    /// The value in the window's last row.
    Last(usize),
    /// Growth of a counter across the window.
    Delta(usize),
    /// A cell counter's growth as Mbit/s over the window.
    CellRate(usize),
    /// Mean of the first over mean of the second (packet model's `ratio`).
    Ratio(usize, usize),
}

/// Which column and aggregation a report figure name stands for; `col` finds a
/// sample column by name. ATM: `vcs.<id>.{acr_mbps, acr_min_mbps, acr_max_mbps,
/// acr_last_mbps, maxmin_mbps, throughput_mbps, cells_received}`,
/// `ports.<id>.{queue_mean, queue_max, queue_min, queue_last, utilization, cells_lost}`, `fairness`.
/// Packet: `classes.{tcp,udp}.throughput_mbps`, `ratio`, `ratio_mean`,
/// `d_udp.{mean,last}`, `fairness_mean`, `flows.<id>.{throughput_mbps, cwnd}`,
/// `aqm.<id>.{transmit_probability, offered_mbps, serviced_mbps, reference_mbps}`,
/// `ports.<id>.{queue_mean, queue_max, queue_min, queue_last, utilization, packets_lost}`.
pub fn resolve(field: &str, col: &dyn Fn(&str) -> Option<usize>) -> Result<Agg, String> {
    let need = |name: String| col(&name).ok_or(format!("this run has no sample column '{name}'"));
    let parts: Vec<&str> = field.split('.').collect();
    let agg = match parts.as_slice() {
        ["vcs", id, f] => {
            let c = |k: &str| need(format!("vc.{id}.{k}"));
            match *f {
                "acr_mbps" => Agg::Mean(c("acr_mean")?),
                "acr_min_mbps" => Agg::Min(c("acr")?),
                "acr_max_mbps" => Agg::Max(c("acr")?),
                "acr_last_mbps" => Agg::Last(c("acr")?),
                "maxmin_mbps" => Agg::Mean(c("maxmin")?),
                "throughput_mbps" => Agg::CellRate(c("received")?),
                "cells_received" => Agg::Delta(c("received")?),
                _ => return Err(unknown(field, "acr_mbps, acr_min_mbps, acr_max_mbps, acr_last_mbps, maxmin_mbps, throughput_mbps, cells_received")),
            }
        }
        ["ports", id, f] => {
            let c = |k: &str| need(format!("port.{id}.{k}"));
            match *f {
                "queue_mean" => Agg::Mean(c("queue_mean")?),
                "queue_max" => Agg::Max(c("queue_max")?),
                "queue_last" => Agg::Last(c("queue")?),
                "queue_min" => Agg::Min(c("queue")?),
                "utilization" => Agg::Mean(c("util")?),
                "cells_lost" | "packets_lost" => Agg::Delta(c("lost")?),
                _ => return Err(unknown(field, "queue_mean, queue_max, queue_min, queue_last, utilization, cells_lost (ATM) or packets_lost (IP)")),
            }
        }
        ["fairness"] if col("class.tcp.throughput_mbps").is_none() => Agg::Mean(need("fairness".into())?),
        ["fairness"] => return Err("for a packet-level run use fairness_mean (the mean of Pletka et al.'s equation 2 over the samples)".into()),
        ["fairness_mean"] => Agg::MeanFinite(need("fairness".into())?),
        ["classes", class @ ("tcp" | "udp"), "throughput_mbps"] => {
            Agg::Mean(need(format!("class.{class}.throughput_mbps"))?)
        }
        ["ratio"] => Agg::Ratio(
            need("class.udp.throughput_mbps".into())?,
            need("class.tcp.throughput_mbps".into())?,
        ),
        ["ratio_mean"] => Agg::MeanFinite(need("ratio".into())?),
        ["d_udp", "mean"] => Agg::MeanFinite(need("d_udp".into())?),
        ["d_udp", "last"] => Agg::Last(need("d_udp".into())?),
        ["flows", id, f @ ("throughput_mbps" | "cwnd")] => Agg::Mean(need(format!("flow.{id}.{f}"))?),
        ["aqm", id, f] => {
            let k = match *f {
                "transmit_probability" => "t",
                "offered_mbps" | "serviced_mbps" | "reference_mbps" => f,
                _ => return Err(unknown(field, "transmit_probability, offered_mbps, serviced_mbps, reference_mbps")),
            };
            Agg::Mean(need(format!("aqm.{id}.{k}"))?)
        }
        _ => return Err(format!("'{field}' is not a figure a claim can read (vcs.<id>.…, ports.<id>.…, fairness; packet model: classes.…, ratio, d_udp.…, flows.<id>.…, aqm.<id>.…)")),
    };
    Ok(agg)
}

fn unknown(field: &str, known: &str) -> String {
    format!("'{field}': unknown figure (known: {known})")
}

/// Running sums of one column over one window.
#[derive(Clone, Copy, Debug)]
struct Acc {
    rows: u64,
    sum: f64,
    fin_sum: f64,
    fin_n: u64,
    max: f64,
    min: f64,
    last: f64,
    delta: f64,
}

impl Default for Acc {
    fn default() -> Acc {
        Acc {
            rows: 0,
            sum: 0.0,
            fin_sum: 0.0,
            fin_n: 0,
            max: f64::NEG_INFINITY,
            min: f64::INFINITY,
            last: f64::NAN,
            delta: 0.0,
        }
    }
}

/// Feeds on sample rows and keeps, for the claims it was made for, every
/// figure they read.
pub struct Tracker {
    claims: Vec<Claim>,
    /// Input column index of each column tracked.
    cols: Vec<usize>,
    width: usize,
    /// Distinct windows `[from, to]`; None is the whole run.
    windows: Vec<Option<(f64, f64)>>,
    /// windows × cols.
    accs: Vec<Acc>,
    /// The previous row's value of each tracked column (counters' deltas).
    prev: Vec<f64>,
    /// Per claim, per figure name and window: the aggregation over tracked columns and the window slot.
    refs: Vec<HashMap<(WindowRef, String), (Agg, usize)>>,
    now_ms: f64,
}

impl Tracker {
    /// A tracker for `claims` over rows with these `columns` (`t_ms` first).
    /// Figures that name no column of the run are errors at `claims.<id>.metric`.
    pub fn new(claims: &[Claim], columns: &[String]) -> Result<Tracker, Vec<ScenarioError>> {
        let index: HashMap<&str, usize> =
            columns.iter().enumerate().map(|(i, c)| (c.as_str(), i)).collect();
        let mut cols: Vec<usize> = Vec::new();
        let mut slot_of_col = HashMap::new();
        let mut windows: Vec<Option<(f64, f64)>> = Vec::new();
        let mut errors = Vec::new();
        let mut refs = Vec::new();
        for claim in claims {
            let mut figures = Vec::new();
            claim.expr.refs(&mut figures);
            let mut map = HashMap::new();
            for (w, field) in figures {
                let agg = match resolve(&field, &|name| index.get(name).copied()) {
                    Ok(a) => a,
                    Err(msg) => {
                        errors.push(ScenarioError::new(format!("claims.{}.metric", claim.id), msg));
                        continue;
                    }
                };
                let mut local = |c: usize| {
                    *slot_of_col.entry(c).or_insert_with(|| {
                        cols.push(c);
                        cols.len() - 1
                    })
                };
                let agg = match agg {
                    Agg::Mean(c) => Agg::Mean(local(c)),
                    Agg::MeanFinite(c) => Agg::MeanFinite(local(c)),
                    Agg::Max(c) => Agg::Max(local(c)),
                    Agg::Min(c) => Agg::Min(local(c)),
                    Agg::Last(c) => Agg::Last(local(c)),
                    Agg::Delta(c) => Agg::Delta(local(c)),
                    Agg::CellRate(c) => Agg::CellRate(local(c)),
                    Agg::Ratio(a, b) => Agg::Ratio(local(a), local(b)),
                };
                let win = match w {
                    WindowRef::Index(i) => Some(claim.windows[i]),
                    WindowRef::Totals => None,
                };
                let slot = match windows.iter().position(|x| *x == win) {
                    Some(s) => s,
                    None => {
                        windows.push(win);
                        windows.len() - 1
                    }
                };
                map.insert((w, field), (agg, slot));
            }
            refs.push(map);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let n = cols.len();
        Ok(Tracker {
            claims: claims.to_vec(),
            accs: vec![Acc::default(); windows.len() * n],
            prev: vec![0.0; n],
            cols,
            width: columns.len(),
            windows,
            refs,
            now_ms: 0.0,
        })
    }

    /// The input columns the tracker reads (for a caller that passes only those).
    pub fn columns_read(&self) -> &[usize] {
        &self.cols
    }

    /// Takes rows (flat, row-major, one value per column given to `new`).
    /// `sample_ms` is the run's sample interval: a row stands for the interval ending at its time.
    pub fn feed(&mut self, rows: &[f64], sample_ms: f64) {
        if self.width == 0 {
            return;
        }
        let n = self.cols.len();
        for row in rows.chunks_exact(self.width) {
            let end = row[0];
            let start = end - sample_ms;
            self.now_ms = self.now_ms.max(end);
            for (w, win) in self.windows.iter().enumerate() {
                const EPS: f64 = 1e-9;
                if let Some((from, to)) = *win {
                    if !(start >= from - EPS && end <= to + EPS) {
                        continue;
                    }
                }
                for (k, &c) in self.cols.iter().enumerate() {
                    let x = row[c];
                    let a = &mut self.accs[w * n + k];
                    a.rows += 1;
                    a.sum += x;
                    if x.is_finite() {
                        a.fin_sum += x;
                        a.fin_n += 1;
                    }
                    a.max = a.max.max(x);
                    a.min = a.min.min(x);
                    a.last = x;
                    a.delta += x - self.prev[k];
                }
            }
            for (k, &c) in self.cols.iter().enumerate() {
                self.prev[k] = row[c];
            }
        }
    }

    /// The latest sample time fed.
    pub fn now_ms(&self) -> f64 {
        self.now_ms
    }

    fn figure(&self, agg: Agg, slot: usize, sample_ms: f64) -> Option<f64> {
        let n = self.cols.len();
        let acc = |k: usize| &self.accs[slot * n + k];
        let mean = |a: &Acc| (a.rows > 0).then(|| a.sum / a.rows as f64);
        let v = match agg {
            Agg::Mean(k) => mean(acc(k))?,
            Agg::MeanFinite(k) => {
                let a = acc(k);
                (a.fin_n > 0).then(|| a.fin_sum / a.fin_n as f64)?
            }
            Agg::Max(k) => acc(k).max,
            Agg::Min(k) => acc(k).min,
            Agg::Last(k) => acc(k).last,
            Agg::Delta(k) => {
                let a = acc(k);
                (a.rows > 0).then_some(a.delta)?
            }
            Agg::CellRate(k) => {
                let a = acc(k);
                let span_s = a.rows as f64 * sample_ms / 1000.0;
                (span_s > 0.0).then(|| a.delta * crate::time::CELL_BITS / span_s / 1e6)?
            }
            Agg::Ratio(a, b) => {
                let (a, b) = (mean(acc(a))?, mean(acc(b))?);
                (b > 0.0).then(|| a / b)?
            }
        };
        v.is_finite().then_some(v)
    }

    /// The figure `field` over window `w` of the `k`-th claim the tracker was
    /// made for (None: no value, or a figure that claim does not read).
    pub fn figure_of(&self, k: usize, w: WindowRef, field: &str, sample_ms: f64) -> Option<f64> {
        let &(agg, slot) = self.refs.get(k)?.get(&(w, field.to_string()))?;
        self.figure(agg, slot, sample_ms)
    }

    /// Judges every claim at time `now_ms` of a run that ends at `until_ms`
    /// (claims whose windows have not passed are pending).
    pub fn evaluate(&self, sample_ms: f64, now_ms: f64, until_ms: f64) -> Vec<Outcome> {
        self.claims
            .iter()
            .zip(&self.refs)
            .map(|(claim, refs)| {
                let due = now_ms + 1e-9 >= claim.due_ms(until_ms);
                let value = claim.expr.eval(&|w, f| {
                    let &(agg, slot) = refs.get(&(w, f.to_string()))?;
                    self.figure(agg, slot, sample_ms)
                });
                judge(claim, value, due)
            })
            .collect()
    }

    pub fn claims(&self) -> &[Claim] {
        &self.claims
    }
}
