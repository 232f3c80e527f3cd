//! The headless run of a packet-level scenario: SPEC §10's report shape with
//! `classes`, `flows` and `aqm` in place of the cell model's `vcs`, plus the
//! measures of Pletka et al.: per-class throughput, the UDP/TCP ratio, D_UDP and
//! the weighted fairness index (issue 6 item 6). Like the cell runner, it
//! aggregates the sample rows — what is reported is what is plotted.

use super::fairness::weighted_fairness_index;
use super::scenario::ip_scenario_from_value_with;
use super::sim::{FlowEnds, IpSimulation, AQM_COLUMNS, FLOW_COLUMNS, PORT_COLUMNS};
use crate::kernel::RunOutcome;
use crate::scenario::ScenarioError;
use crate::session::report::{round, run_to_end, Sampled, Span, Tally};
use crate::session::{check_windows, RowSource, RunOptions};
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
struct Layout {
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
struct Window {
    from_ms: f64,
    to_ms: f64,
    rows: u64,
    tcp: f64,
    udp: f64,
    ratio: Mean,
    d_udp: Mean,
    d_udp_last: f64,
    fairness: Mean,
    aqm: Vec<[f64; 4]>,
    port: Vec<[f64; 4]>, // queue_mean sum, queue_max max, util sum, lost delta
    flow: Vec<f64>,
}

impl Window {
    fn new(from_ms: f64, to_ms: f64, l: &Layout) -> Window {
        Window {
            from_ms,
            to_ms,
            rows: 0,
            tcp: 0.0,
            udp: 0.0,
            ratio: Mean::default(),
            d_udp: Mean::default(),
            d_udp_last: f64::NAN,
            fairness: Mean::default(),
            aqm: vec![[0.0; 4]; l.aqm.len()],
            port: vec![[0.0; 4]; l.ports.len()],
            flow: vec![0.0; l.flows.len()],
        }
    }

    fn to_json(&self, l: &Layout) -> Value {
        let n = self.rows.max(1) as f64;
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
            ports.insert(
                id.clone(),
                json!({
                    "queue_mean": round(acc[0] / n, 3),
                    "queue_max": acc[1] as u64,
                    "utilization": round(acc[2] / n, 5),
                    "packets_lost": acc[3] as u64,
                }),
            );
        }
        let mut flows = Map::new();
        for (acc, (id, _)) in self.flow.iter().zip(&l.flows) {
            flows.insert(id.clone(), json!({ "throughput_mbps": round(acc / n, 4) }));
        }
        json!({
            "from_ms": self.from_ms,
            "to_ms": self.to_ms,
            "samples": self.rows,
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
        })
    }
}

impl Tally for Window {
    type Context = Layout;

    fn span(&self) -> Span {
        Span { from_ms: self.from_ms, to_ms: self.to_ms }
    }

    fn add(&mut self, l: &Layout, row: &[f64], prev: &[f64]) {
        self.rows += 1;
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
            acc[0] += row[c + 1];
            acc[1] = acc[1].max(row[c + 2]);
            acc[2] += row[c + 3];
            acc[3] += row[c + 4] - prev[c + 4];
        }
        for (acc, (_, c)) in self.flow.iter_mut().zip(&l.flows) {
            *acc += row[*c];
        }
    }
}

/// Builds the packet-level simulation from a scenario value with the options'
/// overrides already applied, runs it to its end and returns the report.
pub fn run_report(
    value: &Value,
    opts: &RunOptions,
    clock_ms: &dyn Fn() -> f64,
    on_rows: &mut dyn FnMut(&RowSource<'_>, &[f64]),
) -> Result<Value, Vec<ScenarioError>> {
    let scenario = ip_scenario_from_value_with(value, &opts.limits)?;
    check_windows(opts, scenario.run.until_ms)?;
    let mut sim = IpSimulation::build(&scenario);
    let layout = Layout::new(&sim);
    let sample_ms = sim.run.sample_interval_ms;
    let until_ms = sim.run.until_ms;
    let mut windows: Vec<Window> =
        opts.windows.iter().map(|&(f, t)| Window::new(f, t, &layout)).collect();
    let mut totals = Window::new(0.0, until_ms, &layout);
    let started = clock_ms();
    run_to_end(&mut sim, &layout, (until_ms, sample_ms), &mut windows, &mut totals, on_rows);
    let wall_ms = clock_ms() - started;

    let mut tcp =
        json!({ "segments_sent": 0, "retransmits": 0, "fast_retransmits": 0, "timeouts": 0 });
    for f in &sim.flows {
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
    let totals_json = totals.to_json(&layout);
    let reference: Map<String, Value> = totals_json["aqm"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v["reference_mbps"].clone())).collect())
        .unwrap_or_default();
    let events = sim.events();
    let per_s = |x: f64| if wall_ms > 0.0 { (x / wall_ms * 1000.0).round() } else { 0.0 };
    Ok(json!({
        "scenario": sim.meta.id,
        "variant": opts.variant,
        "model": "ip",
        "until_ms": until_ms,
        "seed": sim.run.seed,
        "stats": {
            "events": events,
            "wall_ms": round(wall_ms, 3),
            "packets_sent": sim.packets_sent,
            "events_per_s": per_s(events as f64),
            "packets_per_s": per_s(sim.packets_sent as f64),
            "realtime_factor": if wall_ms > 0.0 { round(until_ms / wall_ms, 3) } else { 0.0 },
            "series_hash": sim.series_hash(),
        },
        "bat_port": sim.bat_port.map(|p| sim.ports[p].id.clone()),
        "reference_mbps": reference,
        "tcp": tcp,
        "windows": windows.iter().map(|w| w.to_json(&layout)).collect::<Vec<_>>(),
        "totals": totals_json,
        "warnings": sim.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
    }))
}

impl Sampled for IpSimulation {
    fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        IpSimulation::run_until(self, deadline, max_events)
    }
    fn take_samples(&mut self) -> Vec<f64> {
        IpSimulation::take_samples(self)
    }
    fn columns(&self) -> &[String] {
        IpSimulation::columns(self)
    }
}
