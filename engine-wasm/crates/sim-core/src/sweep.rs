//! The four figures a sweep reports for one grid point, computed from the sample rows of a run:
//! the one implementation behind `abrsim sweep` and the page's sweep (through `sim-wasm`).
//!
//! - a row counts towards the window [from, to] when the interval it covers, (t − Δ, t], lies in it;
//! - `max_queue`: the largest `queue_max` of any port in the network (a switch's or a router's);
//! - `utilization`: the highest mean `util` of any such port — the bottleneck's utilisation;
//! - `fairness`: the mean of the `fairness` column (Jain's index of the active VCs' mean ACR over
//!   their max-min shares; in the packet model the weighted index of Pletka et al., to 4 places);
//! - `cells_lost`: the growth of every port's `lost` counter over the window, summed (cells, or packets
//!   in the packet model).
//!
//! The figures equal those of the runner's report window over the same rows (runner.rs), which
//! `abrsim`'s sweep tests check point by point.

use serde_json::Value;

/// A sweep point's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SweepSummary {
    pub max_queue: f64,
    pub utilization: f64,
    /// None when the model samples no fairness column.
    pub fairness: Option<f64>,
    /// Cells (packets in the packet model) lost at every port.
    pub cells_lost: f64,
}

/// The columns of one port a summary reads.
#[derive(Clone, Debug)]
struct PortColumns {
    queue_max: usize,
    util: usize,
    lost: usize,
    /// Whether it transmits from a switch or router (not a host's own port).
    network: bool,
}

/// Sums over the sample rows of one window, fed as the run goes.
#[derive(Clone, Debug)]
pub struct WindowSummary {
    width: usize,
    ports: Vec<PortColumns>,
    fairness_column: Option<usize>,
    fairness_digits: i32,
    from_ms: f64,
    to_ms: f64,
    sample_ms: f64,
    prev: Vec<f64>,
    rows: u64,
    queue_max: Vec<f64>,
    util_sum: Vec<f64>,
    lost: Vec<f64>,
    fairness_sum: f64,
}

impl WindowSummary {
    /// A summary over [from, to] ms of the run a layout (`Model::layout`) describes.
    pub fn from_layout(layout: &Value, window: (f64, f64)) -> Result<WindowSummary, String> {
        let columns: Vec<&str> = layout["columns"]
            .as_array()
            .ok_or("the layout has no columns")?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let at = |name: String| {
            columns
                .iter()
                .position(|c| *c == name)
                .ok_or_else(|| format!("the engine has no sample column \"{name}\""))
        };
        let mut ports = Vec::new();
        for p in layout["ports"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let id = p["id"].as_str().ok_or("a port without an id")?;
            ports.push(PortColumns {
                queue_max: at(format!("port.{id}.queue_max"))?,
                util: at(format!("port.{id}.util"))?,
                lost: at(format!("port.{id}.lost"))?,
                network: p["from_kind"] != "host",
            });
        }
        let n = ports.len();
        Ok(WindowSummary {
            width: columns.len(),
            ports,
            fairness_column: columns.iter().position(|c| *c == "fairness"),
            fairness_digits: if layout["model"] == "ip" { 4 } else { 5 },
            from_ms: window.0,
            to_ms: window.1,
            sample_ms: layout["sample_interval_ms"].as_f64().unwrap_or(1.0),
            prev: vec![0.0; columns.len()],
            rows: 0,
            queue_max: vec![0.0; n],
            util_sum: vec![0.0; n],
            lost: vec![0.0; n],
            fairness_sum: 0.0,
        })
    }

    /// Folds in flat row-major sample rows, in time order.
    pub fn add(&mut self, rows: &[f64]) {
        const EPS: f64 = 1e-9;
        if self.width == 0 {
            return;
        }
        for row in rows.chunks_exact(self.width) {
            let end = row[0];
            let start = end - self.sample_ms;
            if start >= self.from_ms - EPS && end <= self.to_ms + EPS {
                self.rows += 1;
                for (i, p) in self.ports.iter().enumerate() {
                    self.queue_max[i] = self.queue_max[i].max(row[p.queue_max]);
                    self.util_sum[i] += row[p.util];
                    self.lost[i] += row[p.lost] - self.prev[p.lost];
                }
                if let Some(c) = self.fairness_column {
                    self.fairness_sum += row[c];
                }
            }
            self.prev.copy_from_slice(row);
        }
    }

    /// The figures so far.
    pub fn summary(&self) -> SweepSummary {
        let n = self.rows.max(1) as f64;
        let mut s =
            SweepSummary { max_queue: 0.0, utilization: 0.0, fairness: None, cells_lost: 0.0 };
        for (i, p) in self.ports.iter().enumerate() {
            s.cells_lost += self.lost[i].trunc();
            if p.network {
                s.max_queue = s.max_queue.max(self.queue_max[i].trunc());
                s.utilization = s.utilization.max(round(self.util_sum[i] / n, 5));
            }
        }
        s.fairness =
            self.fairness_column.map(|_| round(self.fairness_sum / n, self.fairness_digits));
        s
    }
}

impl SweepSummary {
    /// `{"max_queue", "utilization", "fairness", "cells_lost"}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "max_queue": self.max_queue,
            "utilization": self.utilization,
            "fairness": self.fairness,
            "cells_lost": self.cells_lost,
        })
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rows_in_the_window_give_the_four_figures() {
        let layout = json!({
            "model": "cell", "sample_interval_ms": 1.0,
            "columns": ["t_ms", "port.p.queue_max", "port.p.util", "port.p.lost",
                        "port.h.queue_max", "port.h.util", "port.h.lost", "fairness"],
            "ports": [{"id": "p", "from_kind": "switch"}, {"id": "h", "from_kind": "host"}],
        });
        let mut s = WindowSummary::from_layout(&layout, (1.0, 3.0)).unwrap();
        s.add(&[
            1.0, 5.0, 0.5, 1.0, 90.0, 1.0, 0.0, 0.9, // (0, 1]: outside
            2.0, 7.0, 0.8, 3.0, 99.0, 1.0, 1.0, 1.0, // (1, 2]
            3.0, 2.0, 0.6, 4.0, 0.0, 1.0, 1.0, 0.5, // (2, 3]
        ]);
        let got = s.summary();
        assert_eq!(got.max_queue, 7.0, "the host's queue does not count");
        assert_eq!(got.utilization, 0.7);
        assert_eq!(got.fairness, Some(0.75));
        assert_eq!(got.cells_lost, 4.0, "growth within the window at every port");
    }
}
