//! The headless run of SPEC §10: apply overrides, build, run to the end in
//! chunks, and aggregate the sample rows into windows and totals. The native
//! `abrsim` binary and the scenario tests both go through [`run_report`], so the
//! tests check exactly what the runner prints.

use crate::cell::sim::Simulation;
use crate::probe::{PORT_COLUMNS, VC_COLUMNS};
use crate::scenario::{self, ScenarioError};
use crate::time::SimTime;
use serde_json::{json, Map, Value};

use crate::session::report::{round, run_to_end, Sampled, Span, Tally};
pub use crate::session::{check_windows, RowSource, RunOptions};

/// Sums over the sample rows that fall in one window.
#[derive(Clone, Debug)]
struct Window {
    from_ms: f64,
    to_ms: f64,
    rows: u64,
    vc: Vec<[f64; 3]>,   // acr_mean sum, maxmin sum, received delta sum
    port: Vec<[f64; 4]>, // queue_mean sum, queue_max max, util sum, lost delta sum
    fairness: f64,       // sum of the fairness column
}

impl Window {
    fn new(from_ms: f64, to_ms: f64, vcs: usize, ports: usize) -> Window {
        Window {
            from_ms,
            to_ms,
            rows: 0,
            vc: vec![[0.0; 3]; vcs],
            port: vec![[0.0; 4]; ports],
            fairness: 0.0,
        }
    }

    fn to_json(&self, sim: &Simulation, sample_ms: f64) -> Value {
        let n = self.rows.max(1) as f64;
        let span_s = self.rows as f64 * sample_ms / 1000.0;
        let mut vcs = Map::new();
        for (i, acc) in self.vc.iter().enumerate() {
            let throughput =
                if span_s > 0.0 { acc[2] * crate::time::CELL_BITS / span_s / 1e6 } else { 0.0 };
            vcs.insert(
                sim.vcs[i].id.clone(),
                json!({
                    "acr_mbps": round(acc[0] / n, 4),
                    "throughput_mbps": round(throughput, 4),
                    "cells_received": acc[2] as u64,
                    "maxmin_mbps": round(acc[1] / n, 4),
                }),
            );
        }
        let mut ports = Map::new();
        for (i, acc) in self.port.iter().enumerate() {
            ports.insert(
                sim.ports[i].id.clone(),
                json!({
                    "queue_mean": round(acc[0] / n, 3),
                    "queue_max": acc[1] as u64,
                    "utilization": round(acc[2] / n, 5),
                    "cells_lost": acc[3] as u64,
                }),
            );
        }
        json!({
            "from_ms": self.from_ms, "to_ms": self.to_ms, "samples": self.rows,
            "fairness": round(self.fairness / n, 5), "vcs": vcs, "ports": ports,
        })
    }
}

impl Tally for Window {
    type Context = ();

    fn span(&self) -> Span {
        Span { from_ms: self.from_ms, to_ms: self.to_ms }
    }

    fn add(&mut self, _cx: &(), row: &[f64], prev: &[f64]) {
        self.rows += 1;
        let (nv, np) = (VC_COLUMNS.len(), PORT_COLUMNS.len());
        for (i, acc) in self.vc.iter_mut().enumerate() {
            let c = 1 + i * nv;
            acc[0] += row[c + 1];
            acc[1] += row[c + 2];
            acc[2] += row[c + 3] - prev[c + 3];
        }
        let base = 1 + self.vc.len() * nv;
        for (i, acc) in self.port.iter_mut().enumerate() {
            let c = base + i * np;
            acc[0] += row[c + 1];
            acc[1] = acc[1].max(row[c + 2]);
            acc[2] += row[c + 3];
            acc[3] += row[c + 4] - prev[c + 4];
        }
        self.fairness += row[base + self.port.len() * np];
    }
}

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

/// Parses a cell-model scenario and applies the options' overrides.
pub fn prepare(text: &str, opts: &RunOptions) -> Result<Simulation, Vec<ScenarioError>> {
    let (_, value) = crate::model::split_model(apply_options(text, opts)?)?;
    let scenario = crate::cell::scenario::scenario_from_value_with(&value, &opts.limits)?;
    check_windows(opts, scenario.run.until_ms)?;
    Ok(Simulation::build(&scenario))
}

/// Runs a scenario to its end and returns SPEC §10's report. `clock_ms` reads
/// the wall clock (the caller's, so this stays free of platform calls);
/// `on_rows` sees every batch of sample rows (for CSV output). Packet-level
/// scenarios (`"model": "ip"`) go to [`crate::ip::report::run_report`].
pub fn run_report(
    text: &str,
    opts: &RunOptions,
    clock_ms: &dyn Fn() -> f64,
    on_rows: &mut dyn FnMut(&RowSource<'_>, &[f64]),
) -> Result<Value, Vec<ScenarioError>> {
    let (kind, value) = crate::model::split_model(apply_options(text, opts)?)?;
    if kind == crate::model::ModelKind::Packet {
        return crate::ip::report::run_report(&value, opts, clock_ms, on_rows);
    }
    let scenario = crate::cell::scenario::scenario_from_value_with(&value, &opts.limits)?;
    check_windows(opts, scenario.run.until_ms)?;
    let mut sim = Simulation::build(&scenario);
    let sample_ms = sim.run.sample_interval_ms;
    let (nv, np) = (sim.vcs.len(), sim.ports.len());
    let until_ms = sim.run.until_ms;
    let mut windows: Vec<Window> =
        opts.windows.iter().map(|&(f, t)| Window::new(f, t, nv, np)).collect();
    let mut totals = Window::new(0.0, until_ms, nv, np);
    let started = clock_ms();
    run_to_end(&mut sim, &(), (until_ms, sample_ms), &mut windows, &mut totals, on_rows);
    let wall_ms = clock_ms() - started;

    let mut maxmin = Map::new();
    let all = crate::probe::max_min_fair(
        &sim.ports
            .iter()
            .map(|p| {
                crate::cell::switch_alg::SwitchAlgorithm::abr_capacity_cps(&p.algorithm, p.rate_cps)
            })
            .collect::<Vec<_>>(),
        &sim.vcs
            .iter()
            .map(|v| crate::probe::Flow {
                resources: v.fwd_ports.clone(),
                demand: v.source.params.pcr,
            })
            .collect::<Vec<_>>(),
    );
    for (v, r) in sim.vcs.iter().zip(all) {
        maxmin.insert(v.id.clone(), json!(round(crate::time::cells_per_s_to_mbps(r), 4)));
    }
    let events = sim.events();
    let mut totals_json = totals.to_json(&sim, sample_ms);
    // End-of-run counters of each end system, beside the sampled figures.
    for v in &sim.vcs {
        let entry = &mut totals_json["vcs"][v.id.as_str()];
        entry["data_sent"] = json!(v.source.data_sent);
        entry["frm_sent"] = json!(v.source.frm_sent);
        entry["oor_frm_sent"] = json!(v.source.oor_frm_sent);
        entry["brm_received"] = json!(v.source.brm_received);
        entry["messages_done"] = json!(v.messages_done);
    }
    Ok(json!({
        "scenario": sim.meta.id,
        "variant": opts.variant,
        "until_ms": until_ms,
        "seed": sim.run.seed,
        "stats": {
            "events": events,
            "wall_ms": round(wall_ms, 3),
            "source_cells": sim.source_cells,
            "events_per_s": if wall_ms > 0.0 { (events as f64 / wall_ms * 1000.0).round() } else { 0.0 },
            "source_cells_per_s": if wall_ms > 0.0 { (sim.source_cells as f64 / wall_ms * 1000.0).round() } else { 0.0 },
            "realtime_factor": if wall_ms > 0.0 { round(until_ms / wall_ms, 3) } else { 0.0 },
            "series_hash": sim.series_hash(),
        },
        "maxmin_mbps": maxmin,
        "windows": windows.iter().map(|w| w.to_json(&sim, sample_ms)).collect::<Vec<_>>(),
        "totals": totals_json,
        "warnings": sim.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
    }))
}

impl Sampled for Simulation {
    fn run_until(&mut self, deadline: SimTime, max_events: u64) -> crate::RunOutcome {
        Simulation::run_until(self, deadline, max_events)
    }
    fn take_samples(&mut self) -> Vec<f64> {
        Simulation::take_samples(self)
    }
    fn columns(&self) -> &[String] {
        Simulation::columns(self)
    }
}
