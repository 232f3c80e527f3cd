//! Helpers shared by the scenario tests: load a file from `scenarios/` and run
//! it through the runner exactly as `abrsim run` does.
#![allow(dead_code, reason = "each test binary uses its own subset of these helpers")]

pub mod binary_fluid;
pub mod generate;

use serde_json::{json, Value};
use sim_core::runner::{run_report, RunOptions};

/// The text of `scenarios/<name>`.
pub fn scenario_text(name: &str) -> String {
    let path = format!("{}/../../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The file names of the library (`scenarios/*.json`), sorted.
pub fn library_files() -> Vec<String> {
    let dir = format!("{}/../../../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("scenarios/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".json"))
        .collect();
    files.sort();
    files
}

/// Every file of `scenarios/` (`*.json`), by name, in name order, with its text.
pub fn library_texts() -> Vec<(String, String)> {
    library_files().into_iter().map(|n| (scenario_text(&n), n)).map(|(t, n)| (n, t)).collect()
}

/// `each(file name, text)` over every library file on two worker threads (the machine the
/// tests run on has two cores to share), the rows it returns gathered in no set order.
pub fn on_library_files<T: Send>(each: impl Fn(&str, &str) -> Vec<T> + Sync) -> Vec<T> {
    let files = library_files();
    let next = std::sync::Mutex::new(0usize);
    let rows = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(file) = files.get(i) else { break };
                let got = each(file, &scenario_text(file));
                rows.lock().unwrap().extend(got);
            });
        }
    });
    rows.into_inner().unwrap()
}

/// The runner's report for `scenarios/<name>` with `opts`.
pub fn report(name: &str, opts: &RunOptions) -> Value {
    run_report(&scenario_text(name), opts, &|| 0.0, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{name}: {}", sim_core::scenario::format_errors(&e)))
}

/// Windows `[(from, to)]` and an optional `--until`, with `--set` pairs.
pub fn opts(until_ms: Option<f64>, windows: &[(f64, f64)], sets: &[(&str, &str)]) -> RunOptions {
    RunOptions {
        until_ms,
        windows: windows.to_vec(),
        sets: sets.iter().map(|(p, v)| (p.to_string(), v.to_string())).collect(),
        ..Default::default()
    }
}

/// Like [`opts`], for one of the scenario's variants.
pub fn variant(
    id: &str,
    until_ms: Option<f64>,
    windows: &[(f64, f64)],
    sets: &[(&str, &str)],
) -> RunOptions {
    RunOptions { variant: Some(id.to_string()), ..opts(until_ms, windows, sets) }
}

/// Runs `f` on the sample rows of a scenario run (column names first).
pub fn samples(name: &str, opts: &RunOptions) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut columns = Vec::new();
    let mut rows = Vec::new();
    run_report(&scenario_text(name), opts, &|| 0.0, &mut |sim, batch| {
        if columns.is_empty() {
            columns = sim.columns().to_vec();
        }
        rows.extend(batch.chunks_exact(sim.columns().len()).map(|r| r.to_vec()));
    })
    .unwrap_or_else(|e| panic!("{name}: {}", sim_core::scenario::format_errors(&e)));
    (columns, rows)
}

/// The index of `name` among `columns`.
pub fn col(columns: &[String], name: &str) -> usize {
    columns.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"))
}

/// `report["windows"][w]["vcs"][vc][key]` as f64.
pub fn vc_stat(r: &Value, w: usize, vc: &str, key: &str) -> f64 {
    r["windows"][w]["vcs"][vc][key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} for {vc} in window {w}"))
}

/// `report["windows"][w]["ports"][port][key]` as f64.
pub fn port_stat(r: &Value, w: usize, port: &str, key: &str) -> f64 {
    r["windows"][w]["ports"][port][key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} for {port} in window {w}"))
}

/// Total cells lost over the run, all ports.
pub fn total_lost(r: &Value) -> u64 {
    r["totals"]["ports"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p["cells_lost"].as_u64().unwrap())
        .sum()
}

/// The packet model's dumbbell S — R1 — R2 — D that the generated tests use:
/// 1 Gbit/s access links, the R1→R2 bottleneck with `buffer_pkts` and
/// drop-tail, or BAT with CLCC at `bat = Some(r_ref)`, carrying `flows`
/// (each on the path S, R1, R2, D).
pub fn ip_dumbbell(
    id: &str,
    run: Value,
    bottleneck_mbps: f64,
    buffer_pkts: u64,
    bat: Option<f64>,
    flows: Vec<Value>,
) -> Value {
    let aqm = match bat {
        None => json!({"kind": "drop_tail"}),
        Some(r_ref) => json!({"kind": "bat", "clcc": {"r_ref": r_ref}}),
    };
    json!({
        "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": id, "run": run,
        "nodes": [{"id": "S", "kind": "host"}, {"id": "R1", "kind": "router"},
                  {"id": "R2", "kind": "router"}, {"id": "D", "kind": "host"}],
        "links": [
            {"id": "a", "a": "S", "b": "R1", "rate_mbps": 1000, "delay_ms": 0.1},
            {"id": "b", "a": "R1", "b": "R2", "rate_mbps": bottleneck_mbps, "delay_ms": 0.5,
             "a_to_b": {"buffer_pkts": buffer_pkts, "aqm": aqm}},
            {"id": "c", "a": "R2", "b": "D", "rate_mbps": 1000, "delay_ms": 0.1}
        ],
        "flows": flows
    })
}

/// A cell-model scenario built with the event-saving shortcuts and built without
/// them (`Simulation::build_without_shortcuts`), each run to `until_ms` or
/// its end if sooner: the two series hashes and the two event counts. None
/// for a packet-model scenario.
pub fn with_and_without_shortcuts(value: Value, until_ms: f64) -> Option<([String; 2], [u64; 2])> {
    use sim_core::cell::{scenario::scenario_from_value, Simulation};
    use sim_core::kernel::RunOutcome;
    use sim_core::model::{split_model, ModelKind};
    use sim_core::time::SimTime;
    let (kind, value) = split_model(value).expect("a scenario of either model");
    if kind != ModelKind::Cell {
        return None;
    }
    let s = scenario_from_value(&value).expect("a valid scenario");
    let until = SimTime::from_ms(s.run.until_ms.min(until_ms));
    let run = |mut sim: Simulation| {
        while sim.run_until(until, 1 << 18) == RunOutcome::BudgetExhausted {
            sim.take_samples();
        }
        (sim.series_hash(), sim.events())
    };
    let (fast, fast_events) = run(Simulation::build(&s));
    let (plain, plain_events) = run(Simulation::build_without_shortcuts(&s));
    Some(([fast, plain], [fast_events, plain_events]))
}
