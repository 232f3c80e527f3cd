//! Connection set-up takes time (Ma & Ramakrishnan, "Queue
//! Management for Explicit Rate Based Congestion Control" §3): the set-up
//! crosses the path hop by hop (each switch's processing, then the link's
//! propagation), the connect comes back the same way, and data starts only
//! when it arrives. RATE computes the share as the set-up passes and
//! allocates on the first RM cell; RM allocates as the set-up passes.

use sim_core::cell::switch_alg::AnyAlgorithm;
use sim_core::time::SimTime;
use sim_core::Simulation;

/// S1 and S2 → SW1 → SW2 → D, every link 155.52 Mbit/s; access links 3 ms
/// (S1) and 1 ms (S2), trunk 2 ms, SW2→D 0.5 ms; each switch port processes
/// a set-up or connect in `setup_ms`. vc1 from 0 ms, vc2 from 50 ms.
/// Signalling out of band, so that the times are propagation and processing
/// alone (in band, ma_two_switch.rs shows the set-up's wait behind a queue).
fn scenario(setup_ms: f64, startup: &str) -> Simulation {
    let link = |id: &str, a: &str, b: &str, delay: f64| {
        format!(
            r#"{{"id": "{id}", "a": "{a}", "b": "{b}", "rate_mbps": 155.52, "delay_ms": {delay}}}"#
        )
    };
    let text = format!(
        r#"{{
  "format": "abr-lab/scenario", "version": 1, "id": "setup-timing", "title": "t", "paper": "p",
  "run": {{"until_ms": 200, "sample_interval_ms": 1}},
  "defaults": {{
    "vc": {{"pcr_mbps": 155.52, "icr_mbps": 1, "startup": "{startup}", "switched": true}},
    "switch_port": {{"setup_ms": {setup_ms}, "setup_in_band": false,
      "algorithm": {{"kind": "explicit_maxmin", "queue_management": false}}}}
  }},
  "nodes": [
    {{"id": "S1", "kind": "host", "x": 0, "y": 0}}, {{"id": "S2", "kind": "host", "x": 0, "y": 1}},
    {{"id": "SW1", "kind": "switch", "x": 1, "y": 0}}, {{"id": "SW2", "kind": "switch", "x": 2, "y": 0}},
    {{"id": "D", "kind": "host", "x": 3, "y": 0}}
  ],
  "links": [{}, {}, {}, {}],
  "vcs": [
    {{"id": "vc1", "path": ["S1", "SW1", "SW2", "D"], "traffic": {{"kind": "persistent", "start_ms": 0}}}},
    {{"id": "vc2", "path": ["S2", "SW1", "SW2", "D"], "traffic": {{"kind": "persistent", "start_ms": 50}}}}
  ]
}}"#,
        link("a1", "S1", "SW1", 3.0),
        link("a2", "S2", "SW1", 1.0),
        link("trunk", "SW1", "SW2", 2.0),
        link("out", "SW2", "D", 0.5),
    );
    Simulation::from_json(&text).unwrap()
}

fn trunk_vcs_counted(sim: &Simulation) -> u32 {
    let port = sim.ports.iter().find(|p| p.id == "trunk").unwrap();
    match &port.algorithm {
        AnyAlgorithm::ExplicitMaxMin(a) => a.table.active(),
        _ => unreachable!("the trunk runs the explicit max-min switch"),
    }
}

#[test]
fn the_connect_arrives_after_the_round_trip_of_propagation_and_processing() {
    for setup_ms in [0.0, 1.0, 4.0] {
        let mut sim = scenario(setup_ms, "atm_forum");
        sim.run_until(SimTime::from_ms(49.0), u64::MAX);
        // vc1: 3 + 2 + 0.5 ms each way; both switches process the set-up
        // and the connect (hosts take no time unless told).
        let expected = SimTime::from_ms(2.0 * 5.5) + SimTime::from_ms(4.0 * setup_ms);
        assert_eq!(sim.vcs[0].setup_sent, Some(SimTime::ZERO));
        assert_eq!(sim.vcs[0].connected_at, Some(expected), "setup_ms {setup_ms}");
        // The FRTT of Fahmy et al. Table 1, accumulated by the set-up and the
        // connect: propagation both ways, not the call processing.
        assert_eq!(sim.vcs[0].source.params.frtt, SimTime::from_ms(11.0));
    }
}

#[test]
fn no_cell_leaves_before_the_connect() {
    let mut sim = scenario(1.0, "atm_forum");
    let connect = SimTime::from_ms(15.0);
    sim.run_until(SimTime(connect.0 - 1), u64::MAX);
    assert_eq!(sim.vcs[0].source.cells_sent(), 0);
    assert_eq!(sim.source_cells, 0);
    assert_eq!(sim.vcs[0].source.reported_acr(), 0.0, "no ACR before the connection is up");
    // The set-up messages travel on their own: nothing is queued anywhere.
    assert_eq!(sim.cells_in_network(), 0);
    sim.run_until(connect, u64::MAX);
    assert_eq!(sim.vcs[0].connected_at, Some(connect));
    assert_eq!(sim.vcs[0].source.cells_sent(), 1, "the first cell goes at the connect (rule 2)");
}

#[test]
fn the_set_up_is_drawn_hop_by_hop() {
    let mut sim = scenario(1.0, "atm_forum");
    // At 2 ms the set-up is on S1's 3 ms access link, two thirds across.
    sim.run_until(SimTime::from_ms(2.0), u64::MAX);
    let rows = sim.cells_in_flight(100);
    assert_eq!(rows.len(), 7);
    let a1 = sim.ports.iter().position(|p| p.id == "a1").unwrap();
    assert_eq!((rows[0], rows[2], rows[3]), (a1 as f64, 7.0, 0.0));
    assert!((rows[1] - 2.0 / 3.0).abs() < 1e-9, "{}", rows[1]);
    // At 3.5 ms it is being processed at SW1: shown at the start of the trunk.
    sim.run_until(SimTime::from_ms(3.5), u64::MAX);
    let rows = sim.cells_in_flight(100);
    let trunk = sim.ports.iter().position(|p| p.id == "trunk").unwrap();
    assert_eq!((rows[0], rows[1], rows[2]), (trunk as f64, 0.0, 7.0));
    // At 8 ms the connect is on its way back over the trunk (SW2 → SW1).
    sim.run_until(SimTime::from_ms(8.5), u64::MAX);
    let rows = sim.cells_in_flight(100);
    let back = sim.ports.iter().position(|p| p.id == "trunk:rev").unwrap();
    assert_eq!((rows[0], rows[2]), (back as f64, 8.0));
}

#[test]
fn rm_allocates_as_the_set_up_passes_rate_on_the_first_rm_cell() {
    // vc2's set-up leaves S2 at 50 ms, reaches SW1 at 51 ms, leaves it at
    // 52 ms (processing) and SW2 at 55 ms; its connect is back at 61 ms.
    let passed_trunk = SimTime::from_ms(52.5);
    let connect = SimTime::from_ms(50.0 + 2.0 * 3.5 + 4.0);
    for (startup, counted_at_set_up) in [("rm", 2), ("rate", 1)] {
        let mut sim = scenario(1.0, startup);
        sim.run_until(passed_trunk, u64::MAX);
        assert_eq!(trunk_vcs_counted(&sim), counted_at_set_up, "{startup} after the set-up");
        assert_eq!(sim.vcs[1].source.cells_sent(), 0);
        sim.run_until(SimTime(connect.0 - 1), u64::MAX);
        assert_eq!(trunk_vcs_counted(&sim), counted_at_set_up, "{startup} before data");
        assert_eq!(sim.vcs[1].connected_at, None);
        // The first FRM (vc2's first cell) reaches the trunk 1 ms after the connect.
        sim.run_until(connect + SimTime::from_ms(1.1), u64::MAX);
        assert_eq!(sim.vcs[1].connected_at, Some(connect));
        assert_eq!(trunk_vcs_counted(&sim), 2, "{startup} after the first RM cell");
        // Both start at the max-min share the set-up computed: half the link.
        let half = sim.ports[0].rate_cps / 2.0;
        let icr = sim.vcs[1].source.params.icr;
        assert!((icr - half).abs() < 0.01 * half, "{startup}: ICR {icr} vs {half}");
    }
}

#[test]
fn the_rm_option_warns_vc1_before_vc2_sends() {
    // With RM, vc1's next RM cell through SW1 after vc2's set-up is told
    // half the link, so vc1 comes down before vc2's first cell; with RATE it
    // learns only after vc2's first RM cell has passed.
    let acr_at = |startup: &str, t: SimTime| {
        let mut sim = scenario(1.0, startup);
        sim.run_until(t, u64::MAX);
        sim.vcs[0].source.acr
    };
    let before_vc2_data = SimTime::from_ms(61.0);
    let full = acr_at("rm", SimTime::from_ms(49.0));
    let rm = acr_at("rm", before_vc2_data);
    let rate = acr_at("rate", before_vc2_data);
    assert!(rm < 0.51 * full, "RM: vc1 at {rm} of {full} before vc2 sends");
    assert!(rate > 0.99 * full, "RATE: vc1 still at {rate} of {full}");
}
