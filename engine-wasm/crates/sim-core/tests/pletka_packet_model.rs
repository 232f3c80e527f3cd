//! The packet model's building blocks under Pletka et al.'s scenarios, on small
//! inline networks: TCP NewReno fills a drop-tail bottleneck with and without
//! delayed ACKs, a UDP source alternates its rate, and both models answer
//! through one `Model` face (wasm layer, runner).

mod common;

use serde_json::{json, Value};
use sim_core::model::{Model, ModelKind};
use sim_core::runner::run_report;
use sim_core::time::SimTime;

fn network(flows: Value, bottleneck_mbps: f64) -> Value {
    json!({
        "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": "inline",
        "run": { "until_ms": 20000, "seed": 1, "sample_interval_ms": 100 },
        "defaults": { "tcp": { "rwnd_pkts": 1000 } },
        "nodes": [ {"id": "S", "kind": "host"}, {"id": "R1", "kind": "router"},
                   {"id": "R2", "kind": "router"}, {"id": "D", "kind": "host"} ],
        "links": [
            {"id": "a", "a": "S", "b": "R1", "rate_mbps": 100, "delay_ms": 1},
            {"id": "b", "a": "R1", "b": "R2", "rate_mbps": bottleneck_mbps, "delay_ms": 5, "a_to_b": {"buffer_pkts": 50}},
            {"id": "c", "a": "R2", "b": "D", "rate_mbps": 100, "delay_ms": 1}
        ],
        "flows": flows
    })
}

fn report(v: &Value, windows: &[(f64, f64)], sets: &[(&str, &str)]) -> Value {
    run_report(&v.to_string(), &common::opts(None, windows, sets), &|| 0.0, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{}", sim_core::scenario::format_errors(&e)))
}

#[test]
fn newreno_fills_a_drop_tail_bottleneck_with_and_without_delayed_acks() {
    let v = network(
        json!([{"id": "t", "kind": "tcp", "count": 4, "path": ["S", "R1", "R2", "D"], "rtt_min_ms": 20, "rtt_max_ms": 80}]),
        10.0,
    );
    for delayed in ["false", "true"] {
        let r = report(&v, &[(5000.0, 20000.0)], &[("defaults.tcp.delayed_ack", delayed)]);
        let w = &r["windows"][0];
        let tcp = w["classes"]["tcp"]["throughput_mbps"].as_f64().unwrap();
        assert!(tcp > 9.5, "delayed ACKs {delayed}: {tcp} Mbit/s of 10");
        assert!(w["ports"]["b"]["utilization"].as_f64().unwrap() > 0.97);
        // Losses happen (the buffer is 50 packets) and are recovered mostly by fast retransmit.
        assert!(w["ports"]["b"]["packets_lost"].as_u64().unwrap() > 0);
        assert!(
            r["tcp"]["fast_retransmits"].as_u64().unwrap() > r["tcp"]["timeouts"].as_u64().unwrap()
        );
        // Without a BAT port the index is Jain's over the flows; every flow gets something.
        assert!(w["fairness"].as_f64().unwrap() > 0.5);
        assert!(w["flows"]
            .as_object()
            .unwrap()
            .values()
            .all(|f| f["throughput_mbps"].as_f64().unwrap() > 0.5));
    }
}

#[test]
fn udp_alternates_between_its_two_rates() {
    let v = network(
        json!([{"id": "u", "kind": "udp", "path": ["S", "R1", "R2", "D"], "rate_mbps": 2, "alt_rate_mbps": 6, "alt_period_ms": 1000}]),
        10.0,
    );
    let r = report(&v, &[(100.0, 1000.0), (1100.0, 2000.0)], &[("run.until_ms", "2000")]);
    let udp = |w: usize| r["windows"][w]["classes"]["udp"]["throughput_mbps"].as_f64().unwrap();
    assert!((udp(0) - 2.0).abs() < 0.05 && (udp(1) - 6.0).abs() < 0.05, "{} {}", udp(0), udp(1));
    assert_eq!(r["totals"]["ports"]["b"]["packets_lost"], 0);
}

#[test]
fn both_models_answer_through_one_face() {
    let ip = common::scenario_text("pletka-clcc-tcp-udp.json");
    let mut m = Model::from_json(&ip).unwrap();
    assert_eq!(m.kind(), ModelKind::Packet);
    let layout = m.layout();
    assert_eq!(layout["model"], "ip");
    for col in [
        "t_ms",
        "class.tcp.throughput_mbps",
        "class.udp.throughput_mbps",
        "ratio",
        "d_udp",
        "fairness",
        "port.bottleneck.queue",
        "port.bottleneck.util",
        "port.bottleneck.lost",
        "flow.tcp-100.throughput_mbps",
    ] {
        assert!(m.columns().iter().any(|c| c == col), "no column {col}");
    }
    m.run_until(SimTime::from_ms(500.0), u64::MAX);
    assert_eq!(m.frame().len(), layout["frame_columns"].as_array().unwrap().len());
    assert_eq!(m.take_samples().len(), 5 * m.columns().len());
    assert!(m.source_cells() > 0 && m.events() > 0);
    assert!(Model::validate(&ip).unwrap().is_empty());

    let cell = Model::from_json(&common::scenario_text("two-source-wan.json")).unwrap();
    assert_eq!(cell.kind(), ModelKind::Cell);
    let mut tagged: Value =
        serde_json::from_str(&common::scenario_text("two-source-wan.json")).unwrap();
    tagged["model"] = json!("cell");
    assert!(Model::from_json(&tagged.to_string()).is_ok());
}

#[test]
fn aqm_knobs_and_udp_rates_change_live_structure_needs_a_restart() {
    use sim_core::Applied;
    let text = common::scenario_text("pletka-clcc-tcp-udp.json");
    let mut scenario: Value = serde_json::from_str(&text).unwrap();
    let mut m = Model::from_json(&text).unwrap();
    m.run_until(SimTime::from_ms(3000.0), u64::MAX);
    let Model::Packet(sim) = &m else { panic!("packet model") };
    let t_before: Vec<f64> = sim.ports[4].aqm.bat().unwrap().flows.iter().map(|f| f.t).collect();
    let r_ref = "links.bottleneck.a_to_b.aqm.clcc.r_ref";
    assert_eq!(m.set_param(&mut scenario, r_ref, "1").unwrap(), Applied::Live);
    assert_eq!(scenario["links"][2]["a_to_b"]["aqm"]["clcc"]["r_ref"], 1.0);
    assert_eq!(m.set_param(&mut scenario, "flows.udp.rate_mbps", "40").unwrap(), Applied::Live);
    let Model::Packet(sim) = &m else { panic!("packet model") };
    let bat = sim.ports[4].aqm.bat().unwrap();
    assert_eq!(bat.clcc.as_ref().unwrap().config.r_ref, 1.0);
    assert_eq!(
        bat.flows.iter().map(|f| f.t).collect::<Vec<_>>(),
        t_before,
        "transmit probabilities kept"
    );
    match &sim.flows[0].ends {
        sim_core::ip::sim::FlowEnds::Udp { source, .. } => assert_eq!(source.rate_bps, 40e6),
        _ => panic!("flow 0 is the UDP flow"),
    }
    assert_eq!(
        m.set_param(&mut scenario, "links.bottleneck.rate_mbps", "45").unwrap(),
        Applied::Restart
    );
    let err = m.set_param(&mut scenario, "links.bottleneck.a_to_b.aqm.w", "2").unwrap_err();
    assert_eq!(err.path, "links.bottleneck.a_to_b.aqm.w");
    // The animation rows: port, progress, kind (4 TCP, 5 ACK, 6 UDP), flow, bytes, 0, NaN.
    let rows = m.cells_in_flight(50);
    assert!(!rows.is_empty() && rows.len().is_multiple_of(7) && rows.len() <= 7 * 50);
    assert!(rows
        .chunks_exact(7)
        .all(|r| (0.0..=1.0).contains(&r[1]) && (4.0..=6.0).contains(&r[2])));
}
