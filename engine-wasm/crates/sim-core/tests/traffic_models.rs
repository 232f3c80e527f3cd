//! The ABR traffic models and CBR/VBR background, each observed in
//! a small run, and `--set` reaching every parameter of the registry.

mod common;

use serde_json::{json, Value};
use sim_core::cell::scenario::params as registry;
use sim_core::runner::{run_report, RunOptions};
use sim_core::scenario::registry::{Kind, Scope};

/// S → SW → D over 155.52 Mbit/s links of 100 km, ERICA at 90 %, one VC with `traffic`.
fn one_vc(traffic: Value, extra: Value) -> Value {
    let mut s = json!({
        "format": "abr-lab/scenario", "version": 1, "id": "t",
        "run": {"until_ms": 100, "sample_interval_ms": 1},
        "defaults": {"vc": {"icr_mbps": 50, "rif": 1},
            "switch_port": {"algorithm": {"kind": "erica", "target_utilization": 0.9, "interval_ms": 1, "forward_ccr": true}}},
        "nodes": [{"id": "S", "kind": "host"}, {"id": "SW", "kind": "switch"}, {"id": "D", "kind": "host"}],
        "links": [{"id": "a", "a": "S", "b": "SW", "rate_mbps": 155.52, "length_km": 100},
                  {"id": "b", "a": "SW", "b": "D", "rate_mbps": 155.52, "length_km": 100}],
        "vcs": [{"id": "vc1", "path": ["S", "SW", "D"], "traffic": traffic}],
    });
    if let (Some(obj), Some(more)) = (s.as_object_mut(), extra.as_object()) {
        for (k, v) in more {
            obj.insert(k.clone(), v.clone());
        }
    }
    s
}

fn run(s: &Value, windows: &[(f64, f64)]) -> Value {
    let opts = RunOptions { windows: windows.to_vec(), ..Default::default() };
    run_report(&s.to_string(), &opts, &|| 0.0, &mut |_, _| {}).unwrap_or_else(|e| panic!("{e:?}"))
}

fn thr(r: &Value, w: usize) -> f64 {
    common::vc_stat(r, w, "vc1", "throughput_mbps")
}

#[test]
fn on_off_sends_only_in_bursts() {
    // On 10 ms, off 10 ms from 0; cells reach D 1 ms after leaving S.
    let r = run(
        &one_vc(json!({"kind": "on_off", "on_ms": 10, "off_ms": 10}), json!({})),
        &[(41.5, 50.5), (51.5, 60.5)],
    );
    assert!(thr(&r, 0) > 100.0, "on: {}", thr(&r, 0));
    assert_eq!(r["windows"][1]["vcs"]["vc1"]["cells_received"], 0, "off");
}

#[test]
fn a_bottlenecked_source_keeps_its_acr_and_bursts_when_released() {
    let traffic = json!({"kind": "bottlenecked", "rate_mbps": 10, "for_ms": 50});
    let r = run(&one_vc(traffic, json!({})), &[(20.0, 50.0), (60.0, 100.0)]);
    assert!((thr(&r, 0) - 10.0).abs() < 1.0, "capped: {}", thr(&r, 0));
    // ACR retention: the source tells the network it may send far more than it does.
    assert!(common::vc_stat(&r, 0, "vc1", "acr_mbps") > 100.0);
    assert!(thr(&r, 1) > 120.0, "released: {}", thr(&r, 1));
}

#[test]
fn request_response_alternates_messages() {
    let traffic = json!({"kind": "request_response", "request_cells": 16, "response_cells": 1024});
    let r = run(&one_vc(traffic, json!({})), &[]);
    let done = |id: &str| r["totals"]["vcs"][id]["messages_done"].as_u64().unwrap();
    // Each exchange: a 2 ms round trip plus the response at up to 140 Mbit/s.
    assert!(done("vc1") >= 10, "requests completed: {}", done("vc1"));
    assert!(
        done("vc1:rev") + 1 >= done("vc1") && done("vc1:rev") <= done("vc1"),
        "{} / {}",
        done("vc1"),
        done("vc1:rev")
    );
    let received = r["totals"]["vcs"]["vc1:rev"]["cells_received"].as_u64().unwrap();
    assert!(received >= 1024 * done("vc1:rev"));
}

#[test]
fn background_has_strict_priority_and_erica_gives_abr_the_rest() {
    let bg = json!({"background": [{"id": "cbr", "kind": "cbr", "path": ["S", "SW", "D"], "rate_mbps": 77.76}]});
    let r = run(&one_vc(json!({"kind": "persistent"}), bg), &[(50.0, 100.0)]);
    // ABR capacity = 0.9 × 155.52 − 77.76 = 62.2 Mbit/s.
    let acr = common::vc_stat(&r, 0, "vc1", "acr_mbps");
    assert!((acr - 62.2).abs() < 3.0, "ABR gets {acr}");
    assert!((common::vc_stat(&r, 0, "vc1", "maxmin_mbps") - 62.2).abs() < 0.1);
    assert_eq!(common::total_lost(&r), 0);
}

#[test]
fn a_vbr_square_wave_turns_on_and_off() {
    let bg = json!({"background": [{"id": "vbr", "kind": "vbr", "path": ["S", "SW", "D"], "rate_mbps": 100, "on_ms": 20, "off_ms": 20, "phase_ms": 2}]});
    let r = run(&one_vc(json!({"kind": "persistent"}), bg), &[(45.0, 60.0), (65.0, 80.0)]);
    // The oracle's reference follows the wave: 140 − 100 Mbit/s while on, 140 while off.
    let share = |w| common::vc_stat(&r, w, "vc1", "maxmin_mbps");
    assert!(
        (share(0) - 39.97).abs() < 0.1 && (share(1) - 139.97).abs() < 0.1,
        "{} {}",
        share(0),
        share(1)
    );
}

#[test]
fn set_reaches_every_vc_and_traffic_parameter() {
    let base = one_vc(json!({"kind": "persistent"}), json!({}));
    for spec in registry::all().filter(|p| p.scope == Scope::Vc) {
        let value = match spec.kind {
            Kind::Bool => "true".to_string(),
            _ if spec.default.is_finite() && spec.default > 0.0 => {
                format!("{}", spec.max.min(spec.default * 2.0))
            }
            _ => format!("{}", spec.min.max(1.0).min(spec.max)),
        };
        let value = if spec.kind == Kind::PowerOfTwo { format!("{}", spec.max) } else { value };
        let opts = RunOptions {
            until_ms: Some(5.0),
            sets: vec![(format!("vcs.vc1.{}", spec.key), value.clone())],
            ..Default::default()
        };
        run_report(&base.to_string(), &opts, &|| 0.0, &mut |_, _| {})
            .unwrap_or_else(|e| panic!("--set vcs.vc1.{}={value}: {e:?}", spec.key));
    }
    for (key, value) in [
        ("traffic.stop_ms", "50"),
        ("traffic.start_ms", "1"),
        ("startup", "\"rm\""),
        ("bidirectional", "true"),
    ] {
        let opts = RunOptions {
            until_ms: Some(5.0),
            sets: vec![(format!("vcs.vc1.{key}"), value.into())],
            ..Default::default()
        };
        run_report(&base.to_string(), &opts, &|| 0.0, &mut |_, _| {})
            .unwrap_or_else(|e| panic!("{key}: {e:?}"));
    }
    // A wrong one names its path.
    let opts = RunOptions { sets: vec![("vcs.vc1.nrm".into(), "48".into())], ..Default::default() };
    let errors = run_report(&base.to_string(), &opts, &|| 0.0, &mut |_, _| {}).unwrap_err();
    assert_eq!(errors[0].path, "vcs.vc1.nrm");
}
