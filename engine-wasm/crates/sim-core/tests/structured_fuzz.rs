//! Fuzzing that reaches the simulator: a structured generator of mostly-valid
//! scenarios — every switch algorithm, both queue disciplines, every traffic
//! model, start-up option, background sources, bidirectional VCs, and IP
//! flows over drop-tail and BAT — each run for tens of milliseconds (many
//! round trips), with invariants checked on the report. The arbitrary-JSON
//! fuzzing of fuzz_scenarios.rs almost never gets a document past the
//! validator; this one gets nearly all of them into a run. The generator is a
//! set of proptest strategies, so a failure shrinks to a smallest scenario
//! (fewer switches, VCs and sources, simpler traffic) before it is printed.
//!
//! `STRUCTURED_SEED` replays a seed (printed); `STRUCTURED_CASES` sets the count.

mod common;

use common::generate::{self, Background, SourceParams, SwitchPort};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{json, Value};
use sim_core::cell::switch_alg::algorithm_kinds;
use sim_core::runner::{run_report, RunOptions};

/// One switch of the parking lot: its source host's access delay, then its trunk onwards.
#[derive(Clone, Debug)]
struct Switch {
    access_delay_ms: f64,
    rate_mbps: f64,
    delay_ms: f64,
    port: SwitchPort,
}

#[derive(Clone, Debug)]
enum Traffic {
    Persistent,
    OnOff { on_ms: f64, off_ms: f64 },
    Bottlenecked { rate_mbps: f64, for_ms: f64 },
    RequestResponse { request_cells: u64, response_cells: u64 },
}

/// A VC entering at switch `entry` (modulo the switches there are) and leaving at the end.
#[derive(Clone, Debug)]
struct Vc {
    entry: usize,
    start_ms: f64,
    traffic: Traffic,
    bidirectional: bool,
    source: SourceParams,
}

#[derive(Clone, Debug)]
struct CellCase {
    switches: Vec<Switch>,
    vcs: Vec<Vc>,
    background: Vec<Background>,
    until_ms: f64,
    seed: u64,
}

#[derive(Clone, Debug)]
enum Flow {
    Udp { rate_mbps: f64, start_ms: f64 },
    Tcp { count: u64, packet_bytes: u64 },
}

#[derive(Clone, Debug)]
struct IpCase {
    flows: Vec<Flow>,
    bottleneck_mbps: f64,
    buffer_pkts: u64,
    /// BAT's CLCC reference, or None for drop-tail.
    bat: Option<f64>,
    until_ms: f64,
    seed: u64,
}

#[derive(Clone, Debug)]
enum Case {
    Cell(CellCase),
    Ip(IpCase),
}

fn switch() -> impl Strategy<Value = Switch> {
    (0.0..0.5, prop::sample::select(vec![10.0, 50.0, 155.52]), 0.01..2.0, generate::switch_port())
        .prop_map(|(access_delay_ms, rate_mbps, delay_ms, port)| Switch {
            access_delay_ms,
            rate_mbps,
            delay_ms,
            port,
        })
}

fn traffic() -> impl Strategy<Value = Traffic> {
    prop_oneof![
        Just(Traffic::Persistent),
        (0.5..10.0, 0.0..10.0).prop_map(|(on_ms, off_ms)| Traffic::OnOff { on_ms, off_ms }),
        (1.0..100.0, 1.0..20.0)
            .prop_map(|(rate_mbps, for_ms)| Traffic::Bottlenecked { rate_mbps, for_ms }),
        (1..=64u64, 1..=2000u64).prop_map(|(request_cells, response_cells)| {
            Traffic::RequestResponse { request_cells, response_cells }
        }),
    ]
}

fn vc() -> impl Strategy<Value = Vc> {
    (
        (0..3usize, 0.0..5.0, traffic(), prop::bool::weighted(0.25)),
        generate::source_params(
            prop::sample::select(vec![10.0, 100.0, 155.52]),
            vec![0.0, 0.0, 1.0],
        ),
    )
        .prop_map(|((entry, start_ms, traffic, bidirectional), source)| Vc {
            entry,
            start_ms,
            traffic,
            bidirectional,
            source,
        })
}

fn cell_case() -> impl Strategy<Value = CellCase> {
    (
        prop::collection::vec(switch(), 1..=3),
        prop::collection::vec(vc(), 1..=6),
        prop::collection::vec(generate::background(1.0..60.0, 0.0..20.0), 0..=2),
        20.0..60.0,
        0..1000u64,
    )
        .prop_map(|(switches, vcs, background, until_ms, seed)| CellCase {
            switches,
            vcs,
            background,
            until_ms,
            seed,
        })
}

fn ip_case() -> impl Strategy<Value = IpCase> {
    let flow = prop_oneof![
        1 => (1.0..150.0, 0.0..50.0)
            .prop_map(|(rate_mbps, start_ms)| Flow::Udp { rate_mbps, start_ms }),
        2 => (1..=5u64, prop::sample::select(vec![500u64, 1500]))
            .prop_map(|(count, packet_bytes)| Flow::Tcp { count, packet_bytes }),
    ];
    (
        prop::collection::vec(flow, 1..=3),
        prop::sample::select(vec![10.0, 100.0]),
        prop::sample::select(vec![20u64, 300]),
        prop::option::of(0.1..0.9),
        300.0..1000.0,
        0..1000u64,
    )
        .prop_map(|(flows, bottleneck_mbps, buffer_pkts, bat, until_ms, seed)| IpCase {
            flows,
            bottleneck_mbps,
            buffer_pkts,
            bat,
            until_ms,
            seed,
        })
}

/// Four cell-model scenarios to one packet-model scenario.
fn case() -> impl Strategy<Value = Case> {
    prop_oneof![4 => cell_case().prop_map(Case::Cell), 1 => ip_case().prop_map(Case::Ip)]
}

/// A parking lot of the case's switches, each with its own source host and a shared
/// destination; VCs and background enter at any switch.
fn cell_scenario(c: &CellCase) -> Value {
    let n = c.switches.len();
    let hosts: Vec<(f64, f64)> = c.switches.iter().map(|s| (155.52, s.access_delay_ms)).collect();
    let trunks: Vec<(f64, f64, Value)> =
        c.switches.iter().map(|s| (s.rate_mbps, s.delay_ms, s.port.json())).collect();
    let (nodes, links) = generate::parking_lot(&hosts, &trunks);
    let path_from = |i: usize| generate::parking_lot_path(n, i);
    let vcs: Vec<Value> = c
        .vcs
        .iter()
        .enumerate()
        .map(|(v, vc)| {
            let start = vc.start_ms;
            let traffic = match vc.traffic {
                Traffic::Persistent => json!({"kind": "persistent", "start_ms": start}),
                Traffic::OnOff { on_ms, off_ms } => {
                    json!({"kind": "on_off", "start_ms": start, "on_ms": on_ms, "off_ms": off_ms})
                }
                Traffic::Bottlenecked { rate_mbps, for_ms } => {
                    json!({"kind": "bottlenecked", "start_ms": start, "rate_mbps": rate_mbps, "for_ms": for_ms})
                }
                Traffic::RequestResponse { request_cells, response_cells } => {
                    json!({"kind": "request_response", "start_ms": start, "request_cells": request_cells, "response_cells": response_cells})
                }
            };
            let bidirectional =
                vc.bidirectional && !matches!(vc.traffic, Traffic::RequestResponse { .. });
            vc.source.json(json!({"id": format!("vc{v}"), "path": path_from(vc.entry),
                                  "bidirectional": bidirectional, "traffic": traffic}))
        })
        .collect();
    let background = generate::background_json(&c.background, path_from);
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": "gen-cell",
        "run": {"until_ms": c.until_ms, "sample_interval_ms": 0.5, "seed": c.seed},
        "nodes": nodes, "links": links, "vcs": vcs, "background": background
    })
}

fn ip_scenario(c: &IpCase) -> Value {
    let flows: Vec<Value> = c
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| match *f {
            Flow::Udp { rate_mbps, start_ms } => {
                json!({"id": format!("u{i}"), "kind": "udp", "path": ["S", "R1", "R2", "D"],
                       "rate_mbps": rate_mbps, "start_ms": start_ms})
            }
            Flow::Tcp { count, packet_bytes } => {
                json!({"id": format!("t{i}"), "kind": "tcp", "path": ["S", "R1", "R2", "D"],
                       "count": count, "rtt_min_ms": 2, "rtt_max_ms": 40,
                       "packet_bytes": packet_bytes})
            }
        })
        .collect();
    common::ip_dumbbell(
        "gen-ip",
        json!({"until_ms": c.until_ms, "sample_interval_ms": 10, "seed": c.seed}),
        c.bottleneck_mbps,
        c.buffer_pkts,
        c.bat,
        flows,
    )
}

/// Invariants every cell-model report keeps.
fn check_cell(r: &Value) -> Result<(), TestCaseError> {
    let t = &r["totals"];
    for (id, vc) in t["vcs"].as_object().unwrap() {
        let (sent, got) =
            (vc["data_sent"].as_u64().unwrap(), vc["cells_received"].as_u64().unwrap());
        prop_assert!(got <= sent, "{} received {} of {}", id, got, sent);
    }
    for (id, p) in t["ports"].as_object().unwrap() {
        let u = p["utilization"].as_f64().unwrap();
        prop_assert!((0.0..=1.0 + 1e-6).contains(&u), "port {} utilisation {}", id, u);
    }
    if let Some(f) = t["fairness"].as_f64() {
        prop_assert!((0.0..=1.0 + 1e-9).contains(&f), "fairness {}", f);
    }
    Ok(())
}

#[test]
fn generated_scenarios_reach_the_simulator_and_keep_their_invariants() {
    let (mut runner, seed, cases) = generate::seeded_runner(
        "STRUCTURED_SEED",
        std::process::id() as u64 ^ 0xfeed,
        "STRUCTURED_CASES",
        120,
        1024,
    );
    println!("structured fuzz: STRUCTURED_SEED={seed} STRUCTURED_CASES={cases}");
    let ran = std::cell::Cell::new(0u64);
    let events = std::cell::Cell::new(0u64);
    let algorithms = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let result = runner.run(&case(), |c| {
        let v = match &c {
            Case::Cell(cell) => cell_scenario(cell),
            Case::Ip(ip) => ip_scenario(ip),
        };
        let r = run_report(&v.to_string(), &RunOptions::default(), &|| 0.0, &mut |_, _| {});
        let r = r.map_err(|e| TestCaseError::fail(format!("refused {e:?}\n{v}")))?;
        ran.set(ran.get() + 1);
        events.set(events.get() + r["stats"]["events"].as_u64().unwrap_or(0));
        match &c {
            Case::Cell(cell) => {
                check_cell(&r)?;
                algorithms.borrow_mut().extend(cell.switches.iter().map(|s| s.port.algorithm));
            }
            Case::Ip(_) => {
                prop_assert!(!serde_json::to_string(&r).unwrap().contains("NaN"), "NaN in {}", r);
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\nreplay this search with STRUCTURED_SEED={seed}");
    }
    let algorithms = algorithms.into_inner();
    println!("{} scenarios ran, {} events; algorithms: {algorithms:?}", ran.get(), events.get());
    assert_eq!(ran.get(), u64::from(cases));
    if cases >= 60 {
        assert_eq!(algorithms.len(), algorithm_kinds().len(), "{algorithms:?}");
    }
}
