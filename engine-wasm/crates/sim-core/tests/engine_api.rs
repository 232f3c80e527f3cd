//! The coarse API the browser worker drives: live parameter changes, cells in
//! flight for animation, and the run-level sample columns.

mod common;

use common::{col, library_texts, scenario_text};
use serde_json::Value;
use sim_core::cell::net::{NextHop, Starts};
use sim_core::time::SimTime;
use sim_core::{Applied, Simulation};

fn wan() -> (Simulation, Value) {
    let text = scenario_text("two-source-wan.json");
    (Simulation::from_json(&text).unwrap(), serde_json::from_str(&text).unwrap())
}

#[test]
fn a_live_rif_change_takes_effect_mid_run() {
    let (mut sim, mut scenario) = wan();
    sim.run_until(SimTime::from_ms(150.0), u64::MAX);
    assert_eq!(sim.set_param(&mut scenario, "vcs.vc1.rif", "1").unwrap(), Applied::Live);
    assert_eq!(sim.vcs[0].source.params.rif, 1.0);
    assert_eq!(sim.vcs[1].source.params.rif, 1.0 / 16.0, "only vc1 changed");
    assert_eq!(scenario["vcs"][0]["rif"], 1.0);
    // With RIF 1, S1 regains 140 Mbit/s within one BRM once ERICA allows it.
    let (mut slow, _) = wan();
    slow.run_until(SimTime::from_ms(150.0), u64::MAX);
    let first_full = |sim: &mut Simulation| {
        sim.take_samples();
        sim.run_until(SimTime::from_ms(260.0), u64::MAX);
        let rows = sim.take_samples();
        let cols = sim.columns().to_vec();
        let (t, acr) = (col(&cols, "t_ms"), col(&cols, "vc.vc1.acr"));
        rows.chunks_exact(cols.len())
            .find(|r| r[t] > 200.0 && r[acr] >= 139.0)
            .map(|r| r[t])
            .unwrap()
    };
    let (fast_t, slow_t) = (first_full(&mut sim), first_full(&mut slow));
    assert!(fast_t <= slow_t, "RIF 1 at {fast_t} ms, RIF 1/16 at {slow_t} ms");
}

#[test]
fn defaults_and_algorithm_knobs_apply_live_structure_needs_a_restart() {
    let (mut sim, mut scenario) = wan();
    sim.run_until(SimTime::from_ms(20.0), u64::MAX);
    assert_eq!(sim.set_param(&mut scenario, "defaults.vc.nrm", "8").unwrap(), Applied::Live);
    assert!(sim.vcs.iter().all(|v| v.source.params.nrm == 8));
    let knob = "defaults.switch_port.algorithm.target_utilization";
    assert_eq!(sim.set_param(&mut scenario, knob, "0.8").unwrap(), Applied::Live);
    assert_eq!(sim.set_param(&mut scenario, "links.l3.rate_mbps", "45").unwrap(), Applied::Restart);
    assert_eq!(scenario["links"][2]["rate_mbps"], 45.0);
}

#[test]
fn an_invalid_change_is_refused_with_its_path_and_changes_nothing() {
    let (mut sim, mut scenario) = wan();
    let before = scenario.clone();
    let err = sim.set_param(&mut scenario, "vcs.vc1.rif", "0.3").unwrap_err();
    assert_eq!(err.path, "vcs.vc1.rif");
    assert!(err.message.contains("power of two"));
    assert!(sim.set_param(&mut scenario, "vcs.nope.rif", "1").is_err());
    assert_eq!(scenario, before);
    assert_eq!(sim.vcs[0].source.params.rif, 1.0 / 16.0);
}

#[test]
fn a_live_vc_change_is_refused_exactly_when_the_whole_scenario_would_be() {
    // set_param checks only what a VC parameter reaches; it must
    // refuse what validating the whole edited scenario and its variants
    // refuses, and accept the rest.
    let (_, mut base) = wan();
    base["variants"] = serde_json::json!([
        {"id": "floor", "label": "MCR 50", "set": {"defaults.vc.mcr_mbps": 50}},
        {"id": "fast", "label": "RIF 1", "set": {"defaults.vc.rif": 1, "vcs.vc2.rif": 0.5}},
    ]);
    let text = base.to_string();
    let edits = [
        ("vcs.vc1.rif", "1"),
        ("vcs.vc1.rif", "0.3"),
        ("vcs.vc1.pcr_mbps", "40"),
        ("vcs.vc1.pcr_mbps", "60"),
        ("vcs.vc1.pcr_mbps", "-1"),
        ("vcs.vc2.mcr_mbps", "10"),
        ("vcs.vc2.mcr_mbps", "200"),
        ("defaults.vc.mcr_mbps", "200"),
        ("defaults.vc.pcr_mbps", "45"),
        ("defaults.vc.pcr_mbps", "60"),
        ("defaults.vc.tcr_cps", "0"),
        ("defaults.vc.nrm", "8"),
        ("vcs.0.nrm", "16"),
        ("vcs.1.nrm", "3"),
        ("vcs.nope.rif", "1"),
    ];
    for (path, raw) in edits {
        let mut sim = Simulation::from_json(&text).unwrap();
        sim.run_until(SimTime::from_ms(120.0), u64::MAX);
        let mut scenario: Value = serde_json::from_str(&text).unwrap();
        let got = sim.set_param(&mut scenario, path, raw);
        let mut whole: Value = serde_json::from_str(&text).unwrap();
        let expected = sim_core::scenario::apply_set(&mut whole, path, raw)
            .map_err(|e| vec![e])
            .and_then(|()| sim_core::cell::scenario::scenario_from_value(&whole).map(|_| ()));
        assert_eq!(got.is_ok(), expected.is_ok(), "{path} = {raw}: {got:?} against {expected:?}");
        if let Ok(applied) = got {
            assert_eq!(applied, Applied::Live, "{path}");
            assert_eq!(scenario, whole, "{path}: the scenario carries the edit");
            // The loops took exactly what a simulation built from the edited scenario has.
            let fresh = Simulation::from_json(&whole.to_string()).unwrap();
            for (v, f) in sim.vcs.iter().zip(&fresh.vcs) {
                let (mut a, mut b) = (v.source.params, f.source.params);
                (a.icr, b.icr) = (0.0, 0.0); // kept from set-up once started
                assert_eq!(a, b, "{path}: {}", v.id);
            }
        } else {
            assert_eq!(scenario.to_string(), text, "{path}: a refusal changes nothing");
        }
    }
}

#[test]
fn cells_in_flight_describe_real_cells_and_respect_the_cap() {
    let (mut sim, _) = wan();
    sim.run_until(SimTime::from_ms(120.0), u64::MAX);
    let all = sim.cells_in_flight(usize::MAX);
    assert_eq!(all.len() % 7, 0);
    let rows: Vec<&[f64]> = all.chunks_exact(7).collect();
    // Thousands of cells are on the 1000 km links.
    assert!(rows.len() > 1000, "{} cells", rows.len());
    for r in &rows {
        assert!((r[0] as usize) < sim.ports.len() && (0.0..=1.0).contains(&r[1]));
        assert!(r[2] <= 3.0 && (r[3] as usize) < sim.vcs.len());
        assert_eq!(r[4].is_nan(), r[2] == 0.0, "ER only on RM cells");
    }
    assert!(
        rows.iter().any(|r| r[2] == 1.0) && rows.iter().any(|r| r[2] == 2.0),
        "FRMs and BRMs in flight"
    );
    assert!(sim.cells_in_flight(100).len() <= 700);
}

#[test]
fn fairness_is_one_when_both_sources_hold_their_share() {
    let (mut sim, _) = wan();
    sim.run_until(SimTime::from_ms(195.0), u64::MAX);
    let rows = sim.take_samples();
    let cols = sim.columns().to_vec();
    let (t, f, active) = (col(&cols, "t_ms"), col(&cols, "fairness"), col(&cols, "vc.vc2.active"));
    let at = |ms: f64| {
        rows.chunks_exact(cols.len()).find(|r| (r[t] - ms).abs() < 1e-9).unwrap().to_vec()
    };
    assert!(at(190.0)[f] > 0.95, "{}", at(190.0)[f]);
    assert_eq!(at(50.0)[active], 0.0);
    assert_eq!(at(150.0)[active], 1.0);
}

/// A port to a switch starts its waiting cells without events of their own,
/// caught up whenever something reads the port, and at the end of every
/// `run_until`; a port to a host by timer events, and caught up
/// the same way. Whatever the slices the worker cuts a run into —
/// odd deadlines, a budget that stops between two events of one instant —
/// it is the run made in one call, and the queues it draws between slices
/// are the network's at that instant.
#[test]
fn a_run_in_slices_is_the_run_in_one_call() {
    let runs =
        [("two-source-wan.json", 140.0), ("ma-cbr-onoff.json", 400.0), ("ma-500-vcs.json", 150.0)];
    for (name, until_ms) in runs {
        let text = scenario_text(name);
        let mut sliced = Simulation::from_json(&text).unwrap();
        let (mut t, mut cuts, mut waiting_at_a_cut) = (0.0, 0, 0);
        while t < until_ms {
            t = f64::min(t + 0.37, until_ms);
            let at = SimTime::from_ms(t);
            while sliced.run_until(at, 7) == sim_core::RunOutcome::BudgetExhausted {}
            for p in sliced.ports.iter().filter(|p| p.queue_len() > 0) {
                // Caught up: while cells wait, one is being sent.
                assert!(p.is_busy(at), "{name}: port {} idle at {t} ms with cells waiting", p.id);
                waiting_at_a_cut += 1;
            }
            cuts += 1;
            if cuts % 40 != 0 && t < until_ms {
                continue;
            }
            // The run made in one call, read at the same instant.
            let mut whole = Simulation::from_json(&text).unwrap();
            whole.run_until(at, u64::MAX);
            for (a, b) in whole.ports.iter().zip(&sliced.ports) {
                let held = |p: &sim_core::cell::net::Port| {
                    (p.queue_len(), p.wire.len(), p.sent_total, p.arrived_total)
                };
                assert_eq!(held(a), held(b), "{name}: port {} at {t} ms", a.id);
            }
            if t == until_ms {
                assert_eq!(sliced.series_hash(), whole.series_hash(), "{name}");
                assert_eq!(sliced.events(), whole.events(), "{name}");
            }
        }
        // Where S2 joins at 100 ms, cells wait at SW1's port to SW2.
        if name == "two-source-wan.json" {
            assert!(waiting_at_a_cut > 0, "cells waited at a port to a switch at some cut");
        }
    }
}

/// Where a port says the far node sends the cells arriving over its link
/// (read there instead of the loop's route) is where every route
/// through it goes: one port for all, or the loop's next port by loop, in
/// every library scenario, and both kinds are met.
#[test]
fn a_ports_next_hop_is_where_every_route_through_it_goes() {
    let (mut one, mut by_loop) = (0, 0);
    for (name, text) in library_texts() {
        let Ok(sim) = Simulation::from_json(&text) else { continue }; // the packet model's
        for (l, v) in sim.vcs.iter().enumerate() {
            for hop in v.fwd_ports.windows(2) {
                let said = sim.ports[hop[0] as usize].next_hop.of(l as u32);
                assert!(said.is_none_or(|p| p == hop[1]), "{name}: {} at port {}", v.id, hop[0]);
            }
        }
        for b in &sim.background {
            for hop in b.ports.windows(2) {
                if let NextHop::One(p) = sim.ports[hop[0] as usize].next_hop {
                    assert_eq!(p, hop[1], "{name}: background {}", b.id);
                }
            }
        }
        for p in &sim.ports {
            match p.next_hop {
                NextHop::One(_) => one += 1,
                NextHop::ByLoop(_) => by_loop += 1,
                NextHop::Route => {}
            }
        }
    }
    assert!(one > 0 && by_loop > 0, "{one} ports with one next hop, {by_loop} with a table");
}

/// Host links shared by several sources, into a last trunk, land their data
/// cells at the trunk without events of their own, merged in time
/// order, and the run is the one with an event per cell: the same network
/// with one more host link into the trunk, whose only VC never starts, keeps
/// an arrival event per cell at the first switch, and every sample of the
/// cells both runs carry is the same, bit for bit, at every interval — with
/// FIFO queues, with per-VC queues (whose guard cannot count the cells ahead
/// of an RM cell), and with a CBR stream sharing a host link (served first).
#[test]
fn host_links_into_a_last_trunk_land_their_cells_as_their_events_would() {
    let mut shared: Value = serde_json::from_str(&scenario_text("two-source-wan.json")).unwrap();
    // Two sources on each host link, S2's shorter, so that the two links'
    // cells interleave at SW1; vc2 joins and leaves as in the lesson.
    shared["links"][1]["length_km"] = serde_json::json!(300);
    shared["vcs"].as_array_mut().unwrap().extend([
        serde_json::json!({"id": "vc3", "path": ["S1", "SW1", "SW2", "D2"],
                           "traffic": {"kind": "persistent", "start_ms": 40}}),
        serde_json::json!({"id": "vc4", "path": ["S2", "SW1", "SW2", "D1"],
                           "traffic": {"kind": "persistent", "start_ms": 0}}),
    ]);
    let mut per_vc = shared.clone();
    per_vc["defaults"]["switch_port"]["queue"] = serde_json::json!("per_vc");
    let mut cbr = shared.clone();
    cbr["background"] = serde_json::json!([
        {"id": "cbr", "kind": "cbr", "path": ["S2", "SW1", "SW2", "D1"], "rate_mbps": 40,
         "on_ms": 7, "off_ms": 5, "start_ms": 30}
    ]);
    for (case, lazy_json) in [("fifo", shared), ("per-VC queues", per_vc), ("CBR", cbr)] {
        let mut eager_json = lazy_json.clone();
        eager_json["nodes"].as_array_mut().unwrap().push(serde_json::json!(
            {"id": "X", "kind": "host", "x": 80, "y": 390}
        ));
        eager_json["links"].as_array_mut().unwrap().push(serde_json::json!(
            {"id": "lx", "a": "X", "b": "SW1", "rate_mbps": 155.52, "length_km": 1}
        ));
        eager_json["vcs"].as_array_mut().unwrap().push(serde_json::json!(
            {"id": "idle", "path": ["X", "SW1", "SW2", "D1"],
             "traffic": {"kind": "persistent", "start_ms": 100000}}
        ));
        let mut lazy = Simulation::from_json(&lazy_json.to_string()).unwrap();
        let mut eager = Simulation::from_json(&eager_json.to_string()).unwrap();
        let port = |sim: &Simulation, id: &str| {
            let p = sim.ports.iter().find(|p| p.id == id).unwrap();
            (p.starts, p.lands_into.is_some(), p.feeders.len())
        };
        assert_eq!(port(&lazy, "l1"), (Starts::Guarded, true, 0), "{case}");
        assert_eq!(port(&lazy, "l2"), (Starts::Guarded, true, 0), "{case}");
        assert_eq!(port(&lazy, "l3"), (Starts::Guarded, false, 2), "{case}");
        assert_eq!(port(&eager, "l1"), (Starts::CaughtUp, false, 0), "{case}");
        assert_eq!(port(&eager, "l3"), (Starts::Guarded, false, 0), "{case}");
        let until = SimTime::from_ms(300.0);
        lazy.run_until(until, u64::MAX);
        eager.run_until(until, u64::MAX);
        assert!(lazy.events() < eager.events() * 2 / 3, "{case}: the data cells need no events");
        assert_same_samples(&mut lazy, &mut eager);
    }
}

/// Sole senders into a last trunk send their data cells without events
/// (for speed): the cells land in the trunk merged in order of arrival when
/// something reads it, and only RM cells arrive as events. The same network
/// with one more host at each switch and two VCs between them that never
/// start (they share both hosts' links, so neither is a sole sender's)
/// keeps an event per cell, and every sample of the cells both runs carry is the same, bit for
/// bit, at every interval. The host links' lengths are set apart so that no
/// two cells reach the switch at one instant: there the lazy run lands data
/// cells before the instant's events, and the source listed first first.
/// Cases: traffic that starts and stops; bidirectional VCs, whose sources
/// also send their partners' BRMs; ten bottlenecked applications; per-VC
/// queues; a frequent Trm; and sources below TCR behind host links slower
/// than TCR, whose out-of-rate FRMs queue there.
#[test]
fn sole_senders_into_a_last_trunk_land_their_cells_as_their_events_would() {
    let wan: Value = serde_json::from_str(&scenario_text("two-source-wan.json")).unwrap();
    let ten: Value = serde_json::from_str(&scenario_text("erica-acr-retention.json")).unwrap();
    let mut apart = wan.clone();
    apart["links"][1]["length_km"] = serde_json::json!(1234.567);
    let mut both_ways = apart.clone();
    both_ways["links"][4]["length_km"] = serde_json::json!(876.543);
    for vc in both_ways["vcs"].as_array_mut().unwrap() {
        vc["bidirectional"] = serde_json::json!(true);
    }
    let mut bottlenecked = ten.clone();
    for (i, link) in bottlenecked["links"].as_array_mut().unwrap().iter_mut().enumerate() {
        link["length_km"] = serde_json::json!(20.0 + 37.123 * i as f64);
    }
    let mut per_vc = apart.clone();
    per_vc["defaults"]["switch_port"]["queue"] = serde_json::json!("per_vc");
    let mut trm = apart.clone();
    trm["defaults"]["vc"]["trm_ms"] = serde_json::json!(0.78125);
    trm["defaults"]["vc"]["nrm"] = serde_json::json!(256);
    let mut below_tcr = bottlenecked.clone();
    for link in &mut below_tcr["links"].as_array_mut().unwrap()[..10] {
        link["rate_mbps"] = serde_json::json!(0.3);
    }
    below_tcr["links"][10]["rate_mbps"] = serde_json::json!(1);
    below_tcr["defaults"]["vc"]["tcr_cps"] = serde_json::json!(1000);
    below_tcr["defaults"]["vc"]["icr_mbps"] = serde_json::json!(0.5);
    let cases = [
        ("start and stop", apart),
        ("bidirectional", both_ways),
        ("ten bottlenecked", bottlenecked),
        ("per-VC queues", per_vc),
        ("Trm", trm),
        ("below TCR", below_tcr),
    ];
    for (case, lazy_json) in cases {
        let mut eager_json = lazy_json.clone();
        let first = lazy_json["vcs"][0]["path"].clone();
        eager_json["nodes"].as_array_mut().unwrap().extend([
            serde_json::json!({"id": "X", "kind": "host", "x": 80, "y": 390}),
            serde_json::json!({"id": "Y", "kind": "host", "x": 780, "y": 390}),
        ]);
        eager_json["links"].as_array_mut().unwrap().extend([
            serde_json::json!({"id": "lx", "a": "X", "b": first[1], "rate_mbps": 155.52,
                               "length_km": 1}),
            serde_json::json!({"id": "ly", "a": first[2], "b": "Y", "rate_mbps": 155.52,
                               "length_km": 1}),
        ]);
        for id in ["idle1", "idle2"] {
            eager_json["vcs"].as_array_mut().unwrap().push(serde_json::json!(
                {"id": id, "path": ["X", first[1], first[2], "Y"],
                 "traffic": {"kind": "persistent", "start_ms": 100000}}
            ));
        }
        let mut lazy = Simulation::from_json(&lazy_json.to_string()).unwrap();
        let mut eager = Simulation::from_json(&eager_json.to_string()).unwrap();
        let by_source =
            |sim: &Simulation| sim.ports.iter().filter(|p| p.starts == Starts::BySource).count();
        let vcs = lazy_json["vcs"].as_array().unwrap().len();
        assert!(by_source(&lazy) >= vcs, "{case}: every forward source's host link");
        assert_eq!(by_source(&eager), 0, "{case}");
        let until = SimTime::from_ms(300.0);
        lazy.run_until(until, u64::MAX);
        eager.run_until(until, u64::MAX);
        // Below TCR most cells are out-of-rate FRMs, which are events.
        let spared = if case == "below TCR" { 1 } else { 2 };
        assert!(lazy.events() < eager.events() / spared, "{case}: data cells need no events");
        assert_same_samples(&mut lazy, &mut eager);
    }
}

/// A last trunk's data cells land at its far switch without events of their
/// own, and the run is the one with an event per cell: the same
/// network with one more feeder (a VC that never starts) into a port past
/// the trunk keeps an event per cell there, and every sample of the cells
/// both runs carry is the same, bit for bit, at every interval.
#[test]
fn a_last_trunk_lands_its_cells_as_their_events_would() {
    let text = scenario_text("two-source-wan.json");
    let mut other: Value = serde_json::from_str(&text).unwrap();
    other["nodes"].as_array_mut().unwrap().push(serde_json::json!(
        {"id": "X", "kind": "host", "x": 300, "y": 300}
    ));
    other["links"].as_array_mut().unwrap().push(serde_json::json!(
        {"id": "lx", "a": "X", "b": "SW2", "rate_mbps": 155.52, "length_km": 1}
    ));
    other["vcs"].as_array_mut().unwrap().push(serde_json::json!(
        {"id": "idle", "path": ["X", "SW2", "D1"],
         "traffic": {"kind": "persistent", "start_ms": 100000}}
    ));
    let mut lazy = Simulation::from_json(&text).unwrap();
    let mut eager = Simulation::from_json(&other.to_string()).unwrap();
    let starts = |sim: &Simulation, id: &str| {
        let p = sim.ports.iter().find(|p| p.id == id).unwrap();
        (p.starts, !p.feeders.is_empty())
    };
    assert_eq!(starts(&lazy, "l3"), (Starts::Guarded, false));
    assert_eq!(starts(&lazy, "l4"), (Starts::Timed, true));
    assert_eq!(starts(&eager, "l3"), (Starts::CaughtUp, false));
    assert_eq!(starts(&eager, "l4"), (Starts::Timed, false));
    let until = SimTime::from_ms(300.0);
    lazy.run_until(until, u64::MAX);
    eager.run_until(until, u64::MAX);
    assert!(lazy.events() < eager.events() * 3 / 4, "the trunk's data cells need no events");
    assert_same_samples(&mut lazy, &mut eager);
}

/// Every sample column of `lazy` is `eager`'s column of the same name, bit
/// for bit, at every one of at least 100 rows.
fn assert_same_samples(lazy: &mut Simulation, eager: &mut Simulation) {
    let (a, b) = (lazy.take_samples(), eager.take_samples());
    let (ca, cb) = (lazy.columns().to_vec(), eager.columns().to_vec());
    let rows = a.len() / ca.len();
    assert_eq!(rows, b.len() / cb.len());
    assert!(rows >= 100);
    let mut compared = 0;
    for (i, name) in ca.iter().enumerate() {
        let Some(j) = cb.iter().position(|c| c == name) else { continue };
        for r in 0..rows {
            let (x, y) = (a[r * ca.len() + i], b[r * cb.len() + j]);
            assert_eq!(x.to_bits(), y.to_bits(), "{name} at row {r}: {x} ≠ {y}");
        }
        compared += 1;
    }
    assert_eq!(compared, ca.len(), "every column of the lazy run has its twin");
}
