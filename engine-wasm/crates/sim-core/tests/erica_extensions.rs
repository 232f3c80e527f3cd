//! The switch algorithms and ERICA's extensions under random settings: every combination
//! of ERICA's twelve extensions (with random δ, α, load decay, interval and
//! ERICA+ {a, b, T0, Fmin}) and the EFCI switch's thresholds and marking mode,
//! on library scenarios with bursty, bidirectional and background traffic.
//! Invariants: MCR ≤ ACR ≤ PCR, every cell accounted for, queues within their
//! buffers, and the same settings giving the same run. A failure names its
//! case seed; `PROPERTY_SEED=N` replays it, `PROPERTY_CASES` sets how many run.

mod common;

use common::scenario_text;
use serde_json::{json, Value};
use sim_core::kernel::Rng;
use sim_core::time::SimTime;
use sim_core::Simulation;

const FLAGS: [&str; 12] = [
    "forward_ccr",
    "same_feedback",
    "fair_share_first",
    "per_vc_ccr",
    "count_averaging",
    "vbr_aware",
    "bidirectional_counting",
    "maxmin_fix",
    "average_sources",
    "boundary_cases",
    "average_load",
    "erica_plus",
];

/// Scenarios to perturb, and how long each case runs (ms).
const BASES: [(&str, f64); 5] = [
    ("erica-transient.json", 25.0),
    ("erica-bursty.json", 40.0),
    ("erica-vbr-1ms.json", 40.0),
    ("erica-acr-retention.json", 40.0),
    ("ohsaki-lan-fast-decrease.json", 20.0),
];

fn uniform(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.next_f64()
}

fn random_algorithm(rng: &mut Rng) -> Value {
    if rng.next_u64().is_multiple_of(4) {
        let high = 1 + rng.next_u64() % 3000;
        let mut efci = json!({"kind": "efci", "q_high_cells": high, "relative_rate": rng.next_u64().is_multiple_of(2)});
        if rng.next_u64().is_multiple_of(2) {
            efci["q_low_cells"] = json!(rng.next_u64() % (high + 1));
        }
        return efci;
    }
    let mut alg = json!({
        "kind": "erica",
        "target_utilization": uniform(rng, 0.05, 1.0),
        "interval_ms": uniform(rng, 0.01, 5.0),
        "interval_cells": 1 + rng.next_u64() % 500,
        "delta": uniform(rng, 0.0, 1.0),
        "alpha": uniform(rng, 0.0, 1.0),
        "load_decay": uniform(rng, 0.0, 0.99),
        "a": uniform(rng, 1.0, 4.0),
        "b": uniform(rng, 1.0, 4.0),
        "t0_ms": uniform(rng, 0.001, 5.0),
        "f_min": uniform(rng, 0.01, 1.0),
    });
    for flag in FLAGS {
        alg[flag] = json!(rng.next_u64().is_multiple_of(2));
    }
    alg
}

fn random_case(seed: u64) -> (String, f64) {
    let mut rng = Rng::new(seed, 0x4E1CA);
    let (name, until) = BASES[(rng.next_u64() % BASES.len() as u64) as usize];
    let mut scenario: Value =
        serde_json::from_str(&scenario_text(name)).expect("library scenario is JSON");
    scenario["defaults"]["switch_port"]["algorithm"] = random_algorithm(&mut rng);
    scenario["defaults"]["switch_port"]["buffer_cells"] = json!(50 + rng.next_u64() % 5000);
    scenario["run"]["until_ms"] = json!(until);
    let root = scenario.as_object_mut().expect("object");
    // A case is its own scenario: the file's variants, and what refers to them, go.
    for key in ["variants", "things_to_try", "claims"] {
        root.remove(key);
    }
    (scenario.to_string(), until)
}

fn check_case(seed: u64) {
    let (text, until) = random_case(seed);
    let mut sim = Simulation::from_json(&text)
        .unwrap_or_else(|e| panic!("case {seed}: invalid scenario: {e:?}"));
    let mut twin = Simulation::from_json(&text).expect("same text");
    let steps = until as u64;
    for step in 1..=steps {
        let t = SimTime::from_ms(step as f64);
        sim.run_until(t, u64::MAX);
        assert_eq!(sim.conservation_gap(), 0, "case {seed}: cells not conserved at {t}");
        for v in &sim.vcs {
            let p = &v.source.params;
            if v.source.started {
                assert!(
                    v.source.acr.is_finite()
                        && v.source.acr >= p.mcr - 1e-9
                        && v.source.acr <= p.pcr * (1.0 + 1e-12),
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
    twin.run_until(SimTime::from_ms(until), u64::MAX);
    assert_eq!(
        sim.take_samples(),
        twin.take_samples(),
        "case {seed}: the same settings gave a different run"
    );
}

#[test]
fn random_extension_settings_keep_the_invariants() {
    if let Some(seed) = std::env::var("PROPERTY_SEED").ok().and_then(|s| s.parse().ok()) {
        check_case(seed);
        return;
    }
    let cases: u64 =
        std::env::var("PROPERTY_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    (0..cases).for_each(check_case);
}

#[test]
fn every_extension_key_is_in_the_registry_and_bad_values_are_refused_with_their_path() {
    let registry = sim_core::cell::scenario::params::registry_json().to_string();
    for flag in FLAGS {
        assert!(registry.contains(&format!("\"key\":\"{flag}\"")), "{flag}");
    }
    let mut scenario: Value = serde_json::from_str(&scenario_text("erica-delay.json")).unwrap();
    let alg = &mut scenario["defaults"]["switch_port"]["algorithm"];
    alg["alpha"] = json!(1.5);
    alg["maxmin_fix"] = json!("yes");
    alg["t0_ms"] = json!(0);
    let errors = Simulation::from_json(&scenario.to_string()).err().expect("refused");
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    for path in [
        "defaults.switch_port.algorithm.alpha",
        "defaults.switch_port.algorithm.maxmin_fix",
        "defaults.switch_port.algorithm.t0_ms",
    ] {
        assert!(paths.contains(&path), "{path} not in {paths:?}");
    }
    let mut scenario: Value =
        serde_json::from_str(&scenario_text("ohsaki-lan-slow-decrease.json")).unwrap();
    scenario["defaults"]["switch_port"]["algorithm"] =
        json!({"kind": "efci", "q_high_cells": 100, "q_low_cells": 200});
    let errors = Simulation::from_json(&scenario.to_string()).err().expect("refused");
    assert_eq!(errors[0].path, "defaults.switch_port.algorithm.q_low_cells");
}
