//! Invariants over random small scenarios (property tests with replayable
//! seeds): MCR ≤ ACR ≤ PCR at every check, every cell accounted for, queues
//! never above their buffer, time never going back, and the same seed giving
//! the same run. A failure names its case seed; `PROPERTY_SEED=N cargo test
//! --release --test properties` replays that one case, and `PROPERTY_CASES`
//! changes how many run.

use serde_json::{json, Value};
use sim_core::kernel::Rng;
use sim_core::time::SimTime;
use sim_core::Simulation;

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

fn uniform(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.next_f64()
}

fn pow2(rng: &mut Rng, lo: i32, hi: i32) -> f64 {
    2f64.powi(lo + (rng.next_u64() % (hi - lo + 1) as u64) as i32)
}

/// A random valid scenario: a chain of switches, hosts on them, VCs between hosts.
fn random_scenario(seed: u64) -> Value {
    let mut rng = Rng::new(seed, 0xABCD);
    let switches = 1 + (rng.next_u64() % 3) as usize;
    let mut nodes = vec![];
    let mut links = vec![];
    for s in 0..switches {
        nodes.push(json!({"id": format!("SW{s}"), "kind": "switch", "x": 200 * s, "y": 100}));
        if s > 0 {
            links.push(json!({"id": format!("t{s}"), "a": format!("SW{}", s - 1), "b": format!("SW{s}"),
                "rate_mbps": pick(&mut rng, &[1.5, 45.0, 155.52]), "delay_ms": uniform(&mut rng, 0.0, 3.0)}));
        }
    }
    let vc_count = 1 + (rng.next_u64() % 4) as usize;
    let mut vcs = vec![];
    let mut background = vec![];
    for v in 0..vc_count {
        let (a, b) = {
            let x = (rng.next_u64() % switches as u64) as usize;
            let y = (rng.next_u64() % switches as u64) as usize;
            (x.min(y), x.max(y))
        };
        for (h, sw) in [(format!("H{v}a"), a), (format!("H{v}b"), b)] {
            nodes.push(json!({"id": h, "kind": "host", "x": 0, "y": 0}));
            links.push(json!({"id": format!("{h}-link"), "a": h, "b": format!("SW{sw}"),
                "rate_mbps": pick(&mut rng, &[10.0, 155.52]), "length_km": uniform(&mut rng, 0.0, 300.0)}));
        }
        let mut path = vec![json!(format!("H{v}a"))];
        path.extend((a..=b).map(|s| json!(format!("SW{s}"))));
        path.push(json!(format!("H{v}b")));
        let pcr = uniform(&mut rng, 1.0, 155.52);
        let start = uniform(&mut rng, 0.0, 10.0);
        let traffic = match rng.next_u64() % 4 {
            0 => {
                json!({"kind": "persistent", "start_ms": start, "stop_ms": start + uniform(&mut rng, 1.0, 30.0)})
            }
            1 => {
                json!({"kind": "bottlenecked", "start_ms": start, "rate_mbps": uniform(&mut rng, 0.5, 20.0), "for_ms": uniform(&mut rng, 0.0, 20.0)})
            }
            2 => {
                json!({"kind": "on_off", "start_ms": start, "on_ms": uniform(&mut rng, 0.5, 5.0), "off_ms": uniform(&mut rng, 0.0, 5.0)})
            }
            _ => {
                json!({"kind": "request_response", "start_ms": start, "request_cells": 1 + rng.next_u64() % 20, "response_cells": 1 + rng.next_u64() % 300})
            }
        };
        let mut vc = json!({
            "id": format!("vc{v}"), "path": path, "traffic": traffic,
            "pcr_mbps": pcr, "mcr_mbps": pcr * uniform(&mut rng, 0.0, 0.3), "icr_mbps": uniform(&mut rng, 0.01, pcr),
            "nrm": pow2(&mut rng, 1, 8), "rif": pow2(&mut rng, -15, 0), "rdf": pow2(&mut rng, -15, 0),
            "trm_ms": pick(&mut rng, &[0.78125, 1.0, 10.0, 100.0]), "tbe_cells": (rng.next_u64() % 100_000) as f64,
            "cdf": if rng.next_u64().is_multiple_of(3) { 0.0 } else { pow2(&mut rng, -6, 0) },
            "adtf_s": pick(&mut rng, &[0.01, 0.5]), "tcr_cps": 10.0,
            "startup": pick(&mut rng, &["atm_forum", "rate", "rm"]),
        });
        if rng.next_u64().is_multiple_of(3) && vc["traffic"]["kind"] != "request_response" {
            vc["bidirectional"] = json!(true);
        }
        vcs.push(vc);
        if rng.next_u64().is_multiple_of(4) {
            background.push(json!({"id": format!("bg{v}"), "kind": "vbr", "path": vcs[v]["path"].clone(),
                "rate_mbps": uniform(&mut rng, 0.5, 8.0), "on_ms": uniform(&mut rng, 0.5, 5.0), "off_ms": uniform(&mut rng, 0.5, 5.0)}));
        }
    }
    let algorithm = if rng.next_u64().is_multiple_of(4) {
        json!({"kind": "none"})
    } else {
        json!({"kind": "erica", "target_utilization": uniform(&mut rng, 0.5, 1.0), "interval_ms": uniform(&mut rng, 0.1, 5.0), "forward_ccr": rng.next_u64().is_multiple_of(2)})
    };
    json!({
        "format": "abr-lab/scenario", "version": 1, "id": format!("random-{seed}"),
        "run": {"until_ms": 40, "seed": seed % 1000, "sample_interval_ms": 1},
        "defaults": {"switch_port": {"buffer_cells": 20 + rng.next_u64() % 3000, "algorithm": algorithm}},
        "nodes": nodes, "links": links, "vcs": vcs, "background": background,
    })
}

fn check_case(seed: u64) -> u64 {
    let text = random_scenario(seed).to_string();
    let mut sim = Simulation::from_json(&text)
        .unwrap_or_else(|e| panic!("case {seed}: generator made an invalid scenario: {e:?}"));
    let mut twin = Simulation::from_json(&text).expect("same text");
    let mut last = SimTime::ZERO;
    for step in 1..=40 {
        let t = SimTime::from_ms(step as f64);
        sim.run_until(t, u64::MAX);
        assert!(sim.now() >= last, "case {seed}: time went back");
        last = sim.now();
        assert_eq!(sim.conservation_gap(), 0, "case {seed}: cells not conserved at {t}");
        for v in &sim.vcs {
            let p = &v.source.params;
            if v.source.started {
                assert!(
                    v.source.acr >= p.mcr - 1e-9 && v.source.acr <= p.pcr * (1.0 + 1e-12),
                    "case {seed}: {} ACR {} outside [{}, {}]",
                    v.id,
                    v.source.acr,
                    p.mcr,
                    p.pcr
                );
            }
        }
        for p in &sim.ports {
            assert!(p.queue_len() <= p.buffer_cells, "case {seed}: {} over its buffer", p.id);
        }
    }
    twin.run_until(SimTime::from_ms(40.0), u64::MAX);
    assert_eq!(
        sim.take_samples(),
        twin.take_samples(),
        "case {seed}: the same seed gave a different run"
    );
    sim.events()
}

#[test]
fn invariants_hold_over_random_scenarios() {
    if let Some(seed) = std::env::var("PROPERTY_SEED").ok().and_then(|s| s.parse().ok()) {
        check_case(seed);
        return;
    }
    let cases: u64 =
        std::env::var("PROPERTY_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let events: u64 = (0..cases).map(check_case).sum();
    eprintln!("{cases} random scenarios, {events} events, all invariants held");
}
