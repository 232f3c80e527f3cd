//! Fuzzing that reaches the simulator: a structured generator of mostly-valid
//! scenarios — every switch algorithm, both queue disciplines, every traffic
//! model, start-up option, background sources, bidirectional VCs, and IP
//! flows over drop-tail and BAT — each run for tens of milliseconds (many
//! round trips), with invariants checked on the report. The arbitrary-JSON
//! fuzzing of fuzz_scenarios.rs almost never gets a document past the
//! validator; this one gets nearly all of them into a run.
//!
//! `STRUCTURED_SEED` replays a seed (printed); `STRUCTURED_CASES` sets the count.

use serde_json::{json, Value};
use sim_core::cell::scenario::{QUEUE_DISCIPLINES, STARTUP_OPTIONS};
use sim_core::cell::switch_alg::algorithm_kinds;
use sim_core::kernel::Rng;
use sim_core::runner::{run_report, RunOptions};

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

fn between(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.next_f64()
}

/// A parking-lot of 1–3 switches, each with its own source host and a shared
/// destination; VCs enter at any switch.
fn cell_scenario(rng: &mut Rng, case: u64) -> Value {
    let switches = 1 + (rng.next_u64() % 3) as usize;
    let mut nodes = vec![json!({"id": "dst", "kind": "host"})];
    let mut links = Vec::new();
    for i in 0..switches {
        nodes.push(json!({"id": format!("sw{i}"), "kind": "switch"}));
        nodes.push(json!({"id": format!("h{i}"), "kind": "host"}));
        links.push(json!({"id": format!("in{i}"), "a": format!("h{i}"), "b": format!("sw{i}"),
                          "rate_mbps": 155.52, "delay_ms": between(rng, 0.0, 0.5)}));
        let next = if i + 1 < switches { format!("sw{}", i + 1) } else { "dst".to_string() };
        let alg = *pick(rng, &algorithm_kinds());
        links.push(json!({"id": format!("t{i}"), "a": format!("sw{i}"), "b": next,
            "rate_mbps": *pick(rng, &[10.0, 50.0, 155.52]), "delay_ms": between(rng, 0.01, 2.0),
            "a_to_b": {"buffer_cells": *pick(rng, &[50.0, 1000.0, 100_000.0]),
                       "queue": *pick(rng, QUEUE_DISCIPLINES),
                       "algorithm": {"kind": alg}}}));
    }
    let path_from = |i: usize| {
        let mut p = vec![json!(format!("h{i}"))];
        p.extend((i..switches).map(|k| json!(format!("sw{k}"))));
        p.push(json!("dst"));
        p
    };
    let vcs: Vec<Value> = (0..1 + rng.next_u64() % 6)
        .map(|v| {
            let start = between(rng, 0.0, 5.0);
            let traffic = match rng.next_u64() % 4 {
                0 => json!({"kind": "persistent", "start_ms": start}),
                1 => json!({"kind": "on_off", "start_ms": start, "on_ms": between(rng, 0.5, 10.0), "off_ms": between(rng, 0.0, 10.0)}),
                2 => json!({"kind": "bottlenecked", "start_ms": start, "rate_mbps": between(rng, 1.0, 100.0), "for_ms": between(rng, 1.0, 20.0)}),
                _ => json!({"kind": "request_response", "start_ms": start, "request_cells": 1 + rng.next_u64() % 64, "response_cells": 1 + rng.next_u64() % 2000}),
            };
            let bidirectional = traffic["kind"] != "request_response" && rng.next_u64().is_multiple_of(4);
            json!({"id": format!("vc{v}"), "path": path_from((rng.next_u64() % switches as u64) as usize),
                   "pcr_mbps": *pick(rng, &[10.0, 100.0, 155.52]), "mcr_mbps": *pick(rng, &[0.0, 0.0, 1.0]),
                   "nrm": *pick(rng, &[2, 8, 32]), "rif": *pick(rng, &[1.0 / 256.0, 1.0 / 16.0, 1.0]),
                   "startup": *pick(rng, STARTUP_OPTIONS), "bidirectional": bidirectional,
                   "traffic": traffic})
        })
        .collect();
    let background: Vec<Value> = (0..rng.next_u64() % 3)
        .map(|b| {
            json!({"id": format!("bg{b}"), "kind": *pick(rng, &["cbr", "vbr"]),
                   "path": path_from((rng.next_u64() % switches as u64) as usize),
                   "rate_mbps": between(rng, 1.0, 60.0), "on_ms": between(rng, 1.0, 20.0),
                   "off_ms": between(rng, 0.0, 20.0), "start_ms": between(rng, 0.0, 10.0)})
        })
        .collect();
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": format!("gen-{case}"),
        "run": {"until_ms": between(rng, 20.0, 60.0), "sample_interval_ms": 0.5, "seed": case},
        "nodes": nodes, "links": links, "vcs": vcs, "background": background
    })
}

fn ip_scenario(rng: &mut Rng, case: u64) -> Value {
    let flows: Vec<Value> = (0..1 + rng.next_u64() % 3)
        .map(|i| {
            if rng.next_u64().is_multiple_of(3) {
                json!({"id": format!("u{i}"), "kind": "udp", "path": ["S", "R1", "R2", "D"],
                       "rate_mbps": between(rng, 1.0, 150.0), "start_ms": between(rng, 0.0, 50.0)})
            } else {
                json!({"id": format!("t{i}"), "kind": "tcp", "path": ["S", "R1", "R2", "D"],
                       "count": 1 + rng.next_u64() % 5, "rtt_min_ms": 2, "rtt_max_ms": 40,
                       "packet_bytes": *pick(rng, &[500, 1500])})
            }
        })
        .collect();
    let aqm = if rng.next_u64().is_multiple_of(2) {
        json!({"kind": "drop_tail"})
    } else {
        json!({"kind": "bat", "clcc": {"r_ref": between(rng, 0.1, 0.9)}})
    };
    json!({
        "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": format!("gen-ip-{case}"),
        "run": {"until_ms": between(rng, 300.0, 1000.0), "sample_interval_ms": 10, "seed": case},
        "nodes": [{"id": "S", "kind": "host"}, {"id": "R1", "kind": "router"},
                  {"id": "R2", "kind": "router"}, {"id": "D", "kind": "host"}],
        "links": [
            {"id": "a", "a": "S", "b": "R1", "rate_mbps": 1000, "delay_ms": 0.1},
            {"id": "b", "a": "R1", "b": "R2", "rate_mbps": *pick(rng, &[10.0, 100.0]), "delay_ms": 0.5,
             "a_to_b": {"buffer_pkts": *pick(rng, &[20, 300]), "aqm": aqm}},
            {"id": "c", "a": "R2", "b": "D", "rate_mbps": 1000, "delay_ms": 0.1}
        ],
        "flows": flows
    })
}

/// Invariants every cell-model report keeps.
fn check_cell(r: &Value, replay: &str) {
    let t = &r["totals"];
    for (id, vc) in t["vcs"].as_object().unwrap() {
        let (sent, got) =
            (vc["data_sent"].as_u64().unwrap(), vc["cells_received"].as_u64().unwrap());
        assert!(got <= sent, "{replay}: {id} received {got} of {sent}");
    }
    for (id, p) in t["ports"].as_object().unwrap() {
        let u = p["utilization"].as_f64().unwrap();
        assert!((0.0..=1.0 + 1e-6).contains(&u), "{replay}: port {id} utilisation {u}");
    }
    if let Some(f) = t["fairness"].as_f64() {
        assert!((0.0..=1.0 + 1e-9).contains(&f), "{replay}: fairness {f}");
    }
}

#[test]
fn generated_scenarios_reach_the_simulator_and_keep_their_invariants() {
    let seed = std::env::var("STRUCTURED_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| std::process::id() as u64 ^ 0xfeed);
    let cases: u64 =
        std::env::var("STRUCTURED_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(120);
    println!("structured fuzz: STRUCTURED_SEED={seed} STRUCTURED_CASES={cases}");
    let (mut ran, mut events) = (0u64, 0u64);
    let mut algorithms = std::collections::BTreeSet::new();
    for case in 0..cases {
        let mut rng = Rng::new(seed, case);
        let ip = case % 5 == 4;
        let v = if ip { ip_scenario(&mut rng, case) } else { cell_scenario(&mut rng, case) };
        let replay = format!("STRUCTURED_SEED={seed} case {case}");
        let r = run_report(&v.to_string(), &RunOptions::default(), &|| 0.0, &mut |_, _| {})
            .unwrap_or_else(|e| panic!("{replay}: refused {e:?}\n{v}"));
        ran += 1;
        events += r["stats"]["events"].as_u64().unwrap();
        if !ip {
            check_cell(&r, &replay);
            for l in v["links"].as_array().unwrap() {
                if let Some(k) = l["a_to_b"]["algorithm"]["kind"].as_str() {
                    algorithms.insert(k.to_string());
                }
            }
        } else {
            assert!(!serde_json::to_string(&r).unwrap().contains("NaN"), "{replay}");
        }
    }
    println!("{ran} scenarios ran, {events} events; algorithms: {algorithms:?}");
    assert_eq!(ran, cases);
    if cases >= 60 {
        assert_eq!(algorithms.len(), algorithm_kinds().len(), "{algorithms:?}");
    }
}
