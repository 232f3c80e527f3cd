//! Invariants over random small scenarios (proptest, with shrinking), for every switch algorithm
//! of the registry (`algorithm_kinds()`) under both queue disciplines (`QUEUE_DISCIPLINES`: FIFO and
//! per-VC), with every traffic model, CBR and VBR background, bidirectional VCs, each run for
//! 100 ms (tens of round trips): MCR ≤ ACR ≤ PCR at every check, every cell accounted for, queues
//! never above their buffer, no port sending more than arrived or above its line rate, time never
//! going back, and the same scenario giving the same run. The packet model has its own property:
//! TCP and UDP flows over drop-tail and BAT routers for 600 ms, with queues within their buffers,
//! packets conserved per port and per flow, and the same run twice.
//!
//! A failure is shrunk to a smallest scenario (fewer switches and VCs, simpler traffic, rounder
//! numbers) and printed with the PROPERTY_SEED that replays the whole search:
//! `PROPERTY_SEED=N cargo test --release --test properties`. `PROPERTY_CASES` changes how many
//! cases run for each algorithm × discipline (twice as many for the packet model): 50 by default
//! (600 scenarios, about ten seconds on two cores); 1000 for a long run.

mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{json, Value};
use sim_core::cell::scenario::{QUEUE_DISCIPLINES, STARTUP_OPTIONS, TRAFFIC_MODELS};
use sim_core::cell::switch_alg::algorithm_kinds;
use sim_core::ip::sim::IpSimulation;
use sim_core::time::SimTime;
use sim_core::Simulation;

/// Simulated length of a cell-model case, in ms.
const CELL_MS: u32 = 100;
/// Simulated length of a packet-model case, in ms, and the step between checks.
const IP_MS: u32 = 600;
const IP_STEP_MS: u32 = 10;

/// What a VC's source sends.
#[derive(Clone, Debug)]
enum Traffic {
    Persistent { for_ms: f64 },
    Bottlenecked { rate_mbps: f64, for_ms: f64 },
    OnOff { on_ms: f64, off_ms: f64 },
    RequestResponse { request_cells: u64, response_cells: u64 },
}

/// One VC between a host on switch `a` and a host on switch `b`, with its parameters.
#[derive(Clone, Debug)]
struct Vc {
    a: usize,
    b: usize,
    /// Access links' rates (Mbit/s) and lengths (km), source side then destination side.
    access: [(f64, f64); 2],
    pcr_mbps: f64,
    /// MCR as a fraction of PCR, ICR as a fraction of the way from 0.01 Mbit/s to PCR.
    mcr_frac: f64,
    icr_frac: f64,
    /// log2 of Nrm, RIF, RDF and CDF (None: CDF = 0).
    nrm_log2: i32,
    rif_log2: i32,
    rdf_log2: i32,
    cdf_log2: Option<i32>,
    trm_ms: f64,
    tbe_cells: u64,
    adtf_s: f64,
    startup: &'static str,
    start_ms: f64,
    traffic: Traffic,
    bidirectional: bool,
    /// A background source along the same path: CBR or VBR, rate (Mbit/s), on and off times (ms).
    background: Option<(&'static str, f64, f64, f64)>,
}

/// A chain of switches joined by trunks (rate, delay), hosts on them, VCs between hosts.
#[derive(Clone, Debug)]
struct Case {
    trunks: Vec<(f64, f64)>,
    vcs: Vec<Vc>,
    buffer_cells: u64,
    /// The switch algorithm (a registry kind) and queue discipline of every switch port.
    algorithm: &'static str,
    queue: &'static str,
    /// ERICA's target utilisation, averaging interval and forward-CCR option, when it is ERICA.
    erica: (f64, f64, bool),
    seed: u64,
}

fn traffic() -> impl Strategy<Value = Traffic> {
    let models: Vec<&str> = TRAFFIC_MODELS.iter().map(|(m, _)| *m).collect();
    assert_eq!(
        models,
        ["persistent", "bottlenecked", "on_off", "request_response"],
        "the engine has a new traffic model: give it a strategy here"
    );
    prop_oneof![
        (1.0..30.0).prop_map(|for_ms| Traffic::Persistent { for_ms }),
        (0.5..20.0, 0.0..20.0)
            .prop_map(|(rate_mbps, for_ms)| Traffic::Bottlenecked { rate_mbps, for_ms }),
        (0.5..5.0, 0.0..5.0).prop_map(|(on_ms, off_ms)| Traffic::OnOff { on_ms, off_ms }),
        (1..=20u64, 1..=300u64).prop_map(|(request_cells, response_cells)| {
            Traffic::RequestResponse { request_cells, response_cells }
        }),
    ]
}

fn vc(switches: usize) -> impl Strategy<Value = Vc> {
    let access = (prop::sample::select(vec![10.0, 155.52]), 0.0..300.0);
    (
        (0..switches, 0..switches, [access.clone(), access]),
        (1.0..155.52, 0.0..0.3, 0.0..1.0),
        (1..=8, -15..=0, -15..=0, prop::option::weighted(2.0 / 3.0, -6..=0)),
        (prop::sample::select(vec![0.78125, 1.0, 10.0, 100.0]), 0..100_000u64),
        (prop::sample::select(vec![0.01, 0.5]), prop::sample::select(STARTUP_OPTIONS.to_vec())),
        (0.0..10.0, traffic(), prop::bool::weighted(1.0 / 3.0)),
        prop::option::weighted(
            0.25,
            (prop::sample::select(vec!["cbr", "vbr"]), 0.5..8.0, 0.5..5.0, 0.5..5.0),
        ),
    )
        .prop_map(
            |(
                (x, y, access),
                (pcr_mbps, mcr_frac, icr_frac),
                (nrm_log2, rif_log2, rdf_log2, cdf_log2),
                (trm_ms, tbe_cells),
                (adtf_s, startup),
                (start_ms, traffic, bidirectional),
                background,
            )| Vc {
                a: x.min(y),
                b: x.max(y),
                access,
                pcr_mbps,
                mcr_frac,
                icr_frac,
                nrm_log2,
                rif_log2,
                rdf_log2,
                cdf_log2,
                trm_ms,
                tbe_cells,
                adtf_s,
                startup,
                start_ms,
                traffic,
                bidirectional,
                background,
            },
        )
}

/// Cases whose switches all run `algorithm` with `queue` ports.
fn case(algorithm: &'static str, queue: &'static str) -> impl Strategy<Value = Case> {
    let trunk = (prop::sample::select(vec![1.5, 45.0, 155.52]), 0.0..3.0);
    prop::collection::vec(trunk, 0..=2).prop_flat_map(move |trunks| {
        let switches = trunks.len() + 1;
        (
            Just(trunks),
            prop::collection::vec(vc(switches), 1..=4),
            20..3020u64,
            (0.5..1.0, 0.1..5.0, any::<bool>()),
            0..1000u64,
        )
            .prop_map(move |(trunks, vcs, buffer_cells, erica, seed)| Case {
                trunks,
                vcs,
                buffer_cells,
                algorithm,
                queue,
                erica,
                seed,
            })
    })
}

/// The scenario file a case describes.
fn scenario(case: &Case) -> Value {
    let switches = case.trunks.len() + 1;
    let mut nodes = vec![];
    let mut links = vec![];
    for s in 0..switches {
        nodes.push(json!({"id": format!("SW{s}"), "kind": "switch", "x": 200 * s, "y": 100}));
    }
    for (s, (rate, delay)) in case.trunks.iter().enumerate() {
        links.push(json!({"id": format!("t{}", s + 1), "a": format!("SW{s}"),
            "b": format!("SW{}", s + 1), "rate_mbps": rate, "delay_ms": delay}));
    }
    let mut vcs = vec![];
    let mut background = vec![];
    for (v, c) in case.vcs.iter().enumerate() {
        let ends = [(format!("H{v}a"), c.a), (format!("H{v}b"), c.b)];
        for ((h, sw), (rate, km)) in ends.into_iter().zip(c.access) {
            nodes.push(json!({"id": h, "kind": "host", "x": 0, "y": 0}));
            links.push(json!({"id": format!("{h}-link"), "a": h, "b": format!("SW{sw}"),
                "rate_mbps": rate, "length_km": km}));
        }
        let mut path = vec![json!(format!("H{v}a"))];
        path.extend((c.a..=c.b).map(|s| json!(format!("SW{s}"))));
        path.push(json!(format!("H{v}b")));
        let start = c.start_ms;
        let traffic = match c.traffic {
            Traffic::Persistent { for_ms } => {
                json!({"kind": "persistent", "start_ms": start, "stop_ms": start + for_ms})
            }
            Traffic::Bottlenecked { rate_mbps, for_ms } => {
                json!({"kind": "bottlenecked", "start_ms": start, "rate_mbps": rate_mbps, "for_ms": for_ms})
            }
            Traffic::OnOff { on_ms, off_ms } => {
                json!({"kind": "on_off", "start_ms": start, "on_ms": on_ms, "off_ms": off_ms})
            }
            Traffic::RequestResponse { request_cells, response_cells } => {
                json!({"kind": "request_response", "start_ms": start, "request_cells": request_cells, "response_cells": response_cells})
            }
        };
        let pcr = c.pcr_mbps;
        let mut vc = json!({
            "id": format!("vc{v}"), "path": path, "traffic": traffic,
            "pcr_mbps": pcr, "mcr_mbps": pcr * c.mcr_frac, "icr_mbps": 0.01 + (pcr - 0.01) * c.icr_frac,
            "nrm": 2f64.powi(c.nrm_log2), "rif": 2f64.powi(c.rif_log2), "rdf": 2f64.powi(c.rdf_log2),
            "trm_ms": c.trm_ms, "tbe_cells": c.tbe_cells as f64,
            "cdf": c.cdf_log2.map_or(0.0, |e| 2f64.powi(e)),
            "adtf_s": c.adtf_s, "tcr_cps": 10.0, "startup": c.startup,
        });
        if c.bidirectional && !matches!(c.traffic, Traffic::RequestResponse { .. }) {
            vc["bidirectional"] = json!(true);
        }
        if let Some((kind, rate, on, off)) = c.background {
            background
                .push(json!({"id": format!("bg{v}"), "kind": kind, "path": vc["path"].clone(),
                "rate_mbps": rate, "on_ms": on, "off_ms": off}));
        }
        vcs.push(vc);
    }
    let algorithm = match case.algorithm {
        "erica" => {
            let (target, interval, forward_ccr) = case.erica;
            json!({"kind": "erica", "target_utilization": target, "interval_ms": interval,
                   "forward_ccr": forward_ccr})
        }
        kind => json!({"kind": kind}),
    };
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": "random",
        "run": {"until_ms": CELL_MS, "seed": case.seed, "sample_interval_ms": 1},
        "defaults": {"switch_port": {"buffer_cells": case.buffer_cells, "algorithm": algorithm,
                                     "queue": case.queue}},
        "nodes": nodes, "links": links, "vcs": vcs, "background": background,
    })
}

/// Runs one case, checking the invariants every millisecond; the events it handled.
fn check_case(case: &Case) -> Result<u64, TestCaseError> {
    let text = scenario(case).to_string();
    let mut sim = Simulation::from_json(&text)
        .map_err(|e| TestCaseError::fail(format!("generator made an invalid scenario: {e:?}")))?;
    let mut twin = Simulation::from_json(&text).expect("same text");
    let mut last = SimTime::ZERO;
    for step in 1..=CELL_MS {
        let t = SimTime::from_ms(step as f64);
        sim.run_until(t, u64::MAX);
        prop_assert!(sim.now() >= last, "time went back");
        last = sim.now();
        prop_assert_eq!(sim.conservation_gap(), 0, "cells not conserved at {}", t);
        for v in &sim.vcs {
            let p = &v.source.params;
            if v.source.started {
                prop_assert!(
                    v.source.acr >= p.mcr - 1e-9 && v.source.acr <= p.pcr * (1.0 + 1e-12),
                    "{} ACR {} outside [{}, {}]",
                    v.id,
                    v.source.acr,
                    p.mcr,
                    p.pcr
                );
            }
        }
        for p in &sim.ports {
            prop_assert!(p.queue_len() <= p.buffer_cells, "{} over its buffer", p.id);
            prop_assert!(
                p.sent_total + p.stats.lost_total <= p.arrived_total,
                "{} sent {} and lost {} of {} arrived",
                p.id,
                p.sent_total,
                p.stats.lost_total,
                p.arrived_total
            );
            // A port sends at most one cell per cell time (plus the one on the line).
            let line = sim.now().as_ms() / p.cell_time.as_ms() + 1.0;
            prop_assert!(
                (p.sent_total as f64) <= line,
                "{} sent {} cells in {} ms, above its line rate",
                p.id,
                p.sent_total,
                sim.now().as_ms()
            );
        }
    }
    twin.run_until(SimTime::from_ms(CELL_MS as f64), u64::MAX);
    prop_assert_eq!(sim.take_samples(), twin.take_samples(), "the same seed gave a different run");
    Ok(sim.events())
}

/// The replay seed and the case count, from PROPERTY_SEED and PROPERTY_CASES.
fn settings() -> (u64, u32) {
    let var = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let seed = var("PROPERTY_SEED").unwrap_or(0);
    let cases = u32::try_from(var("PROPERTY_CASES").unwrap_or(50)).unwrap_or(u32::MAX);
    (seed, cases)
}

/// A runner seeded from `seed` and `salt`, shrinking a failure to a smallest case.
fn runner(seed: u64, salt: u64, cases: u32) -> TestRunner {
    let config =
        Config { cases, failure_persistence: None, max_shrink_iters: 2048, ..Config::default() };
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&salt.to_le_bytes());
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key))
}

#[test]
fn invariants_hold_for_every_algorithm_and_queue_discipline() {
    let (seed, cases) = settings();
    println!("cell-model properties: PROPERTY_SEED={seed} PROPERTY_CASES={cases}");
    let mut combos = 0u64;
    for (a, algorithm) in algorithm_kinds().into_iter().enumerate() {
        for (q, &queue) in QUEUE_DISCIPLINES.iter().enumerate() {
            let mut runner = runner(seed, (a * QUEUE_DISCIPLINES.len() + q) as u64, cases);
            let events = std::cell::Cell::new(0u64);
            let result = runner.run(&case(algorithm, queue), |c| {
                events.set(events.get() + check_case(&c)?);
                Ok(())
            });
            if let Err(e) = result {
                panic!(
                    "{algorithm} with {queue} queues: {e}\nreplay this search with PROPERTY_SEED={seed}"
                );
            }
            println!("{algorithm} × {queue}: {cases} random scenarios, {} events", events.get());
            combos += 1;
        }
    }
    assert_eq!(combos as usize, algorithm_kinds().len() * QUEUE_DISCIPLINES.len());
}

/// One packet-model flow: TCP (count, packet size) or UDP (rate), starting at a time.
#[derive(Clone, Debug)]
enum Flow {
    Tcp { count: u64, packet_bytes: u64, start_ms: f64 },
    Udp { rate_mbps: f64, start_ms: f64, stop_ms: Option<f64> },
}

/// A dumbbell: S – R1 – R2 – D, the bottleneck R1 → R2 drop-tail or BAT.
#[derive(Clone, Debug)]
struct IpCase {
    flows: Vec<Flow>,
    bottleneck_mbps: f64,
    buffer_pkts: u64,
    /// BAT's CLCC reference, or None for drop-tail.
    bat: Option<f64>,
    seed: u64,
}

fn ip_case() -> impl Strategy<Value = IpCase> {
    let flow = prop_oneof![
        (1..=8u64, prop::sample::select(vec![500u64, 1500]), 0.0..100.0).prop_map(
            |(count, packet_bytes, start_ms)| Flow::Tcp { count, packet_bytes, start_ms }
        ),
        (0.5..400.0, 0.0..300.0, prop::option::of(0.0..300.0)).prop_map(
            |(rate_mbps, start_ms, stop)| Flow::Udp {
                rate_mbps,
                start_ms,
                stop_ms: stop.map(|d| start_ms + d),
            }
        ),
    ];
    (
        prop::collection::vec(flow, 1..=4),
        prop::sample::select(vec![2.0, 10.0, 100.0]),
        2..400u64,
        prop::option::of(0.1..0.9),
        0..1000u64,
    )
        .prop_map(|(flows, bottleneck_mbps, buffer_pkts, bat, seed)| IpCase {
            flows,
            bottleneck_mbps,
            buffer_pkts,
            bat,
            seed,
        })
}

fn ip_scenario(case: &IpCase) -> Value {
    let path = json!(["S", "R1", "R2", "D"]);
    let flows: Vec<Value> = case
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| match *f {
            Flow::Tcp { count, packet_bytes, start_ms } => json!({"id": format!("t{i}"),
                "kind": "tcp", "path": path, "count": count, "packet_bytes": packet_bytes,
                "rtt_min_ms": 2, "rtt_max_ms": 40, "start_ms": start_ms}),
            Flow::Udp { rate_mbps, start_ms, stop_ms } => {
                let mut f = json!({"id": format!("u{i}"), "kind": "udp", "path": path,
                    "rate_mbps": rate_mbps, "start_ms": start_ms});
                if let Some(stop) = stop_ms {
                    f["stop_ms"] = json!(stop);
                }
                f
            }
        })
        .collect();
    common::ip_dumbbell(
        "random-ip",
        json!({"until_ms": IP_MS, "sample_interval_ms": IP_STEP_MS, "seed": case.seed}),
        case.bottleneck_mbps,
        case.buffer_pkts,
        case.bat,
        flows,
    )
}

fn check_ip_case(case: &IpCase) -> Result<u64, TestCaseError> {
    let text = ip_scenario(case).to_string();
    let mut sim = IpSimulation::from_json(&text)
        .map_err(|e| TestCaseError::fail(format!("generator made an invalid scenario: {e:?}")))?;
    let mut twin = IpSimulation::from_json(&text).expect("same text");
    let mut last = SimTime::ZERO;
    for step in 1..=IP_MS / IP_STEP_MS {
        sim.run_until(SimTime::from_ms((step * IP_STEP_MS) as f64), u64::MAX);
        prop_assert!(sim.now() >= last, "time went back");
        last = sim.now();
        for p in &sim.ports {
            prop_assert!(p.queue_len() <= p.buffer_pkts, "{} over its buffer", p.id);
            let s = &p.stats;
            prop_assert!(
                s.sent_total + s.lost_total() <= s.arrived_total,
                "{} sent {} and lost {} of {} arrived",
                p.id,
                s.sent_total,
                s.lost_total(),
                s.arrived_total
            );
        }
        for f in &sim.flows {
            prop_assert!(
                f.packets_delivered <= f.packets_sent,
                "{} delivered {} of {} sent",
                f.id,
                f.packets_delivered,
                f.packets_sent
            );
        }
        let frame = sim.frame();
        prop_assert!(frame.iter().all(|x| !x.is_infinite()), "an infinite value in the frame");
    }
    twin.run_until(SimTime::from_ms(IP_MS as f64), u64::MAX);
    // Bit for bit (an undefined value is NaN, which equals nothing, itself included).
    let bits = |rows: Vec<f64>| rows.into_iter().map(f64::to_bits).collect::<Vec<_>>();
    prop_assert_eq!(
        bits(sim.take_samples()),
        bits(twin.take_samples()),
        "the same seed gave a different run"
    );
    Ok(sim.events())
}

#[test]
fn packet_model_invariants_hold_over_random_dumbbells() {
    let (seed, cases) = settings();
    println!("packet-model properties: PROPERTY_SEED={seed} PROPERTY_CASES={cases}");
    let events = std::cell::Cell::new(0u64);
    let result = runner(seed, u64::MAX, cases.saturating_mul(2)).run(&ip_case(), |c| {
        events.set(events.get() + check_ip_case(&c)?);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\nreplay this search with PROPERTY_SEED={seed}");
    }
    println!("{} random packet-model scenarios, {} events", cases.saturating_mul(2), events.get());
}
