//! Fahmy et al. §4.2.1 (Fahmy et al.), the two-source WAN transient, checked
//! through the same code path `abrsim run` uses.

mod common;

use common::scenario_text;
use serde_json::Value;
use sim_core::runner::{run_report, RunOptions};
use sim_core::time::SimTime;
use sim_core::Simulation;

fn report(opts: RunOptions) -> Value {
    common::report("two-source-wan.json", &opts)
}

fn windows() -> RunOptions {
    RunOptions {
        until_ms: Some(300.0),
        windows: vec![(60.0, 95.0), (150.0, 195.0), (260.0, 300.0)],
        ..Default::default()
    }
}

fn acr(r: &Value, window: usize, vc: &str) -> f64 {
    r["windows"][window]["vcs"][vc]["acr_mbps"].as_f64().unwrap()
}

const TARGET: f64 = 0.9 * 155.52;

#[test]
fn acrs_follow_the_paper() {
    let r = report(windows());
    // Before S2: S1 settles near 0.9 × 155.52 ≈ 140 Mbit/s.
    assert!((acr(&r, 0, "vc1") - TARGET).abs() < 0.02 * TARGET, "{}", acr(&r, 0, "vc1"));
    // While S2 is on: both at the 70 Mbit/s fair share, as Figure 4 shows.
    for vc in ["vc1", "vc2"] {
        let a = acr(&r, 1, vc);
        assert!((a - TARGET / 2.0).abs() < 0.03 * TARGET / 2.0, "{vc}: {a}");
        let fair = r["windows"][1]["vcs"][vc]["maxmin_mbps"].as_f64().unwrap();
        assert!((fair - TARGET / 2.0).abs() < 1e-3);
    }
    // After S2 stops: S1 back near 140 Mbit/s.
    assert!((acr(&r, 2, "vc1") - TARGET).abs() < 0.02 * TARGET, "{}", acr(&r, 2, "vc1"));
    // S2 has not started in the first window.
    assert_eq!(acr(&r, 0, "vc2"), 0.0);
    // The bottleneck is the SW1→SW2 link, busy while both send.
    assert!(r["windows"][1]["ports"]["l3"]["utilization"].as_f64().unwrap() > 0.95);
}

#[test]
fn no_cell_is_lost() {
    let r = report(windows());
    for (port, stats) in r["totals"]["ports"].as_object().unwrap() {
        assert_eq!(stats["cells_lost"], 0, "{port}");
    }
}

#[test]
fn the_oracle_gives_each_vc_half_the_erica_capacity() {
    let r = report(windows());
    assert_eq!(r["maxmin_mbps"]["vc1"].as_f64().unwrap(), (TARGET / 2.0 * 1e4).round() / 1e4);
}

#[test]
fn same_scenario_and_seed_give_the_same_report() {
    let mut a = report(windows());
    let mut b = report(windows());
    a["stats"]["wall_ms"] = Value::Null;
    b["stats"]["wall_ms"] = Value::Null;
    assert_eq!(a, b);
}

#[test]
fn cells_are_conserved_and_time_never_goes_back() {
    let mut sim = Simulation::from_json(&scenario_text("two-source-wan.json")).unwrap();
    let mut last = SimTime::ZERO;
    for step in 1..=60 {
        sim.run_until(SimTime::from_ms(step as f64 * 5.0), u64::MAX);
        assert!(sim.now() >= last);
        last = sim.now();
        assert_eq!(sim.conservation_gap(), 0, "at {}", sim.now());
        for v in &sim.vcs {
            let p = &v.source.params;
            assert!(v.source.acr >= p.mcr && v.source.acr <= p.pcr * (1.0 + 1e-12));
        }
        for p in &sim.ports {
            assert!(p.queue_len() <= p.buffer_cells);
        }
    }
}

#[test]
fn overrides_reach_the_run_and_bad_paths_are_refused() {
    let text = scenario_text("two-source-wan.json");
    let opts = RunOptions {
        until_ms: Some(50.0),
        sets: vec![("vcs.vc1.rif".into(), "1".into())],
        ..Default::default()
    };
    assert!(run_report(&text, &opts, &|| 0.0, &mut |_, _| {}).is_ok());
    for (path, value, expect) in [
        ("vcs.vc9.rif", "1", "vcs.vc9"),
        ("vcs.vc1.rif", "0.3", "vcs.vc1.rif"),
        ("vcs.vc1.rfi", "1", "vcs.vc1.rfi"),
    ] {
        let opts = RunOptions { sets: vec![(path.into(), value.into())], ..Default::default() };
        let errors = run_report(&text, &opts, &|| 0.0, &mut |_, _| {}).unwrap_err();
        assert_eq!(errors[0].path, expect, "{errors:?}");
    }
    let opts = RunOptions { windows: vec![(200.0, 100.0)], ..Default::default() };
    assert!(run_report(&text, &opts, &|| 0.0, &mut |_, _| {}).is_err());
}
