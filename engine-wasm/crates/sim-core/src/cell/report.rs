//! What the cell model adds to the headless report (written by
//! [`crate::session::report`]): per window, each VC's mean ACR, throughput,
//! cells received and max-min share, each port's queue, utilisation and
//! losses, and the mean fairness; after the stats, every loop's max-min fair
//! rate; in the totals, each end system's end-of-run counters.

use super::sim::Simulation;
use super::switch_alg::SwitchAlgorithm;
use crate::kernel::RunOutcome;
use crate::probe::{self, PORT_COLUMNS, VC_COLUMNS};
use crate::session::report::{round, Parts, PortSums, Reported, Tally};
use crate::time::{cells_per_s_to_mbps, SimTime, CELL_BITS};
use serde_json::{json, Map, Value};

/// The loops' and ports' ids, in column order.
pub struct Ids {
    vcs: Vec<String>,
    ports: Vec<String>,
}

/// Sums over the sample rows that fall in one window.
#[derive(Clone, Debug)]
pub struct CellSums {
    vc: Vec<[f64; 3]>, // acr_mean sum, maxmin sum, received delta sum
    port: Vec<PortSums>,
    fairness: f64, // sum of the fairness column
}

impl Tally for CellSums {
    type Context = Ids;

    fn add(&mut self, _ids: &Ids, row: &[f64], prev: &[f64]) {
        let (nv, np) = (VC_COLUMNS.len(), PORT_COLUMNS.len());
        for (i, acc) in self.vc.iter_mut().enumerate() {
            let c = 1 + i * nv;
            acc[0] += row[c + 1];
            acc[1] += row[c + 2];
            acc[2] += row[c + 3] - prev[c + 3];
        }
        let base = 1 + self.vc.len() * nv;
        for (i, acc) in self.port.iter_mut().enumerate() {
            acc.add(row, prev, base + i * np);
        }
        self.fairness += row[base + self.port.len() * np];
    }

    fn figures(&self, ids: &Ids, rows: u64, sample_ms: f64) -> Map<String, Value> {
        let n = rows.max(1) as f64;
        let span_s = rows as f64 * sample_ms / 1000.0;
        let mut vcs = Map::new();
        for (acc, id) in self.vc.iter().zip(&ids.vcs) {
            let throughput = if span_s > 0.0 { acc[2] * CELL_BITS / span_s / 1e6 } else { 0.0 };
            vcs.insert(
                id.clone(),
                json!({
                    "acr_mbps": round(acc[0] / n, 4),
                    "throughput_mbps": round(throughput, 4),
                    "cells_received": acc[2] as u64,
                    "maxmin_mbps": round(acc[1] / n, 4),
                }),
            );
        }
        let mut ports = Map::new();
        for (acc, id) in self.port.iter().zip(&ids.ports) {
            ports.insert(id.clone(), acc.figures(n, "cells_lost"));
        }
        let mut out = Map::new();
        out.insert("fairness".into(), json!(round(self.fairness / n, 5)));
        out.insert("vcs".into(), Value::Object(vcs));
        out.insert("ports".into(), Value::Object(ports));
        out
    }
}

impl Reported for Simulation {
    type Sums = CellSums;
    const MODEL: Option<&'static str> = None;
    const SENT: [&'static str; 2] = ["source_cells", "source_cells_per_s"];

    fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        Simulation::run_until(self, deadline, max_events)
    }
    fn parts(&mut self) -> Parts<'_> {
        let (meta, run, warnings) = (&self.meta, &self.run, &self.warnings);
        Parts { meta, run, warnings, rec: &mut self.rec, sent: self.source_cells }
    }

    fn context(&self) -> Ids {
        Ids {
            vcs: self.vcs.iter().map(|v| v.id.clone()).collect(),
            ports: self.ports.iter().map(|p| p.id.clone()).collect(),
        }
    }

    fn sums(&self, ids: &Ids) -> CellSums {
        CellSums {
            vc: vec![[0.0; 3]; ids.vcs.len()],
            port: vec![PortSums::default(); ids.ports.len()],
            fairness: 0.0,
        }
    }

    /// Each loop's max-min fair rate over the whole run (`maxmin_mbps`), and
    /// the end-of-run counters of each end system beside its sampled totals.
    fn extras(&self, _ids: &Ids, totals: &mut Value) -> Map<String, Value> {
        let capacities: Vec<f64> =
            self.ports.iter().map(|p| p.algorithm.abr_capacity_cps(p.rate_cps)).collect();
        let flows: Vec<probe::Flow> = self
            .vcs
            .iter()
            .map(|v| probe::Flow { resources: v.fwd_ports.clone(), demand: v.source.params.pcr })
            .collect();
        let mut maxmin = Map::new();
        for (v, r) in self.vcs.iter().zip(probe::max_min_fair(&capacities, &flows)) {
            maxmin.insert(v.id.clone(), json!(round(cells_per_s_to_mbps(r), 4)));
        }
        for v in &self.vcs {
            let entry = &mut totals["vcs"][v.id.as_str()];
            entry["data_sent"] = json!(v.source.data_sent);
            entry["frm_sent"] = json!(v.source.frm_sent);
            entry["oor_frm_sent"] = json!(v.source.oor_frm_sent);
            entry["brm_received"] = json!(v.source.brm_received);
            entry["messages_done"] = json!(v.messages_done);
        }
        let mut out = Map::new();
        out.insert("maxmin_mbps".into(), Value::Object(maxmin));
        out
    }
}
