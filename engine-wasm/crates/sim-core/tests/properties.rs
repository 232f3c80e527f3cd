//! Invariants over random small scenarios (proptest, with shrinking): MCR ≤ ACR ≤ PCR at every
//! check, every cell accounted for, queues never above their buffer, time never going back, and
//! the same scenario giving the same run. A failure is shrunk to a smallest scenario (fewer
//! switches and VCs, simpler traffic, rounder numbers) and printed with the PROPERTY_SEED that
//! replays the whole search: `PROPERTY_SEED=N cargo test --release --test properties`.
//! `PROPERTY_CASES` changes how many cases run (1,000 by default).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{json, Value};
use sim_core::time::SimTime;
use sim_core::Simulation;

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
    /// A VBR background source along the same path: rate (Mbit/s), on and off times (ms).
    background: Option<(f64, f64, f64)>,
}

/// A chain of switches joined by trunks (rate, delay), hosts on them, VCs between hosts.
#[derive(Clone, Debug)]
struct Case {
    trunks: Vec<(f64, f64)>,
    vcs: Vec<Vc>,
    buffer_cells: u64,
    /// ERICA's target utilisation, averaging interval and forward-CCR option; None: no feedback.
    erica: Option<(f64, f64, bool)>,
    seed: u64,
}

fn traffic() -> impl Strategy<Value = Traffic> {
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
        (
            prop::sample::select(vec![0.01, 0.5]),
            prop::sample::select(vec!["atm_forum", "rate", "rm"]),
        ),
        (0.0..10.0, traffic(), prop::bool::weighted(1.0 / 3.0)),
        prop::option::weighted(0.25, (0.5..8.0, 0.5..5.0, 0.5..5.0)),
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

fn case() -> impl Strategy<Value = Case> {
    let trunk = (prop::sample::select(vec![1.5, 45.0, 155.52]), 0.0..3.0);
    prop::collection::vec(trunk, 0..=2).prop_flat_map(|trunks| {
        let switches = trunks.len() + 1;
        (
            Just(trunks),
            prop::collection::vec(vc(switches), 1..=4),
            20..3020u64,
            prop::option::weighted(0.75, (0.5..1.0, 0.1..5.0, any::<bool>())),
            0..1000u64,
        )
            .prop_map(|(trunks, vcs, buffer_cells, erica, seed)| Case {
                trunks,
                vcs,
                buffer_cells,
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
        if let Some((rate, on, off)) = c.background {
            background
                .push(json!({"id": format!("bg{v}"), "kind": "vbr", "path": vc["path"].clone(),
                "rate_mbps": rate, "on_ms": on, "off_ms": off}));
        }
        vcs.push(vc);
    }
    let algorithm = match case.erica {
        None => json!({"kind": "none"}),
        Some((target, interval, forward_ccr)) => json!({"kind": "erica",
            "target_utilization": target, "interval_ms": interval, "forward_ccr": forward_ccr}),
    };
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": "random",
        "run": {"until_ms": 40, "seed": case.seed, "sample_interval_ms": 1},
        "defaults": {"switch_port": {"buffer_cells": case.buffer_cells, "algorithm": algorithm}},
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
    for step in 1..=40 {
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
        }
    }
    twin.run_until(SimTime::from_ms(40.0), u64::MAX);
    prop_assert_eq!(sim.take_samples(), twin.take_samples(), "the same seed gave a different run");
    Ok(sim.events())
}

#[test]
fn invariants_hold_over_random_scenarios() {
    let var = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let seed = var("PROPERTY_SEED").unwrap_or(0);
    let cases = var("PROPERTY_CASES").unwrap_or(1000);
    let config = Config {
        cases: u32::try_from(cases).unwrap_or(u32::MAX),
        failure_persistence: None,
        max_shrink_iters: 2048,
        ..Config::default()
    };
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &key);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let events = std::cell::Cell::new(0u64);
    let result = runner.run(&case(), |c| {
        events.set(events.get() + check_case(&c)?);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\nreplay this search with PROPERTY_SEED={seed}");
    }
    eprintln!("{cases} random scenarios, {} events, all invariants held", events.get());
}
