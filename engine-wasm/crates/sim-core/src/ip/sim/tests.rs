use super::*;
use serde_json::{json, Value};

fn one_flow(flow: Value) -> IpSimulation {
    let v = json!({
        "format": "abr-lab/scenario", "version": 1, "model": "ip", "id": "t",
        "run": { "until_ms": 1000, "sample_interval_ms": 100 },
        "nodes": [ {"id": "S", "kind": "host"}, {"id": "R", "kind": "router"}, {"id": "D", "kind": "host"} ],
        "links": [ {"id": "a", "a": "S", "b": "R", "rate_mbps": 100, "delay_ms": 1},
                   {"id": "b", "a": "R", "b": "D", "rate_mbps": 100, "delay_ms": 1} ],
        "flows": [ flow ]
    });
    IpSimulation::build(&ip_scenario::ip_scenario_from_value(&v).unwrap())
}

#[test]
fn the_first_rtt_sample_is_propagation_plus_receiver_delay_plus_transmission() {
    let mut sim = one_flow(
        json!({"id": "t", "kind": "tcp", "path": ["S", "R", "D"], "rtt_ms": 50, "initial_cwnd": 1}),
    );
    assert_eq!(sim.flows[0].receiver_delay, SimTime::from_ms(46.0), "50 ms less 4 ms of links");
    sim.run_until(SimTime::from_ms(60.0), u64::MAX);
    let FlowEnds::Tcp { sender, .. } = &sim.flows[0].ends else { panic!() };
    // 1500 bytes twice at 100 Mbit/s (120 µs each) and a 40-byte ACK twice (3.2 µs each).
    assert_eq!(sender.rtt.srtt(), Some(SimTime::from_us(50_000.0 + 240.0 + 6.4)));
    assert_eq!(sender.snd_una, 1);
}

#[test]
fn a_udp_source_paces_its_datagrams_and_the_probe_counts_them() {
    let mut sim = one_flow(
        json!({"id": "u", "kind": "udp", "path": ["S", "R", "D"], "rate_mbps": 12, "packet_bytes": 1500}),
    );
    sim.run_until(SimTime::from_ms(1000.0), u64::MAX);
    // 12 Mbit/s of 1500-byte datagrams: one per millisecond, at 0, 1, …, 1000 ms.
    assert_eq!(sim.packets_sent, 1001);
    let rows = sim.take_samples();
    let cols = sim.columns().to_vec();
    let udp = cols.iter().position(|c| c == "class.udp.throughput_mbps").unwrap();
    let last = &rows[rows.len() - cols.len()..];
    assert!((last[udp] - 12.0).abs() < 1e-9, "{}", last[udp]);
    assert!(
        last[cols.iter().position(|c| c == "ratio").unwrap()].is_nan(),
        "no TCP: ratio undefined"
    );
}
