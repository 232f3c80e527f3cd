//! Pletka, Kind, Waldvogel & Mannel §V, Figure 6: one UDP flow at 90 Mbit/s and 100
//! greedy TCP connections (RTTs 2–200 ms) on a 100 Mbit/s BAT bottleneck,
//! r_ref = 30/70. Without CLCC the UDP/TCP ratio stays far from r_ref; with
//! CLCC its long-term average matches r_ref and the fairness index improves.
//! Checked through the same code path `abrsim run` uses, over 5–20 s of the
//! paper's 20 s (the first seconds are the TCP start-up and CLCC's approach).

mod common;

use common::scenario_text;
use serde_json::Value;
use sim_core::ip::sim::FlowEnds;
use sim_core::ip::IpSimulation;
use sim_core::time::SimTime;

const R_REF: f64 = 0.428571;

fn report(name: &str, sets: &[(&str, &str)]) -> Value {
    common::report(name, &common::opts(None, &[(5000.0, 20000.0)], sets))
}

fn stat(r: &Value, key: &str) -> f64 {
    r["windows"][0][key].as_f64().unwrap_or_else(|| panic!("no {key}"))
}

fn class(r: &Value, class: &str) -> f64 {
    r["windows"][0]["classes"][class]["throughput_mbps"].as_f64().unwrap()
}

#[test]
fn bat_alone_leaves_the_ratio_far_from_r_ref() {
    let r = report("pletka-bat-tcp-udp.json", &[]);
    let ratio = stat(&r, "ratio");
    // The paper: UDP grabs several times TCP's share (Fig. 6a). Here 1.8
    // (see ip::bat's test of T_UDP ≤ T_TCP for why not ten).
    assert!(ratio > 3.0 * R_REF, "ratio {ratio}");
    assert!(class(&r, "udp") > class(&r, "tcp"));
    assert!(stat(&r, "fairness") < 0.85, "fairness {}", stat(&r, "fairness"));
    // D_UDP is the open-loop constant.
    assert_eq!(r["windows"][0]["d_udp"]["mean"], 0.05);
    assert!(r["windows"][0]["ports"]["bottleneck"]["utilization"].as_f64().unwrap() > 0.99);
}

/// 100 greedy TCP connections keep the BAT link busy, with UDP at 90 Mbit/s
/// (CLCC on) and at 20 Mbit/s (control pre-empted): B(t) also reads a
/// draining queue as excess bandwidth, so BAT stops cutting T_TCP once TCP
/// has backed off (with the queue level alone the link idled 12–22 %).
#[test]
fn greedy_tcp_keeps_the_bat_link_busy() {
    for (variant, floor) in [("clcc", 0.99), ("udp-20", 0.95)] {
        let r = common::report(
            "pletka-clcc-tcp-udp.json",
            &common::variant(variant, None, &[(5000.0, 20_000.0)], &[]),
        );
        let u = r["windows"][0]["ports"]["bottleneck"]["utilization"].as_f64().unwrap();
        assert!(u > floor, "{variant}: utilisation {u}");
    }
}

#[test]
fn clcc_brings_the_long_run_ratio_to_r_ref_and_fairness_up() {
    let with = report("pletka-clcc-tcp-udp.json", &[]);
    let without = report("pletka-bat-tcp-udp.json", &[]);
    let ratio = stat(&with, "ratio");
    assert!((ratio - R_REF).abs() < 0.15 * R_REF, "ratio {ratio} against {R_REF}");
    let fair = stat(&with, "fairness");
    assert!(fair > 0.99, "fairness {fair}");
    assert!(stat(&with, "fairness_mean") > stat(&without, "fairness_mean") + 0.15);
    // CLCC raised D_UDP from the open-loop 0.05, within its bounds.
    let d = with["windows"][0]["d_udp"]["mean"].as_f64().unwrap();
    assert!(d > 0.1 && d <= 0.8, "D_UDP {d}");
    // TCP got most of what UDP gave up; the link stays busy.
    assert!(class(&with, "tcp") > class(&without, "tcp") + 20.0);
    assert!(with["windows"][0]["ports"]["bottleneck"]["utilization"].as_f64().unwrap() > 0.8);
    // The reference the index is measured against is 30/70 of the link.
    assert!((with["reference_mbps"]["udp"].as_f64().unwrap() - 30.0).abs() < 0.01);
}

#[test]
fn clcc_holds_across_seeds() {
    for seed in ["2", "3"] {
        let r = report("pletka-clcc-tcp-udp.json", &[("run.seed", seed)]);
        let ratio = stat(&r, "ratio");
        assert!((ratio - R_REF).abs() < 0.15 * R_REF, "seed {seed}: ratio {ratio}");
    }
}

#[test]
fn same_scenario_and_seed_give_the_same_report() {
    let opts = common::opts(Some(3000.0), &[(1000.0, 3000.0)], &[]);
    let mut a = common::report("pletka-clcc-tcp-udp.json", &opts);
    let mut b = common::report("pletka-clcc-tcp-udp.json", &opts);
    for r in [&mut a, &mut b] {
        r["stats"]["wall_ms"] = Value::Null;
        r["stats"]["events_per_s"] = Value::Null;
        r["stats"]["packets_per_s"] = Value::Null;
        r["stats"]["realtime_factor"] = Value::Null;
    }
    assert_eq!(a, b);
}

#[test]
fn packets_are_conserved_and_probabilities_stay_in_range() {
    let mut sim = IpSimulation::from_json(&scenario_text("pletka-clcc-tcp-udp.json")).unwrap();
    assert_eq!(sim.flows.len(), 101);
    let rtts: Vec<f64> =
        sim.flows.iter().filter(|f| f.group == "tcp").map(|f| f.rtt.as_ms()).collect();
    assert!((rtts[0] - 2.0).abs() < 1e-9 && (rtts[99] - 200.0).abs() < 1e-9);
    let mut last = SimTime::ZERO;
    for step in 1..=30 {
        sim.run_until(SimTime::from_ms(step as f64 * 100.0), u64::MAX);
        assert!(sim.now() >= last);
        last = sim.now();
        let created: u64 = sim.packets_sent + sim.flows.iter().map(|f| f.acks_sent).sum::<u64>();
        let absorbed: u64 =
            sim.flows.iter().map(|f| f.packets_delivered + f.acks_received).sum::<u64>()
                + sim.packets_in_network()
                + sim.ports.iter().map(|p| p.stats.lost_total()).sum::<u64>();
        assert_eq!(created, absorbed, "at {}", sim.now());
        for p in &sim.ports {
            assert!(p.queue_len() <= p.buffer_pkts);
            if let Some(bat) = p.aqm.bat() {
                assert!(bat.flows.iter().all(|f| (0.0..=1.0).contains(&f.t)));
            }
        }
        for f in &sim.flows {
            if let FlowEnds::Tcp { sender, .. } = &f.ends {
                assert!(sender.snd_una <= sender.snd_nxt && sender.snd_nxt <= sender.snd_max);
                assert!(sender.cwnd >= 1.0);
            }
        }
    }
}

#[test]
fn bad_overrides_are_refused_with_their_path() {
    let text = scenario_text("pletka-clcc-tcp-udp.json");
    for (path, value, expect) in [
        ("links.bottleneck.a_to_b.aqm.clcc.r_ref", "0", "links.bottleneck.a_to_b.aqm.clcc.r_ref"),
        ("links.bottleneck.a_to_b.aqm.wq", "1", "links.bottleneck.a_to_b.aqm.wq"),
        ("flows.tcp.rwnd_pkts", "0", "flows.tcp.rwnd_pkts"),
        ("flows.tcp9.count", "1", "flows.tcp9"),
        ("model", "\"atm\"", "model"),
    ] {
        let opts = common::opts(Some(100.0), &[], &[(path, value)]);
        let errors =
            sim_core::runner::run_report(&text, &opts, &|| 0.0, &mut |_, _| {}).unwrap_err();
        assert_eq!(errors[0].path, expect, "{errors:?}");
    }
}
