//! The golden test: every library scenario and every one of its
//! variants, run to its end, must give exactly the results pinned in
//! `tests/golden/summaries.json`, so that work on the engine's speed cannot
//! change what it computes. Each entry pins the series hash (every sample
//! value, bit for bit), a hash of the runner's whole report (windows, totals,
//! end-of-run counters, warnings) with only the wall-clock and event-count
//! figures and the series hash taken out (so that a new way of hashing the
//! series shows as a change of the series hashes alone), and the number of
//! source cells.
//!
//! The event count is left out on purpose: handling the same cells with fewer
//! events is what speed work does. `GOLDEN_UPDATE=1 cargo test --release
//! --test golden` rewrites the file; do that only for a change meant to alter
//! results, and say why in the commit.

mod common;

use serde_json::{json, Map, Value};
use sim_core::runner::{run_report, RunOptions};
use std::collections::BTreeMap;
use std::sync::Mutex;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/summaries.json");

/// Every `(file, variant)` of the library, the base scenario first.
fn cases() -> Vec<(String, Option<String>)> {
    let files = common::library_files();
    let mut cases = Vec::new();
    for f in files {
        let doc: Value =
            serde_json::from_str(&common::scenario_text(&f)).expect("library scenarios parse");
        cases.push((f.clone(), None));
        for v in doc["variants"].as_array().into_iter().flatten() {
            cases.push((f.clone(), Some(v["id"].as_str().expect("variant id").to_string())));
        }
    }
    cases
}

fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// What a run is pinned by.
fn summary(file: &str, variant: &Option<String>) -> Value {
    let opts = RunOptions { variant: variant.clone(), ..Default::default() };
    let mut report = run_report(&common::scenario_text(file), &opts, &|| 0.0, &mut |_, _| {})
        .unwrap_or_else(|e| {
            panic!("{file} {variant:?}: {}", sim_core::scenario::format_errors(&e))
        });
    let stats = report["stats"].as_object_mut().expect("stats");
    let series_hash = stats.remove("series_hash").expect("a series hash");
    let source_cells = stats.get("source_cells").cloned().unwrap_or(Value::Null);
    for volatile in ["events", "wall_ms", "events_per_s", "source_cells_per_s", "realtime_factor"] {
        stats.remove(volatile);
    }
    json!({
        "series_hash": series_hash,
        "report_hash": fnv(&report.to_string()),
        "source_cells": source_cells,
    })
}

#[test]
fn every_library_run_gives_its_pinned_results() {
    let cases = cases();
    let next = Mutex::new(0usize);
    let found = Mutex::new(BTreeMap::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some((file, variant)) = cases.get(i) else { return };
                let key = match variant {
                    Some(v) => format!("{file}#{v}"),
                    None => file.clone(),
                };
                let s = summary(file, variant);
                found.lock().unwrap().insert(key, s);
            });
        }
    });
    let found: Map<String, Value> = found.into_inner().unwrap().into_iter().collect();

    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::create_dir_all(std::path::Path::new(GOLDEN).parent().unwrap()).unwrap();
        std::fs::write(GOLDEN, serde_json::to_string_pretty(&Value::Object(found)).unwrap() + "\n")
            .unwrap();
        return;
    }
    let pinned: Map<String, Value> = serde_json::from_str(
        &std::fs::read_to_string(GOLDEN).expect("tests/golden/summaries.json"),
    )
    .expect("golden file parses");
    let mut differences = Vec::new();
    for (key, want) in &pinned {
        match found.get(key) {
            None => differences.push(format!("{key}: pinned but no longer in the library")),
            Some(got) if got != want => {
                differences.push(format!("{key}: pinned {want}, now {got}"))
            }
            Some(_) => {}
        }
    }
    for key in found.keys().filter(|k| !pinned.contains_key(*k)) {
        differences.push(format!("{key}: not pinned (run with GOLDEN_UPDATE=1 to add it)"));
    }
    assert!(
        differences.is_empty(),
        "{} of {} runs differ:\n{}",
        differences.len(),
        found.len(),
        differences.join("\n")
    );
}
