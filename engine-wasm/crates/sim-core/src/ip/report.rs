//! What the packet model adds to the headless report (written by
//! [`crate::session::report`]): the runner's report shape with `classes`,
//! `flows` and `aqm` in place of the cell model's `vcs`, plus the measures of
//! Pletka et al.: per-class throughput, the UDP/TCP ratio, D_UDP and the
//! weighted fairness index. Like the cell model's, its windows aggregate the
//! sample rows — what is reported is what is plotted.

use super::fairness::weighted_fairness_index;
use super::sim::{FlowEnds, IpSimulation, AQM_COLUMNS, FLOW_COLUMNS, PORT_COLUMNS};
use crate::kernel::RunOutcome;
use crate::session::report::{round, Parts, PortSums, Reported, Tally};
use crate::time::SimTime;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// A number for JSON: `null` when undefined.
fn num(x: Option<f64>, digits: i32) -> Value {
    match x {
        Some(v) if v.is_finite() => json!(round(v, digits)),
        _ => Value::Null,
    }
}

/// A running mean that skips undefined (NaN) samples.
#[derive(Clone, Copy, Debug, Default)]
struct Mean {
    sum: f64,
    n: u64,
}

impl Mean {
    fn add(&mut self, x: f64) {
        if x.is_finite() {
            self.sum += x;
            self.n += 1;
        }
    }
    fn get(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }
}

/// Where each column sits in a row.
pub struct Layout {
    tcp: usize,
    udp: usize,
    ratio: usize,
    d_udp: usize,
    fairness: usize,
    /// (id, first column) per BAT flow.
    aqm: Vec<(String, usize)>,
    ports: Vec<(String, usize)>,
    flows: Vec<(String, usize)>,
}

impl Layout {
    fn new(sim: &IpSimulation) -> Layout {
        let index: HashMap<&str, usize> =
            sim.columns().iter().enumerate().map(|(i, c)| (c.as_str(), i)).collect();
        let at = |name: &str| index[name];
        let aqm = sim
            .bat_port
            .and_then(|p| sim.ports[p].aqm.bat())
            .map(|b| {
                b.flows
                    .iter()
                    .map(|f| (f.id.clone(), at(&format!("aqm.{}.{}", f.id, AQM_COLUMNS[0]))))
                    .collect()
            })
            .unwrap_or_default();
        Layout {
            tcp: at("class.tcp.throughput_mbps"),
            udp: at("class.udp.throughput_mbps"),
            ratio: at("ratio"),
            d_udp: at("d_udp"),
            fairness: at("fairness"),
            aqm,
            ports: sim
                .ports
                .iter()
                .map(|p| (p.id.clone(), at(&format!("port.{}.{}", p.id, PORT_COLUMNS[0]))))
                .collect(),
            flows: sim
                .flows
                .iter()
                .map(|f| (f.id.clone(), at(&format!("flow.{}.{}", f.id, FLOW_COLUMNS[0]))))
                .collect(),
        }
    }
}

/// Sums over the sample rows that fall in one window.
#[derive(Clone, Debug)]
pub struct IpSums {
    tcp: f64,
    udp: f64,
    ratio: Mean,
    d_udp: Mean,
    d_udp_last: f64,
    fairness: Mean,
    aqm: Vec<[f64; 4]>,
    port: Vec<PortSums>,
    flow: Vec<f64>,
}

impl IpSums {
    fn new(l: &Layout) -> IpSums {
        IpSums {
            tcp: 0.0,
            udp: 0.0,
            ratio: Mean::default(),
            d_udp: Mean::default(),
            d_udp_last: f64::NAN,
            fairness: Mean::default(),
            aqm: vec![[0.0; 4]; l.aqm.len()],
            port: vec![PortSums::default(); l.ports.len()],
            flow: vec![0.0; l.flows.len()],
        }
    }

    fn figures(&self, l: &Layout, rows: u64) -> Map<String, Value> {
        let n = rows.max(1) as f64;
        let (tcp, udp) = (self.tcp / n, self.udp / n);
        let mut aqm = Map::new();
        let (mut serviced, mut reference) = (Vec::new(), Vec::new());
        for (acc, (id, _)) in self.aqm.iter().zip(&l.aqm) {
            serviced.push(acc[2] / n);
            reference.push(acc[3] / n);
            aqm.insert(
                id.clone(),
                json!({
                    "transmit_probability": round(acc[0] / n, 5),
                    "offered_mbps": round(acc[1] / n, 4),
                    "serviced_mbps": round(acc[2] / n, 4),
                    "reference_mbps": round(acc[3] / n, 4),
                }),
            );
        }
        let mut ports = Map::new();
        for (acc, (id, _)) in self.port.iter().zip(&l.ports) {
            ports.insert(id.clone(), acc.figures(n, "packets_lost"));
        }
        let mut flows = Map::new();
        for (acc, (id, _)) in self.flow.iter().zip(&l.flows) {
            flows.insert(id.clone(), json!({ "throughput_mbps": round(acc / n, 4) }));
        }
        let figures = json!({
            "classes": {
                "tcp": { "throughput_mbps": round(tcp, 4) },
                "udp": { "throughput_mbps": round(udp, 4) },
            },
            // The long-run ratio: UDP over TCP throughput across the window.
            "ratio": num((tcp > 0.0).then(|| udp / tcp), 4),
            // The mean of the per-sample ratios.
            "ratio_mean": num(self.ratio.get(), 4),
            "d_udp": { "mean": num(self.d_udp.get(), 6), "last": num(Some(self.d_udp_last), 6) },
            // Equation 2 over the window's mean serviced rates against the mean reference.
            "fairness": num(weighted_fairness_index(&serviced, &reference).or_else(|| self.fairness.get()), 4),
            // The mean of the per-sample fairness indices.
            "fairness_mean": num(self.fairness.get(), 4),
            "aqm": aqm,
            "flows": flows,
            "ports": ports,
        });
        match figures {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }
}

impl Tally for IpSums {
    type Context = Layout;

    fn figures(&self, l: &Layout, rows: u64, _sample_ms: f64) -> Map<String, Value> {
        IpSums::figures(self, l, rows)
    }

    fn add(&mut self, l: &Layout, row: &[f64], prev: &[f64]) {
        self.tcp += row[l.tcp];
        self.udp += row[l.udp];
        self.ratio.add(row[l.ratio]);
        self.d_udp.add(row[l.d_udp]);
        self.d_udp_last = row[l.d_udp];
        self.fairness.add(row[l.fairness]);
        for (acc, (_, c)) in self.aqm.iter_mut().zip(&l.aqm) {
            for k in 0..4 {
                acc[k] += row[c + k];
            }
        }
        for (acc, (_, c)) in self.port.iter_mut().zip(&l.ports) {
            acc.add(row, prev, *c);
        }
        for (acc, (_, c)) in self.flow.iter_mut().zip(&l.flows) {
            *acc += row[*c];
        }
    }
}

impl Reported for IpSimulation {
    type Sums = IpSums;
    const MODEL: Option<&'static str> = Some(super::scenario::MODEL);
    const SENT: [&'static str; 2] = ["packets_sent", "packets_per_s"];

    fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        IpSimulation::run_until(self, deadline, max_events)
    }
    fn parts(&mut self) -> Parts<'_> {
        let (meta, run, warnings) = (&self.meta, &self.run, &self.warnings);
        Parts { meta, run, warnings, rec: &mut self.rec, sent: self.packets_sent }
    }
    fn context(&self) -> Layout {
        Layout::new(self)
    }
    fn sums(&self, l: &Layout) -> IpSums {
        IpSums::new(l)
    }

    /// The BAT port the class columns describe, each BAT flow's mean
    /// reference rate over the run, and the TCP senders' counters.
    fn extras(&self, _l: &Layout, totals: &mut Value) -> Map<String, Value> {
        let mut tcp =
            json!({ "segments_sent": 0, "retransmits": 0, "fast_retransmits": 0, "timeouts": 0 });
        for f in &self.flows {
            if let FlowEnds::Tcp { sender, .. } = &f.ends {
                for (key, v) in [
                    ("segments_sent", sender.stats.segments_sent),
                    ("retransmits", sender.stats.retransmits),
                    ("fast_retransmits", sender.stats.fast_retransmits),
                    ("timeouts", sender.stats.timeouts),
                ] {
                    tcp[key] = json!(tcp[key].as_u64().unwrap_or(0) + v);
                }
            }
        }
        let reference: Map<String, Value> = totals["aqm"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v["reference_mbps"].clone())).collect())
            .unwrap_or_default();
        let mut out = Map::new();
        out.insert("bat_port".into(), json!(self.bat_port.map(|p| self.ports[p].id.clone())));
        out.insert("reference_mbps".into(), Value::Object(reference));
        out.insert("tcp".into(), tcp);
        out
    }
}
