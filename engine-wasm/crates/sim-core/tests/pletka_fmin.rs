//! Pletka et al. §III-B, Figure 1 (Pletka et al.): two CBR flows of 100 Mbit/s on a
//! 100 Mbit/s BAT link, each with its own minimum guarantee f_min (0–50
//! Mbit/s) and f_max = 100 Mbit/s; the weighted fairness index of equation 2
//! over 20 s against max-min with those guarantees. "High fairness is achieved
//! as long as the f_i,min are close and decreases whenever they drift away
//! from each other."

mod common;

use serde_json::Value;

fn run(f1: f64, f2: f64) -> Value {
    let (a, b) = (f1.to_string(), f2.to_string());
    common::report(
        "pletka-fmin-fairness.json",
        &common::opts(
            None,
            &[],
            &[
                ("links.bottleneck.a_to_b.aqm.flows.cbr1.f_min_mbps", a.as_str()),
                ("links.bottleneck.a_to_b.aqm.flows.cbr2.f_min_mbps", b.as_str()),
            ],
        ),
    )
}

fn fairness(r: &Value) -> f64 {
    r["totals"]["fairness"].as_f64().unwrap()
}

#[test]
fn equal_guarantees_are_fair() {
    for f in [0.0, 25.0, 50.0] {
        let r = run(f, f);
        assert!(fairness(&r) > 0.99, "f_min {f}: {}", fairness(&r));
        let a = &r["totals"]["aqm"];
        for flow in ["cbr1", "cbr2"] {
            let x = a[flow]["serviced_mbps"].as_f64().unwrap();
            assert!((x - 50.0).abs() < 3.0, "f_min {f}: {flow} {x}");
        }
    }
}

#[test]
fn fairness_falls_as_the_guarantees_drift_apart() {
    let apart: Vec<f64> =
        [0.0, 10.0, 25.0, 50.0].iter().map(|&f2| fairness(&run(0.0, f2))).collect();
    for pair in apart.windows(2) {
        assert!(pair[1] < pair[0], "{apart:?}");
    }
    assert!(apart[3] < 0.95, "{apart:?}");
    // Against the reference 25 / 75 (f_min plus half the rest), BAT shares nearer 50/50.
    let r = run(0.0, 50.0);
    assert!((r["totals"]["aqm"]["cbr1"]["reference_mbps"].as_f64().unwrap() - 25.0).abs() < 0.1);
    assert!((r["totals"]["aqm"]["cbr2"]["reference_mbps"].as_f64().unwrap() - 75.0).abs() < 0.1);
    let mirrored = fairness(&run(50.0, 0.0));
    assert!((mirrored - apart[3]).abs() < 0.02, "{mirrored} vs {}", apart[3]);
}
