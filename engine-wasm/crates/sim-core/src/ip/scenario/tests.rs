use super::*;
use crate::ip::aqm::AqmConfig;
use crate::scenario::FORMAT;
use serde_json::json;
use serde_json::Value;

fn minimal() -> Value {
    json!({
        "format": FORMAT, "version": 1, "model": "ip", "id": "t",
        "nodes": [
            {"id": "S", "kind": "host"}, {"id": "R1", "kind": "router"},
            {"id": "R2", "kind": "router"}, {"id": "D", "kind": "host"}
        ],
        "links": [
            {"id": "a", "a": "S", "b": "R1", "rate_mbps": 100, "delay_ms": 0.1},
            {"id": "b", "a": "R1", "b": "R2", "rate_mbps": 100, "delay_ms": 0.1,
             "a_to_b": {"aqm": {"kind": "bat", "clcc": {"r_ref": 0.5}}}},
            {"id": "c", "a": "R2", "b": "D", "rate_mbps": 100, "delay_ms": 0.1}
        ],
        "flows": [
            {"id": "tcp", "kind": "tcp", "count": 3, "path": ["S", "R1", "R2", "D"], "rtt_min_ms": 2, "rtt_max_ms": 6},
            {"id": "udp", "kind": "udp", "path": ["S", "R1", "R2", "D"], "rate_mbps": 50}
        ]
    })
}

fn errors_of(v: Value) -> Vec<String> {
    ip_scenario_from_value(&v).unwrap_err().iter().map(|e| e.to_string()).collect()
}

#[test]
fn groups_expand_with_evenly_spread_rtts() {
    let s = ip_scenario_from_value(&minimal()).unwrap();
    let ids: Vec<_> = s.flows.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["tcp-1", "tcp-2", "tcp-3", "udp"]);
    let rtts: Vec<_> = s.flows.iter().map(|f| f.rtt_ms).collect();
    assert_eq!(rtts, [Some(2.0), Some(4.0), Some(6.0), None]);
    assert!(matches!(s.links[1].ports[0].aqm, AqmConfig::Bat(_)));
    assert_eq!(s.links[0].ports[0].buffer_pkts, 10_000, "host port default");
    assert_eq!(s.links[1].ports[0].buffer_pkts, 300, "router port default");
    assert!((path_round_trip_ms(&s.links, &s.flows[0].path) - 0.6).abs() < 1e-12);
}

#[test]
fn every_error_has_a_path_and_unknown_keys_are_refused() {
    let mut v = minimal();
    v["flows"][0]["rwnd_pkts"] = json!(0);
    v["flows"][1]["cwnd"] = json!(3);
    v["links"][1]["a_to_b"]["aqm"]["w"] = json!(1.5);
    v["links"][1]["a_to_b"]["aqm"]["clcc"]["beta_small"] = json!(0.5);
    v["nodes"][1]["kind"] = json!("switch");
    let errs = errors_of(v);
    for want in [
        "flows.tcp.rwnd_pkts: 0",
        "flows.udp.cwnd: unknown key 'cwnd'",
        "links.b.a_to_b.aqm.w: 1.5",
        "links.b.a_to_b.aqm.clcc.beta_small: 0.5",
        "nodes.R1.kind: must be \"host\" or \"router\"",
    ] {
        assert!(errs.iter().any(|e| e.starts_with(want)), "{want} not in {errs:?}");
    }
}

#[test]
fn model_tag_and_overrides_are_checked() {
    let mut v = minimal();
    v["model"] = json!("cell");
    assert!(errors_of(v).iter().any(|e| e.starts_with("model: must be \"ip\"")));
    let mut v = minimal();
    v["links"][1]["a_to_b"]["aqm"]["grouping"] = json!("flow");
    v["links"][1]["a_to_b"]["aqm"]["flows"] =
        json!({"nope": {"f_min_mbps": 10}, "udp": {"f_min_mbps": -1}});
    let errs = errors_of(v);
    assert!(
        errs.iter().any(|e| e.starts_with("links.b.a_to_b.aqm.flows.nope: no flow")),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(|e| e.starts_with("links.b.a_to_b.aqm.flows.udp.f_min_mbps: -1")),
        "{errs:?}"
    );
    let mut v = minimal();
    v["links"][1]["a_to_b"]["aqm"]["flows"] = json!({"udp": {"f_min_mbps": 10}});
    assert!(errors_of(v).iter().any(|e| e.contains("need \"grouping\": \"flow\"")));
}

#[test]
fn variants_are_checked_with_the_packet_parser() {
    let mut v = minimal();
    v["variants"] = json!([
        {"id": "fast", "label": "UDP 80", "set": {"flows.udp.rate_mbps": 80}},
        {"id": "bad", "set": {"links.b.a_to_b.aqm.clcc.r_ref": 0}}
    ]);
    let errs = errors_of(v.clone());
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("variants.bad.set: makes links.b.a_to_b.aqm.clcc.r_ref: 0"),
        "{errs:?}"
    );
    v["variants"].as_array_mut().unwrap().pop();
    let s = ip_scenario_from_value(&v).unwrap();
    assert_eq!(s.meta.variants[0].label, "UDP 80");
}

#[test]
fn limits_bound_flows_and_run_length() {
    let mut v = minimal();
    v["flows"][0]["count"] = json!(1999);
    v["flows"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "more", "kind": "udp", "count": 5, "path": ["S", "R1", "R2", "D"]}));
    assert!(errors_of(v)[0].starts_with("flows: 2005 flows exceed the limit of 2000"));
    let mut v = minimal();
    v["run"] = json!({"until_ms": 700_000});
    assert!(errors_of(v).iter().any(|e| e.starts_with("run.until_ms: 700000 ms exceeds")));
}

#[test]
fn rtt_settings_must_be_coherent() {
    let mut v = minimal();
    v["flows"][0]["rtt_ms"] = json!(5);
    assert!(errors_of(v).iter().any(|e| e.contains("not both")));
    let mut v = minimal();
    v["flows"][0]["rtt_min_ms"] = json!(10);
    assert!(errors_of(v).iter().any(|e| e.contains("exceeds rtt_max_ms")));
    let mut v = minimal();
    v["flows"][1]["id"] = json!("tcp-2");
    assert!(errors_of(v).iter().any(|e| e.contains("also produced")));
}
