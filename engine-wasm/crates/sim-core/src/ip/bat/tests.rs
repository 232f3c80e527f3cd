use super::*;

fn config() -> BatConfig {
    BatConfig {
        interval: SimTime::from_ms(4.0),
        w: 0.05,
        ewma_weight: 0.0625,
        excess_queue_pkts: 20,
        excess_on_drain: false,
        grouping: Grouping::Flow,
        tcp: BatFlowParams::defaults(),
        udp: BatFlowParams { c: 0.01, d: 0.05, f_min_mbps: 0.0, f_max_mbps: 100.0 },
        overrides: Vec::new(),
        clcc: None,
    }
}

fn member(flow: u32, responsive: bool) -> BatMember {
    BatMember { flow, id: format!("f{flow}"), group: format!("f{flow}"), responsive }
}

/// Offers `mbps` for one Δt on flow `flow` (bytes only; no drop decisions).
fn offer(bat: &mut Bat, flow: usize, mbps: f64) {
    let bytes = (mbps * 1e6 * 0.004 / 8.0) as u64;
    bat.flows[flow].offered_dt += bytes;
}

#[test]
fn congestion_decreases_in_proportion_to_the_offered_rate() {
    let mut bat =
        Bat::new(config(), 100e6, &[member(0, false), member(1, false)], 2, Rng::new(1, 1));
    offer(&mut bat, 0, 100.0);
    offer(&mut bat, 1, 50.0);
    bat.update(100); // queue above the threshold: B = 0
    assert!(!bat.excess);
    assert!((bat.flows[0].t - (1.0 - 0.05 * 1.0)).abs() < 1e-12);
    assert!((bat.flows[1].t - (1.0 - 0.05 * 0.5)).abs() < 1e-12);
}

#[test]
fn excess_bandwidth_increases_by_c_times_the_average_signal() {
    let mut bat = Bat::new(config(), 100e6, &[member(0, false)], 1, Rng::new(1, 1));
    bat.flows[0].t = 0.5;
    offer(&mut bat, 0, 60.0);
    bat.update(0);
    assert!(bat.excess);
    // B̄ stays 1 (it starts at 1): T = 0.5 + 0.01.
    assert!((bat.flows[0].t - 0.51).abs() < 1e-12);
}

#[test]
fn the_coarse_level_enforces_f_min_and_f_max() {
    let mut cfg = config();
    cfg.udp.f_min_mbps = 40.0;
    cfg.udp.f_max_mbps = 60.0;
    let mut bat = Bat::new(cfg, 100e6, &[member(0, false)], 1, Rng::new(1, 1));
    bat.flows[0].t = 0.3;
    offer(&mut bat, 0, 100.0); // f = 30 ≤ f_min
    bat.update(100);
    assert!((bat.flows[0].t - 0.35).abs() < 1e-12);
    bat.flows[0].t = 0.8;
    offer(&mut bat, 0, 100.0); // f = 80 > f_max
    bat.update(0);
    assert!((bat.flows[0].t - 0.76).abs() < 1e-12);
}

#[test]
fn equal_constants_converge_to_equal_serviced_rates() {
    // Two CBR flows at 100 and 40 Mbit/s on 100 Mbit/s: B = 1 while the
    // serviced sum is below the link, else 0. Max-min: 60 and 40.
    let mut cfg = config();
    cfg.udp.f_max_mbps = f64::INFINITY;
    let mut bat = Bat::new(cfg, 100e6, &[member(0, false), member(1, false)], 2, Rng::new(1, 1));
    let mut sums = [0.0; 2];
    for step in 0..20_000 {
        let serviced: f64 = [100.0, 40.0].iter().zip(&bat.flows).map(|(o, f)| o * f.t).sum();
        offer(&mut bat, 0, 100.0);
        offer(&mut bat, 1, 40.0);
        bat.update(if serviced < 100.0 { 0 } else { 100 });
        if step >= 10_000 {
            sums[0] += 100.0 * bat.flows[0].t;
            sums[1] += 40.0 * bat.flows[1].t;
        }
    }
    let (a, b) = (sums[0] / 10_000.0, sums[1] / 10_000.0);
    assert!((a - 60.0).abs() < 4.0 && (b - 40.0).abs() < 2.0, "{a} {b}");
}

#[test]
fn class_grouping_makes_two_bat_flows() {
    let mut cfg = config();
    cfg.grouping = Grouping::Class;
    let members: Vec<_> = (0..5).map(|i| member(i, i != 4)).collect();
    let bat = Bat::new(cfg, 100e6, &members, 6, Rng::new(1, 1));
    assert_eq!(bat.flows.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["tcp", "udp"]);
    assert_eq!(bat.member(3), Some(0));
    assert_eq!(bat.member(4), Some(1));
    assert_eq!(bat.member(5), None);
}

#[test]
fn a_draining_queue_signals_excess_bandwidth_when_asked_to() {
    let mut cfg = config();
    cfg.excess_on_drain = true;
    let mut bat = Bat::new(cfg, 100e6, &[member(0, false)], 1, Rng::new(1, 1));
    bat.update(100); // above the threshold and growing from 0: B = 0
    assert!(!bat.excess);
    bat.update(90); // still above the threshold but shorter: B = 1
    assert!(bat.excess);
    bat.update(95); // growing again: B = 0
    assert!(!bat.excess);
    bat.update(10); // below the threshold: B = 1
    assert!(bat.excess);
}

/// Why BAT alone cannot give UDP "an almost 10 times higher bandwidth
/// share" with identical constants (Pletka et al. §III-D): when both
/// classes have the same C, D, f_min = 0 and no f_max, and UDP offers at
/// least what TCP does, T_UDP ≤ T_TCP after every update of equation 1 —
/// the same increase C·B̄ for both, a decrease D·O_i at least as deep for
/// UDP. So a UDP packet is never more likely to be admitted than a TCP one.
#[test]
fn with_equal_constants_udp_is_never_admitted_more_often_than_tcp() {
    let mut cfg = config();
    cfg.grouping = Grouping::Class;
    cfg.udp = cfg.tcp;
    let members = [member(0, true), member(1, false)];
    let mut bat = Bat::new(cfg, 100e6, &members, 2, Rng::new(1, 1));
    let mut rng = Rng::new(7, 3);
    for _ in 0..200_000 {
        let udp = 1.0 + 199.0 * rng.next_f64();
        let tcp = udp * rng.next_f64();
        offer(&mut bat, 0, tcp);
        offer(&mut bat, 1, udp);
        bat.update((rng.next_u64() % 300) as u32);
        assert!(bat.flows[1].t <= bat.flows[0].t + 1e-12, "{:?}", bat.flows);
    }
}
