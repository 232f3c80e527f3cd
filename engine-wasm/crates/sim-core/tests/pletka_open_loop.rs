//! Pletka, Kind, Waldvogel & Mannel §III-C–D: what BAT does without CLCC.
//! Figure 3 (testbed): "The allocated TCP bandwidth increases with the number
//! of TCP sources" and "the TCP bandwidth share decreases with increasing
//! RTT". Table I / Figure 4: a D_UDP tuned by hand gives allocations that
//! depend on the traffic mix ("conformance often exceeds 5 %"), which is why
//! the paper closes the loop. Measured over 5–20 s of 20 s runs.

mod common;

/// (UDP, TCP) class throughputs of one variant, Mbit/s.
fn classes(file: &str, variant: &str) -> (f64, f64) {
    let r = common::report(file, &common::variant(variant, None, &[(5000.0, 20_000.0)], &[]));
    let class = |c: &str| r["windows"][0]["classes"][c]["throughput_mbps"].as_f64().unwrap();
    (class("udp"), class("tcp"))
}

#[test]
fn tcp_gets_more_with_more_connections_and_less_with_longer_rtts() {
    let tcp = |v| classes("pletka-bat-fmin-tcp.json", v).1;
    let (n10_20, n10_100) = (tcp("tcp-10-rtt-20"), tcp("tcp-10-rtt-100"));
    let (n50_20, n50_100) = (tcp("tcp-50-rtt-20"), tcp("tcp-50-rtt-100"));
    assert!(
        n50_20 > n10_20 + 5.0 && n50_100 > n10_100 + 5.0,
        "{n10_20} {n50_20} {n10_100} {n50_100}"
    );
    assert!(
        n10_100 < n10_20 - 5.0 && n50_100 < n50_20 - 5.0,
        "{n10_20} {n10_100} {n50_20} {n50_100}"
    );
    // Equation 1's coarse level: a 50 Mbit/s guarantee lifts TCP toward half the link.
    let guaranteed = tcp("fmin-50");
    assert!(guaranteed > n10_20 + 10.0 && guaranteed < 52.0, "{guaranteed} vs {n10_20}");
}

#[test]
fn one_hand_tuned_d_udp_gives_different_shares_in_different_mixes() {
    let shares: Vec<f64> = [0, 5, 10, 15, 20, 25, 30, 35]
        .iter()
        .map(|k| {
            let v = format!("table-i-{k}");
            let (udp, tcp) = classes("pletka-dudp-open-loop.json", &v);
            100.0 * udp / (udp + tcp)
        })
        .collect();
    let (lo, hi) = shares.iter().fold((f64::MAX, f64::MIN), |(l, h), &s| (l.min(s), h.max(s)));
    // The paper's threshold for conformance is 5 %; the spread is several times that.
    assert!(hi - lo > 10.0, "UDP shares {shares:?}");
    // Longer round-trip times leave UDP more, at the same D_UDP (rows 20–35 vs 0–15).
    for i in 0..4 {
        assert!(shares[i + 4] > shares[i], "{shares:?}");
    }
}

/// The BAT flow figures (T_i, offered and serviced Mbit/s) of one class.
fn aqm(r: &serde_json::Value, class: &str) -> (f64, f64, f64) {
    let a = &r["windows"][0]["aqm"][class];
    let f = |k: &str| a[k].as_f64().unwrap_or_else(|| panic!("no {k} for {class}"));
    (f("transmit_probability"), f("offered_mbps"), f("serviced_mbps"))
}

#[test]
fn a_50_mbit_guarantee_cannot_lift_tcp_above_what_it_offers() {
    // §III-A: the coarse level of equation 1 raises T_i while f_i ≤ f_min, up
    // to 1 — never a flow's rate above what it offers. Ten connections offer
    // under 50 Mbit/s and BAT admits nearly all of it.
    let window = [(5000.0, 20_000.0)];
    let ten =
        common::report("pletka-bat-fmin-tcp.json", &common::variant("fmin-50", None, &window, &[]));
    let (t, offered, serviced) = aqm(&ten, "tcp");
    assert!(offered < 48.0 && t > 0.99 && serviced > 0.99 * offered, "{t} {offered} {serviced}");
    // Fifty connections offer more than 50 Mbit/s, but the coarse level acts
    // on the 4-ms rate f_TCP(t), which swings above f_min in part of the
    // intervals, where the fine level's decrease pulls T_TCP below 1.
    let sets = [("flows.tcp.count", "50")];
    let fifty = common::report(
        "pletka-bat-fmin-tcp.json",
        &common::variant("fmin-50", None, &window, &sets),
    );
    let (t, offered, serviced) = aqm(&fifty, "tcp");
    assert!(offered > 50.0 && serviced < 50.0 && t < 0.98, "{t} {offered} {serviced}");
}

#[test]
fn equal_constants_on_the_table_i_mixes_leave_udp_about_twice_tcp_not_ten() {
    // §III-D: "With identical increase and decrease constants C_i and D_i,
    // non-responsive traffic is able to grab an almost 10 times higher
    // bandwidth share." Its own set-up — every link 100 Mbit/s, Table I's
    // mixes, D_UDP = D_TCP — gives about two: T_UDP never passes T_TCP (the
    // decrease D_i·O_i is deeper for the flow that offers more), so the ratio
    // stays under UDP's offered rate over TCP's.
    let sets =
        [("links.bottleneck.a_to_b.aqm.udp.d", "0.05"), ("links.udp_access.rate_mbps", "100")];
    for k in [0, 5, 10, 15, 20, 25, 30, 35] {
        let v = format!("table-i-{k}");
        let r = common::report(
            "pletka-dudp-open-loop.json",
            &common::variant(&v, None, &[(5000.0, 20_000.0)], &sets),
        );
        let ratio = r["windows"][0]["ratio"].as_f64().unwrap();
        let ((t_tcp, o_tcp, _), (t_udp, o_udp, _)) = (aqm(&r, "tcp"), aqm(&r, "udp"));
        assert!(t_udp < t_tcp, "{v}: T_UDP {t_udp} T_TCP {t_tcp}");
        assert!(ratio > 1.0 && ratio < 2.5 && ratio < o_udp / o_tcp, "{v}: ratio {ratio}");
    }
}
