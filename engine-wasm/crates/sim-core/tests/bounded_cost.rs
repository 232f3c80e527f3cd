//! Bounded cost: every case of the robustness issue — sources
//! faster than their links, huge sample tables, thousands of variants, long
//! paths, long runs, validation gaps — is refused with a message naming a
//! path and the limit, or runs to its end within the cost the limits allow;
//! and a generator of hostile-but-legal scenarios, from a printed seed,
//! checks the same of hundreds more. The bound is the engine's own event
//! count (deterministic), not the wall clock: the cost model's estimate
//! must hold the events a run really handles.
//!
//! `HOSTILE_CASES` sets the generated count (default 240) and
//! `HOSTILE_SEED` replays one seed.
//!
//! Each generated run is held to twice its own estimate (`runner::estimate`)
//! in work — the events it handles plus the max-min oracle's water-filling
//! steps, both counted by the engine — and in memory, the most this thread
//! held at once, counted by this binary's allocator.

mod common;

use serde_json::{json, Value};
use sim_core::cell::scenario as parse;
use sim_core::cell::scenario::cost::cell_cost;
use sim_core::ip::scenario::ip_cost;
use sim_core::kernel::Rng;
use sim_core::probe::oracle_steps;
use sim_core::runner::{estimate, run_report, RunOptions};
use sim_core::scenario::cost::ORACLE_STEPS_PER_EVENT;
use sim_core::scenario::{Limits, ScenarioError};
use sim_core::Model;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Bytes this thread holds now and the most it held since the last reset.
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn held(change: i64) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + change;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// The system allocator, counting what each thread holds.
struct Tracking;

#[allow(unsafe_code, reason = "a global allocator is an unsafe trait; this one only counts")]
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            held(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held(-(layout.size() as i64));
        // SAFETY: `ptr` came from `alloc` or `realloc` here, i.e. from the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; the new size is the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            held(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

/// Runs `f`, returning its result and the most bytes this thread held meanwhile beyond what it
/// held before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, (PEAK.with(Cell::get) - base) as f64)
}

fn run(text: &str, opts: &RunOptions) -> Result<Value, Vec<ScenarioError>> {
    run_report(text, opts, &|| 0.0, &mut |_, _| {})
}

/// A refusal names a path and the limit it is over.
fn assert_limit_refusal(errors: &[ScenarioError], limit: &str) {
    assert!(
        errors.iter().any(|e| !e.path.is_empty() && e.message.contains(&format!("limits.{limit}"))),
        "expected a refusal naming a path and limits.{limit}: {errors:?}"
    );
}

/// h — s — d over links of `rate` Mbit/s, with what `extra` adds.
fn line(rate: f64, until_ms: f64, sample_ms: f64) -> Value {
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": "line",
        "run": {"until_ms": until_ms, "sample_interval_ms": sample_ms},
        "nodes": [{"id": "h", "kind": "host"}, {"id": "s", "kind": "switch"}, {"id": "d", "kind": "host"}],
        "links": [
            {"id": "l1", "a": "h", "b": "s", "rate_mbps": rate, "delay_ms": 0.01},
            {"id": "l2", "a": "s", "b": "d", "rate_mbps": rate, "delay_ms": 0.01}
        ],
        "vcs": []
    })
}

#[test]
fn a_background_faster_than_its_link_is_capped_with_a_warning() {
    // 10,000 Mbit/s onto 0.001 Mbit/s for 600 s: used to run for minutes,
    // growing the host queue cell by cell.
    let mut v = line(0.001, 600_000.0, 1000.0);
    v["background"] = json!([{"id": "flood", "path": ["h", "s", "d"], "rate_mbps": 10000}]);
    let s = parse::scenario_from_value(&v).unwrap();
    assert_eq!(s.background[0].rate_mbps, 0.001);
    assert!(s
        .warnings
        .iter()
        .any(|w| w.path == "background.flood.rate_mbps"
            && w.message.contains("capped at the link rate")));
    let r = run(&v.to_string(), &RunOptions::default()).unwrap();
    assert!(r["warnings"][0].as_str().unwrap().contains("background.flood"), "{r}");
    let events = r["stats"]["events"].as_f64().unwrap();
    assert!(events <= cell_cost(&s).total_events(), "{events} events");
    // 40 such sources for 1 s (81 s and 6.1 GB before) run within the estimate.
    let mut v = line(0.001, 1000.0, 10.0);
    v["background"] = Value::Array(
        (0..40)
            .map(|i| json!({"id": format!("b{i}"), "path": ["h", "s", "d"], "rate_mbps": 10000}))
            .collect(),
    );
    let s = parse::scenario_from_value(&v).unwrap();
    assert_eq!(s.warnings.len(), 40);
    let r = run(&v.to_string(), &RunOptions::default()).unwrap();
    assert!(r["stats"]["events"].as_f64().unwrap() <= cell_cost(&s).total_events());
}

/// A packet-model scenario: host S, router R, host D, the links S–R at `access` Mbit/s and
/// R–D at `bottleneck` with `port` as R's port towards D, and `flows` from S to D.
fn ip_line(
    access: f64,
    bottleneck: f64,
    (until_ms, sample_ms): (f64, f64),
    port: Value,
    flows: Value,
) -> Value {
    json!({
        "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": "ip-line",
        "run": {"until_ms": until_ms, "sample_interval_ms": sample_ms},
        "nodes": [{"id": "S", "kind": "host"}, {"id": "R", "kind": "router"}, {"id": "D", "kind": "host"}],
        "links": [
            {"id": "a", "a": "S", "b": "R", "rate_mbps": access, "delay_ms": 0.1},
            {"id": "b", "a": "R", "b": "D", "rate_mbps": bottleneck, "delay_ms": 0.1, "a_to_b": port}
        ],
        "flows": flows
    })
}

#[test]
fn udp_faster_than_its_access_link_is_capped_with_a_warning() {
    let flood = json!([{"id": "u", "kind": "udp", "path": ["S", "R", "D"], "rate_mbps": 100000}]);
    let v = ip_line(0.001, 0.001, (60000.0, 100.0), json!({}), flood);
    let s = sim_core::ip::scenario::ip_scenario_from_value(&v).unwrap();
    assert!(matches!(
        s.flows[0].kind,
        sim_core::ip::scenario::FlowKindSpec::Udp { rate_mbps, .. } if rate_mbps == 0.001
    ));
    assert!(s.warnings[0].message.contains("capped at the link rate"), "{:?}", s.warnings);
    let r = run(&v.to_string(), &RunOptions::default()).unwrap();
    assert!(r["stats"]["events"].as_f64().unwrap() <= ip_cost(&s).total_events());
}

#[test]
fn ten_thousand_links_sampled_every_10_us_are_refused_for_their_memory() {
    // 5,000 nodes, 9,997 links: a line and a line of skips.
    let n = 5000;
    let nodes: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("n{i}"), "kind": if i == 0 || i == n - 1 { "host" } else { "switch" }}))
        .collect();
    let mut links = Vec::new();
    for i in 0..n - 1 {
        links.push(json!({"id": format!("a{i}"), "a": format!("n{i}"), "b": format!("n{}", i + 1), "rate_mbps": 1, "delay_ms": 0}));
    }
    for i in 1..n - 3 {
        links.push(json!({"id": format!("b{i}"), "a": format!("n{i}"), "b": format!("n{}", i + 2), "rate_mbps": 1, "delay_ms": 0}));
    }
    let v = json!({
        "format": "abr-lab/scenario", "version": 1, "id": "wide",
        "run": {"until_ms": 1000, "sample_interval_ms": 0.01},
        "nodes": nodes, "links": links, "vcs": []
    });
    let errors = Model::from_json(&v.to_string()).err().unwrap();
    assert_limit_refusal(&errors, "max_memory_mb");
    assert!(errors.iter().any(|e| e.path == "run.sample_interval_ms"), "{errors:?}");
}

#[test]
fn variants_are_bounded_and_a_broken_base_is_reported_once() {
    let mut v: Value = serde_json::from_str(&common::scenario_text("two-source-wan.json")).unwrap();
    v["variants"] = Value::Array(
        (0..5000)
            .map(|i| json!({"id": format!("v{i}"), "set": {"run.until_ms": 100 + i}}))
            .collect(),
    );
    let errors = Model::from_json(&v.to_string()).err().unwrap();
    assert_eq!(errors[0].path, "variants");
    assert_limit_refusal(&errors, "max_variants");
    // ma-500-vcs has 16 variants; --until 600000 is refused once, not 17 times.
    let text = common::scenario_text("ma-500-vcs.json");
    let errors =
        run(&text, &RunOptions { until_ms: Some(600_000.0), ..Default::default() }).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("(limits."), "{errors:?}");
    // A sound base with one broken variant names that variant.
    let mut v: Value = serde_json::from_str(&common::scenario_text("two-source-wan.json")).unwrap();
    v["variants"] = json!([{"id": "ok", "set": {"run.until_ms": 200}},
                           {"id": "long", "set": {"run.until_ms": 36000000}}]);
    let errors = Model::from_json(&v.to_string()).err().unwrap();
    assert!(errors.iter().all(|e| e.path == "variants.long.set"), "{errors:?}");
}

#[test]
fn two_thousand_vcs_on_64_node_paths_are_refused_before_their_paths_are_walked() {
    let mut nodes = vec![json!({"id": "h0", "kind": "host"}), json!({"id": "h1", "kind": "host"})];
    let mut links = Vec::new();
    for i in 0..62 {
        nodes.push(json!({"id": format!("s{i}"), "kind": "switch"}));
        if i > 0 {
            links.push(json!({"id": format!("l{i}"), "a": format!("s{}", i - 1), "b": format!("s{i}"), "rate_mbps": 155.52, "delay_ms": 0.01}));
        }
    }
    links.push(json!({"id": "in", "a": "h0", "b": "s0", "rate_mbps": 155.52, "delay_ms": 0.01}));
    links.push(json!({"id": "out", "a": "s61", "b": "h1", "rate_mbps": 155.52, "delay_ms": 0.01}));
    let mut path = vec![json!("h0")];
    path.extend((0..62).map(|i| json!(format!("s{i}"))));
    path.push(json!("h1"));
    let vcs: Vec<Value> =
        (0..2000).map(|i| json!({"id": format!("v{i}"), "path": path.clone()})).collect();
    let mut v = json!({"format": "abr-lab/scenario", "version": 1, "id": "deep",
                   "nodes": nodes, "links": links, "vcs": vcs});
    let errors = Model::from_json(&v.to_string()).err().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].path, "vcs");
    assert_limit_refusal(&errors, "max_path_nodes");
    // With 10 variants (28 s to validate before): the base is refused once, no variant is walked.
    v["variants"] = Value::Array(
        (0..10).map(|i| json!({"id": format!("v{i}"), "set": {"run.until_ms": 100 + i}})).collect(),
    );
    let errors = Model::from_json(&v.to_string()).err().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_limit_refusal(&errors, "max_path_nodes");
}

#[test]
fn a_long_run_of_a_library_scenario_is_refused_naming_its_largest_source() {
    // two-source-wan at the 600 s run-length limit took 36.5 s.
    let text = common::scenario_text("two-source-wan.json");
    let errors =
        run(&text, &RunOptions { until_ms: Some(600_000.0), ..Default::default() }).unwrap_err();
    assert_limit_refusal(&errors, "max_events");
    assert!(errors[0].path.starts_with("vcs."), "{errors:?}");
    // Raised, it validates.
    let mut limits = Limits::default();
    limits.set("max_events", 1e10).unwrap();
    let opts = RunOptions { until_ms: Some(600_000.0), limits, ..Default::default() };
    let value = sim_core::runner::apply_options(&text, &opts).unwrap();
    assert!(sim_core::scenario::read_checked::<parse::Scenario>(&value, &limits).is_ok());
}

#[test]
fn a_source_whose_acr_decays_to_nothing_does_not_send_every_picosecond() {
    // Found by the structured fuzzer (STRUCTURED_SEED=5): vc5 (MCR 0, start-up "rate", on/off,
    // behind an EFCI switch) decays to an ACR of 5.3e-8 cells/s, whose cell interval, 1.9e19 ps,
    // is past the last picosecond a SimTime holds. It wrapped to 1 ps and the source sent a cell
    // every picosecond for ever (a hang at 23 ms); the interval now saturates ("never").
    let text = r#"{"format": "abr-lab/scenario", "version": 1, "id": "acr-decays-to-nothing", "run": {"until_ms": 50.91759333597093, "sample_interval_ms": 0.5, "seed": 312}, "nodes": [{"id": "dst", "kind": "host"}, {"id": "sw0", "kind": "switch"}, {"id": "h0", "kind": "host"}, {"id": "sw1", "kind": "switch"}, {"id": "h1", "kind": "host"}], "links": [{"id": "in0", "a": "h0", "b": "sw0", "rate_mbps": 155.52, "delay_ms": 0.3624464175667181}, {"id": "t0", "a": "sw0", "b": "sw1", "rate_mbps": 155.52, "delay_ms": 0.7686614816963645, "a_to_b": {"buffer_cells": 50.0, "queue": "per_vc", "algorithm": {"kind": "none"}}}, {"id": "in1", "a": "h1", "b": "sw1", "rate_mbps": 155.52, "delay_ms": 0.43548118334936825}, {"id": "t1", "a": "sw1", "b": "dst", "rate_mbps": 155.52, "delay_ms": 0.9092999723794488, "a_to_b": {"buffer_cells": 1000.0, "queue": "per_vc", "algorithm": {"kind": "efci"}}}], "vcs": [{"id": "vc0", "path": ["h0", "sw0", "sw1", "dst"], "pcr_mbps": 100.0, "mcr_mbps": 0.0, "nrm": 32, "rif": 0.00390625, "startup": "atm_forum", "bidirectional": false, "traffic": {"kind": "request_response", "start_ms": 3.9185031695935826, "request_cells": 62, "response_cells": 1036}}, {"id": "vc1", "path": ["h1", "sw1", "dst"], "pcr_mbps": 10.0, "mcr_mbps": 1.0, "nrm": 8, "rif": 1.0, "startup": "atm_forum", "bidirectional": false, "traffic": {"kind": "on_off", "start_ms": 3.1725660098266077, "on_ms": 4.154554531210649, "off_ms": 3.497934167859403}}, {"id": "vc2", "path": ["h0", "sw0", "sw1", "dst"], "pcr_mbps": 100.0, "mcr_mbps": 0.0, "nrm": 8, "rif": 0.0625, "startup": "rm", "bidirectional": false, "traffic": {"kind": "on_off", "start_ms": 2.2802475159279565, "on_ms": 5.547939383591217, "off_ms": 8.620872200729071}}, {"id": "vc3", "path": ["h1", "sw1", "dst"], "pcr_mbps": 10.0, "mcr_mbps": 1.0, "nrm": 8, "rif": 0.0625, "startup": "atm_forum", "bidirectional": false, "traffic": {"kind": "persistent", "start_ms": 1.355629938062807}}, {"id": "vc4", "path": ["h0", "sw0", "sw1", "dst"], "pcr_mbps": 155.52, "mcr_mbps": 1.0, "nrm": 8, "rif": 0.0625, "startup": "rate", "bidirectional": false, "traffic": {"kind": "request_response", "start_ms": 4.8104550009429685, "request_cells": 8, "response_cells": 283}}, {"id": "vc5", "path": ["h0", "sw0", "sw1", "dst"], "pcr_mbps": 155.52, "mcr_mbps": 0.0, "nrm": 2, "rif": 0.0625, "startup": "rate", "bidirectional": false, "traffic": {"kind": "on_off", "start_ms": 0.10278207042850714, "on_ms": 7.279596530477971, "off_ms": 1.798273489735879}}], "background": [{"id": "bg0", "kind": "cbr", "path": ["h0", "sw0", "sw1", "dst"], "rate_mbps": 52.755530776764736, "on_ms": 16.94114280860345, "off_ms": 14.252127548786989, "start_ms": 9.392324778976716}, {"id": "bg1", "kind": "vbr", "path": ["h1", "sw1", "dst"], "rate_mbps": 53.3906379688524, "on_ms": 12.44413501001369, "off_ms": 2.4831424259628863, "start_ms": 9.952339878441055}]}"#;
    let r = run(text, &RunOptions::default()).unwrap();
    let events = r["stats"]["events"].as_f64().unwrap();
    let s = parse::parse_scenario(text).unwrap();
    assert!(events <= cell_cost(&s).total_events(), "{events} events");
    assert!(r["stats"]["source_cells"].as_f64().unwrap() < 20_000.0, "{r}");
}

#[test]
fn validation_gaps_are_closed() {
    // A background that stops before it starts.
    let mut v = line(155.52, 100.0, 1.0);
    v["background"] = json!([{"id": "b", "path": ["h", "s", "d"], "rate_mbps": 1, "start_ms": 50, "stop_ms": 10}]);
    let errors = parse::scenario_from_value(&v).unwrap_err();
    assert_eq!(errors[0].path, "background.b.stop_ms", "{errors:?}");
    // A key given twice.
    let text = r#"{"format": "abr-lab/scenario", "version": 1, "run": {"until_ms": 10, "until_ms": 20},
                   "nodes": [], "links": [], "vcs": []}"#;
    let errors = parse::parse_scenario(text).unwrap_err();
    assert_eq!(errors[0].path, "run.until_ms");
    assert!(errors[0].message.contains("given twice"));
    let errors = run(text, &RunOptions::default()).unwrap_err();
    assert_eq!(errors[0].path, "run.until_ms");
    assert!(Model::from_json(text).is_err());
    // A 64 KB id is named, not echoed.
    let mut v = line(155.52, 100.0, 1.0);
    v["nodes"][0]["id"] = json!("x".repeat(65_536));
    let errors = parse::scenario_from_value(&v).unwrap_err();
    assert!(errors.iter().all(|e| e.to_string().len() < 400), "{}", errors[0].to_string().len());
    let mut v = line(155.52, 100.0, 1.0);
    v["y".repeat(65_536)] = json!(1);
    let errors = parse::scenario_from_value(&v).unwrap_err();
    assert!(errors.iter().all(|e| e.to_string().len() < 600), "{}", errors[0].to_string().len());
    // A root that is not an object, with --until or --set.
    for text in ["[1, 2]", "42", "\"x\"", "null"] {
        for opts in [
            RunOptions { until_ms: Some(10.0), ..Default::default() },
            RunOptions { sets: vec![("vcs.vc1.rif".into(), "1".into())], ..Default::default() },
        ] {
            let e = run(text, &opts).unwrap_err();
            assert!(e[0].message.contains("must be a JSON object"), "{text}: {e:?}");
        }
    }
    // Text over the input limit is refused before it is parsed.
    let mut limits = Limits::default();
    limits.set("max_input_bytes", 1000.0).unwrap();
    let big = format!("{{\"pad\": \"{}\"}}", " ".repeat(2000));
    let e = run(&big, &RunOptions { limits, ..Default::default() }).unwrap_err();
    assert_limit_refusal(&[ScenarioError::new("text", e[0].message.clone())], "max_input_bytes");
}

#[test]
fn the_packet_model_reports_undefined_values_as_null_not_nan() {
    // pletka-fmin-fairness has no TCP: its ratio is undefined in every row.
    let mut value: Value =
        serde_json::from_str(&common::scenario_text("pletka-fmin-fairness.json")).unwrap();
    // Its claims read windows of the full run; this one is shorter.
    value.as_object_mut().unwrap().remove("claims");
    let text = value.to_string();
    let mut saw_undefined = false;
    let r = run_report(
        &text,
        &RunOptions { until_ms: Some(1000.0), ..Default::default() },
        &|| 0.0,
        &mut |src, rows| {
            let ratio = src.columns().iter().position(|c| c == "ratio").unwrap();
            let width = src.columns().len();
            saw_undefined |= rows.chunks_exact(width).any(|row| row[ratio].is_nan());
        },
    )
    .unwrap();
    assert!(saw_undefined, "the sample rows carry NaN for an undefined ratio");
    let text = serde_json::to_string(&r).unwrap();
    assert!(!text.contains("NaN") && !text.contains("nan"), "{text}");
}

#[test]
fn library_estimates_are_within_the_limits_and_bound_a_run() {
    let dir = format!("{}/../../../scenarios", env!("CARGO_MANIFEST_DIR"));
    let limits = Limits::default();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    for name in &names {
        let value: Value = serde_json::from_str(&common::scenario_text(name)).unwrap();
        let (events, mb) = if value.get("model").and_then(Value::as_str) == Some("ip") {
            let c = ip_cost(&sim_core::ip::scenario::ip_scenario_from_value(&value).unwrap());
            (c.total_events(), c.total_memory_mb())
        } else {
            let mut v = value.clone();
            v.as_object_mut().unwrap().remove("model");
            let c = cell_cost(&parse::scenario_from_value(&v).unwrap());
            (c.total_events(), c.total_memory_mb())
        };
        println!("{name}: {events:.3e} events (limit {:.1e}), {mb:.1} MB", limits.max_events);
        assert!(events <= limits.max_events && mb <= limits.max_memory_mb, "{name}");
    }
    // The estimate bounds what a run handles.
    for name in ["two-source-wan.json", "erica-transient.json", "ohsaki-lan-fast-decrease.json"] {
        let text = common::scenario_text(name);
        let r = run(&text, &RunOptions::default()).unwrap();
        let s = parse::parse_scenario(&text).unwrap();
        let (actual, estimate) =
            (r["stats"]["events"].as_f64().unwrap(), cell_cost(&s).total_events());
        println!("{name}: {actual:.3e} events run, {estimate:.3e} estimated");
        assert!(actual <= estimate, "{name}: {actual} > {estimate}");
    }
}

// ---- hostile-but-legal scenarios from a printed seed ----

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

/// A rate anywhere from the slowest to the fastest a scenario allows.
fn extreme_rate(rng: &mut Rng) -> f64 {
    *pick(rng, &[0.001, 0.01, 1.0, 155.52, 622.08, 2488.32, 7000.0])
}

/// A legal cell-model scenario pushed towards cost: fast sources on slow
/// links, long runs, fine sampling, many sources, deep buffers.
fn hostile_cell(rng: &mut Rng) -> Value {
    let switches = 1 + rng.next_u64() % 4;
    let mut nodes = vec![json!({"id": "h", "kind": "host"}), json!({"id": "d", "kind": "host"})];
    let mut links = Vec::new();
    let mut path = vec![json!("h")];
    for i in 0..switches {
        nodes.push(json!({"id": format!("s{i}"), "kind": "switch"}));
        let from = if i == 0 { "h".to_string() } else { format!("s{}", i - 1) };
        let buffer = *pick(rng, &[1.0, 100.0, 100_000.0, 4_000_000.0]);
        // Up to 10 s of delay: cells in flight on a fast link.
        links.push(json!({"id": format!("l{i}"), "a": from, "b": format!("s{i}"),
            "rate_mbps": extreme_rate(rng), "delay_ms": *pick(rng, &[0.0, 0.001, 1.0, 100.0, 10_000.0]),
            "a_to_b": {"buffer_cells": buffer,
                       "queue": *pick(rng, &["fifo", "per_vc"]),
                       "algorithm": {"kind": *pick(rng, &sim_core::cell::switch_alg::algorithm_kinds())}}}));
        path.push(json!(format!("s{i}")));
    }
    links.push(json!({"id": "last", "a": format!("s{}", switches - 1), "b": "d",
        "rate_mbps": extreme_rate(rng), "delay_ms": 0.01}));
    path.push(json!("d"));
    // Now and then many VCs with distinct PCRs (every one a round of the max-min oracle's
    // water-filling), starting at a few instants or all at one, some switching on and off
    // every microsecond.
    let many = rng.next_u64().is_multiple_of(5);
    let instants = *pick(rng, &[1, 13]);
    let count = if many { 100 + rng.next_u64() % 400 } else { rng.next_u64() % 40 };
    let vcs: Vec<Value> = (0..count)
        .map(|i| {
            if many {
                let traffic = if i % 7 == 0 {
                    json!({"kind": "on_off", "on_ms": 0.001, "off_ms": 0.001})
                } else {
                    json!({"kind": "persistent", "start_ms": (i % instants) as f64 * 0.01})
                };
                return json!({"id": format!("v{i}"), "path": path.clone(),
                              "pcr_mbps": 1.0 + i as f64 * 0.37, "traffic": traffic});
            }
            let traffic = pick(rng, &[
                json!({"kind": "persistent"}),
                json!({"kind": "on_off", "on_ms": 0.001, "off_ms": 0.0}),
                json!({"kind": "bottlenecked", "rate_mbps": 10000, "for_ms": 36000000}),
                json!({"kind": "request_response", "request_cells": 100000000, "response_cells": 100000000}),
            ])
            .clone();
            json!({"id": format!("v{i}"), "path": path.clone(), "pcr_mbps": extreme_rate(rng),
                   "bidirectional": rng.next_u64().is_multiple_of(3) && traffic["kind"] != "request_response",
                   "nrm": *pick(rng, &[2, 32, 256]), "traffic": traffic})
        })
        .collect();
    let background: Vec<Value> = (0..rng.next_u64() % 50)
        .map(|i| {
            json!({"id": format!("b{i}"), "path": path.clone(), "rate_mbps": extreme_rate(rng),
                   "on_ms": *pick(rng, &[0.001, 1.0, 1000.0]), "off_ms": *pick(rng, &[0.0, 0.001, 5.0])})
        })
        .collect();
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": "hostile",
        "run": {"until_ms": *pick(rng, &[1.0, 100.0, 10_000.0, 600_000.0]),
                "sample_interval_ms": *pick(rng, &[0.01, 0.5, 1000.0])},
        "nodes": nodes, "links": links, "vcs": vcs, "background": background
    })
}

/// A legal packet-model scenario pushed towards cost.
fn hostile_ip(rng: &mut Rng) -> Value {
    let flows: Vec<Value> = (0..1 + rng.next_u64() % 4)
        .map(|i| {
            if rng.next_u64().is_multiple_of(2) {
                json!({"id": format!("u{i}"), "kind": "udp", "path": ["S", "R", "D"],
                       "rate_mbps": *pick(rng, &[0.001, 90.0, 100_000.0]),
                       "packet_bytes": *pick(rng, &[64, 1500, 9000])})
            } else {
                json!({"id": format!("t{i}"), "kind": "tcp", "path": ["S", "R", "D"],
                       "count": *pick(rng, &[1, 100, 2000]), "packet_bytes": *pick(rng, &[64, 1500]),
                       "min_rto_ms": *pick(rng, &[1.0, 200.0, 1000.0]),
                       "delayed_ack": rng.next_u64().is_multiple_of(2)})
            }
        })
        .collect();
    json!({
        "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": "hostile-ip",
        "run": {"until_ms": *pick(rng, &[10.0, 1000.0, 600_000.0]),
                "sample_interval_ms": *pick(rng, &[0.01, 10.0, 1000.0])},
        "nodes": [{"id": "S", "kind": "host"}, {"id": "R", "kind": "router"}, {"id": "D", "kind": "host"}],
        "links": [
            {"id": "a", "a": "S", "b": "R", "rate_mbps": extreme_rate(rng), "delay_ms": 0.1},
            {"id": "b", "a": "R", "b": "D", "rate_mbps": extreme_rate(rng), "delay_ms": 0.1,
             "a_to_b": {"buffer_pkts": *pick(rng, &[1, 300, 1000000]),
                        "aqm": {"kind": *pick(rng, &["drop_tail", "bat"])}}}
        ],
        "flows": flows
    })
}

#[test]
fn hostile_but_legal_scenarios_are_refused_or_run_within_their_bound() {
    let seed = std::env::var("HOSTILE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| std::process::id() as u64 ^ 0x5eed);
    let cases: u64 =
        std::env::var("HOSTILE_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(240);
    println!("hostile scenarios: HOSTILE_SEED={seed} HOSTILE_CASES={cases}");
    // Tight limits keep the test short; the bound they give is the same as the defaults'.
    let mut limits = Limits::default();
    limits.set("max_events", 3e6).unwrap();
    limits.set("max_memory_mb", 64.0).unwrap();
    let (mut refused, mut ran, mut events_run) = (0, 0, 0.0);
    for case in 0..cases {
        let mut rng = Rng::new(seed, case);
        let v = if case % 4 == 3 { hostile_ip(&mut rng) } else { hostile_cell(&mut rng) };
        let text = v.to_string();
        let replay = format!("HOSTILE_SEED={seed} case {case}");
        if std::env::var("HOSTILE_VERBOSE").is_ok() {
            eprintln!("{replay}: {text}");
        }
        // Report windows, up to past their limit.
        let until = v["run"]["until_ms"].as_f64().unwrap();
        let windows = *pick(&mut rng, &[0, 1, 3, 300, 1001]);
        let windows = (0..windows).map(|k| (0.0, until * (1 + k % 4) as f64 / 4.0)).collect();
        let opts = RunOptions { limits, windows, ..Default::default() };
        // The run's oracle steps, less those of the estimate it makes first (the same again).
        let steps = oracle_steps();
        let cost = estimate(&text, &opts);
        let checking = oracle_steps() - steps;
        let steps = oracle_steps();
        let (result, bytes) = peak_of(|| run(&text, &opts));
        let work_steps = (oracle_steps() - steps).saturating_sub(checking) as f64;
        match result {
            Err(errors) => {
                refused += 1;
                for e in &errors {
                    assert!(!e.path.is_empty(), "{replay}: {e}");
                    assert!(e.message.contains("(limits."), "{replay}: not a limit: {e}\n{text}");
                }
            }
            Ok(r) => {
                ran += 1;
                let events = r["stats"]["events"].as_f64().unwrap();
                events_run += events;
                let cost = cost.unwrap();
                let work = events + work_steps / ORACLE_STEPS_PER_EVENT;
                let (work_bound, bytes_bound) =
                    (2.0 * cost.total_events(), 2.0 * cost.total_memory_mb() * 1e6);
                assert!(
                    work <= work_bound,
                    "{replay}: {events} events and {work_steps} oracle steps, estimated {:.3e}: {:?}\n{text}",
                    cost.total_events(),
                    cost.events
                );
                assert!(
                    bytes <= bytes_bound,
                    "{replay}: held {bytes} bytes, estimated {:.0}: {:?}\n{text}",
                    cost.total_memory_mb() * 1e6,
                    cost.memory
                );
            }
        }
    }
    println!("{ran} ran to the end ({events_run:.3e} events), {refused} refused by a limit");
    // The costlier dimensions (1,001 windows, 10 s of delay on fast links, hundreds of VCs with
    // distinct PCRs) are refused more often than not: a tenth at least still runs.
    assert!(ran >= cases / 10 && refused >= cases / 5, "{ran} ran, {refused} refused");
}

/// The max-min oracle's work in `v`'s run, in events (its steps over
/// [`ORACLE_STEPS_PER_EVENT`]), with its estimate and the run's whole work and estimate.
fn oracle_work(v: &Value) -> (f64, f64, f64, f64) {
    let cost = cell_cost(&parse::scenario_from_value(v).unwrap());
    let oracle = cost.events.iter().find(|t| t.path == "vcs").unwrap().value;
    let steps = oracle_steps();
    let r = run(&v.to_string(), &RunOptions::default()).unwrap();
    let counted = (oracle_steps() - steps) as f64 / ORACLE_STEPS_PER_EVENT;
    let work = r["stats"]["events"].as_f64().unwrap() + counted;
    (counted, oracle, work, cost.total_events())
}

#[test]
fn the_max_min_oracle_is_water_filled_once_per_read_of_its_shares() {
    // 2,000 VCs with distinct PCRs, all starting at the same instant: the oracle water-filled
    // 2,000 rounds at every connection (18.6 s for 0.01 ms). Now the changes of an instant
    // take its inputs, and a sample water-fills once.
    let mut v = line(155.52, 0.01, 0.01);
    v["vcs"] = Value::Array(
        (0..2000)
            .map(|i| json!({"id": format!("v{i}"), "path": ["h", "s", "d"], "pcr_mbps": 1.0 + i as f64 * 0.05}))
            .collect(),
    );
    let (counted, oracle, work, estimate) = oracle_work(&v);
    println!("2,000 VCs at one instant: oracle {counted:.3e} counted, {oracle:.3e} estimated");
    assert!(counted <= oracle && work <= estimate, "{counted} > {oracle} or {work} > {estimate}");
    // Once per connection, its 2,000 flows × 2 ports × a few rounds each would be 1.6e8 steps.
    assert!(counted * ORACLE_STEPS_PER_EVENT < 2e7, "{counted}");
    // For 70 ms sampled every 10 µs, every sample may follow a change: refused, naming the oracle.
    v["run"]["until_ms"] = json!(70);
    v["vcs"].as_array_mut().unwrap().truncate(1990);
    let e = run(&v.to_string(), &RunOptions::default()).unwrap_err();
    assert_limit_refusal(&e, "max_events");
    assert!(e[0].path == "vcs" && e[0].message.contains("water-fillings"), "{e:?}");
    // 200 such VCs with one switching every microsecond: each switch takes the oracle's inputs.
    let mut v = line(155.52, 1.0, 0.1);
    let mut vcs: Vec<Value> = (0..200)
        .map(|i| json!({"id": format!("v{i}"), "path": ["h", "s", "d"], "pcr_mbps": 1.0 + i as f64 * 0.5}))
        .collect();
    vcs[0]["traffic"] = json!({"kind": "on_off", "on_ms": 0.001, "off_ms": 0.001});
    v["vcs"] = Value::Array(vcs);
    let (counted, oracle, work, estimate) = oracle_work(&v);
    println!("200 VCs, one on/off every µs: oracle {counted:.3e} counted, {oracle:.3e} estimated");
    // From above, and within a small factor: every VC is counted active at every change, and
    // the rounds as many as the least demands that fit in a port.
    assert!(counted <= oracle && oracle <= 8.0 * counted, "{counted} counted, {oracle} estimated");
    assert!(work <= estimate, "{work} > {estimate}");
}

#[test]
fn a_background_pulsing_faster_than_its_cells_sends_at_most_its_rate() {
    // 1 Mbit/s (a cell every 424 µs) on for 1 µs, off for 1 µs: each pulse used to start a
    // schedule of its own beside those still pending, and sent a cell at nearly every pulse
    // (100 times its rate, 18 MB queued in 100 ms where 2 MB were estimated).
    let mut v = line(1.0, 100.0, 10.0);
    v["background"] = json!([{"id": "b", "path": ["h", "s", "d"], "rate_mbps": 1.0, "on_ms": 0.001, "off_ms": 0.001}]);
    let mut sim = sim_core::cell::sim::Simulation::from_json(&v.to_string()).unwrap();
    sim.run_until(sim_core::time::SimTime::from_ms(100.0), u64::MAX);
    let sent = sim.background[0].sent as f64;
    let at_rate = sim_core::time::mbps_to_cells_per_s(1.0) * 0.1;
    println!("{sent} cells sent, {at_rate:.0} at its rate");
    assert!(sent > 0.0 && sent <= at_rate + 1.0, "{sent} cells, {at_rate} at its rate");
}

#[test]
fn tcp_on_the_slowest_links_stays_within_its_event_estimate() {
    // A 1,500-byte segment takes 12 s at 0.001 Mbit/s: no ACK comes back before the
    // retransmission timer, down to a minimum RTO of 1 ms, fires. The estimate used to floor a
    // flow at a segment every 200 ms and leave its timers' own events out.
    let mut worst: f64 = 0.0;
    for rate in [0.001, 0.01, 1.0] {
        for (min_rto, delayed_ack, bytes, count) in [
            (1.0, false, 1500, 1),
            (1.0, true, 64, 20),
            (200.0, true, 1500, 20),
            (1000.0, false, 64, 1),
        ] {
            let flows = json!([{"id": "t", "kind": "tcp", "path": ["S", "R", "D"], "count": count,
                                 "packet_bytes": bytes, "min_rto_ms": min_rto, "delayed_ack": delayed_ack}]);
            let bat = json!({"aqm": {"kind": "bat"}});
            let v = ip_line(155.52, rate, (20_000.0, 1000.0), bat, flows);
            let text = v.to_string();
            let estimate = estimate(&text, &RunOptions::default()).unwrap().total_events();
            let r = run(&text, &RunOptions::default()).unwrap();
            let events = r["stats"]["events"].as_f64().unwrap();
            let case = format!("{rate} Mbit/s, min RTO {min_rto} ms, {count} × {bytes} B");
            assert!(events <= estimate, "{case}: {events} events run, {estimate} estimated");
            worst = worst.max(events / estimate);
        }
    }
    println!("TCP on slow links: at most {worst:.2} of the estimate");
}

#[test]
fn cells_in_flight_are_in_the_memory_estimate() {
    // 10 Gbit/s for 10 s of delay: estimated at 0 MB, it held 723 MB.
    let mut v = line(10_000.0, 20_000.0, 1000.0);
    v["links"][1]["delay_ms"] = json!(10_000);
    v["background"] = json!([{"id": "b", "path": ["h", "s", "d"], "rate_mbps": 10_000}]);
    let e = run(&v.to_string(), &RunOptions::default()).unwrap_err();
    assert_limit_refusal(&e, "max_memory_mb");
    assert!(
        e.iter().any(|e| e.path == "links.l2.delay_ms" && e.message.contains("in flight")),
        "{e:?}"
    );
    // Slower, it runs, and holds no more than twice its estimate.
    v["links"][1]["rate_mbps"] = json!(10);
    v["background"][0]["rate_mbps"] = json!(10);
    let opts = RunOptions::default();
    let cost = estimate(&v.to_string(), &opts).unwrap();
    let (r, bytes) = peak_of(|| run(&v.to_string(), &opts));
    r.unwrap();
    println!(
        "10 Mbit/s × 10 s in flight: held {bytes:.3e} bytes, estimated {:.3e}",
        cost.total_memory_mb() * 1e6
    );
    assert!(bytes <= 2.0 * cost.total_memory_mb() * 1e6, "{bytes} bytes: {:?}", cost.memory);
    assert!(cost.memory.iter().any(|t| t.path == "links.l2.delay_ms"), "{:?}", cost.memory);
}
