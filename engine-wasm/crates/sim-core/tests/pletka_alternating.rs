//! Pletka, Kind, Waldvogel & Mannel §V, Figure 7: CLCC with 100 greedy TCP
//! connections and a UDP flow alternating between 50 and 120 Mbit/s every
//! 5 s, r_ref = 0.4. "Fair bandwidth allocation is rapidly recovered even
//! after large changes in the offered UDP rate." Windows start at 10 s (after
//! TCP start-up and CLCC's first approach) and cover six rate changes.

mod common;

use serde_json::Value;

const R_REF: f64 = 0.4;

fn phases() -> Vec<(f64, f64)> {
    let mut w: Vec<(f64, f64)> =
        (2..8).map(|k| (k as f64 * 5000.0, (k + 1) as f64 * 5000.0)).collect();
    w.push((10_000.0, 40_000.0));
    w
}

fn report(clcc: &str) -> Value {
    common::report(
        "pletka-clcc-alternating.json",
        &common::opts(None, &phases(), &[("links.bottleneck.a_to_b.aqm.clcc.enabled", clcc)]),
    )
}

fn ratio(r: &Value, w: usize) -> f64 {
    r["windows"][w]["ratio"].as_f64().unwrap()
}

#[test]
fn clcc_keeps_the_ratio_near_r_ref_through_every_change() {
    let r = report("true");
    let all = phases().len() - 1;
    let long_run = ratio(&r, all);
    assert!((long_run - R_REF).abs() < 0.15 * R_REF, "ratio over 10–40 s {long_run}");
    assert!(r["windows"][all]["fairness"].as_f64().unwrap() > 0.98);
    for w in 0..all {
        let x = ratio(&r, w);
        assert!((x - R_REF).abs() < 0.3 * R_REF, "phase {w}: ratio {x}");
    }
    // UDP really alternates at the router: more offered in the 120 Mbit/s phases.
    let offered = |w: usize| r["windows"][w]["aqm"]["udp"]["offered_mbps"].as_f64().unwrap();
    assert!(
        (offered(0) - 50.0).abs() < 1.0 && (offered(1) - 120.0).abs() < 1.0,
        "{} {}",
        offered(0),
        offered(1)
    );
}

#[test]
fn without_clcc_the_ratio_stays_far_above_r_ref_in_every_phase() {
    let r = report("false");
    for w in 0..phases().len() - 1 {
        // About 1 in the 50 Mbit/s phases, 1.6–1.8 in the 120 Mbit/s ones.
        let floor = if w % 2 == 0 { 2.0 } else { 3.5 } * R_REF;
        assert!(ratio(&r, w) > floor, "window {w}: ratio {}", ratio(&r, w));
    }
}
