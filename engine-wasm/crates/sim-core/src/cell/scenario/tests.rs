use super::*;
use crate::scenario::FORMAT;
use serde_json::{json, Value};

fn minimal() -> Value {
    json!({
        "format": FORMAT, "version": 1, "id": "t",
        "nodes": [
            {"id": "S1", "kind": "host"}, {"id": "SW1", "kind": "switch"}, {"id": "D1", "kind": "host"}
        ],
        "links": [
            {"id": "l1", "a": "S1", "b": "SW1", "rate_mbps": 155.52, "length_km": 1},
            {"id": "l2", "a": "SW1", "b": "D1", "rate_mbps": 155.52, "delay_ms": 1}
        ],
        "vcs": [ {"id": "vc1", "path": ["S1", "SW1", "D1"]} ]
    })
}

fn errors_of(v: Value) -> Vec<String> {
    scenario_from_value(&v).unwrap_err().iter().map(|e| e.to_string()).collect()
}

#[test]
fn things_to_try_carry_a_checked_change_and_tags_are_read() {
    let mut v = minimal();
    v["variants"] = json!([{"id": "nrm8", "label": "Nrm 8", "set": {"defaults.vc.nrm": 8}}]);
    v["tags"] = json!(["RIF", "Two-source WAN"]);
    v["things_to_try"] = json!([
        "Just read this.",
        {"text": "Use Nrm 8.", "variant": "nrm8"},
        {"text": "RIF 1/512.", "set": {"vcs.vc1.rif": 0.001953125}}
    ]);
    let s = scenario_from_value(&v).unwrap();
    assert_eq!(s.meta.things_to_try, ["Just read this.", "Use Nrm 8.", "RIF 1/512."]);

    let mut bad_tag = v.clone();
    bad_tag["tags"] = json!([""]);
    let errs = errors_of(bad_tag);
    assert!(errs.iter().any(|e| e.starts_with("tags[0]: '' is not a tag")), "{errs:?}");

    v["things_to_try"] = json!([
        {"text": "No such variant.", "variant": "nope"},
        {"text": "A bad value.", "set": {"vcs.vc1.rif": 0.3}},
        {"text": "Both.", "variant": "nrm8", "set": {"vcs.vc1.rif": 1}},
        {"set": {"vcs.vc1.rif": 1}}
    ]);
    let errs = errors_of(v.clone());
    assert!(
        errs.iter().any(|e| e.starts_with("things_to_try[0].variant: no variant 'nope'")),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(
            |e| e.starts_with("things_to_try[1]: makes vcs.vc1.rif: 0.3 is not a power of two")
        ),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(|e| e == "things_to_try[2]: give a variant or a set, not both"),
        "{errs:?}"
    );
    assert!(errs.iter().any(|e| e.starts_with("things_to_try[3].text: is required")), "{errs:?}");

    // A broken base is reported once, not again under every thing to try.
    v["things_to_try"] = json!([{"text": "RIF 1.", "set": {"vcs.vc1.rif": 1}}]);
    v["vcs"][0]["nrm"] = json!("banana");
    let errs = errors_of(v);
    assert_eq!(errs.len(), 1, "{errs:?}");
}

#[test]
fn a_minimal_scenario_gets_table_1_defaults() {
    let s = scenario_from_value(&minimal()).unwrap();
    let p = &s.vcs[0].params;
    assert_eq!((p.nrm, p.mrm, p.rif, p.icr_mbps), (32, 2, 1.0 / 16.0, 155.52));
    assert_eq!(s.links[0].delay_ms, 0.005);
    // l1 a→b leaves host S1; l2 b→a leaves host D1; the others leave SW1.
    assert_eq!(s.links[0].ports[0].buffer_cells, 4_000_000);
    assert_eq!(s.links[1].ports[1].buffer_cells, 4_000_000);
    assert_eq!(s.links[0].ports[1].buffer_cells, 100_000);
    assert_eq!(s.links[1].ports[0].buffer_cells, 100_000);
}

#[test]
fn every_error_is_reported_with_its_path() {
    let mut v = minimal();
    v["vcs"][0]["rif"] = json!(0.3);
    v["vcs"][0]["nrm"] = json!(33);
    v["links"][1]["rate_mbps"] = json!(0);
    v["links"][0]["colour"] = json!("red");
    let errs = errors_of(v);
    assert!(
        errs.contains(&"vcs.vc1.rif: 0.3 is not a power of two between 1/32768 and 1".to_string()),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(|e| e.starts_with("vcs.vc1.nrm: 33 is not a power of two")),
        "{errs:?}"
    );
    assert!(errs.iter().any(|e| e.starts_with("links.l2.rate_mbps: 0")), "{errs:?}");
    assert!(
        errs.iter().any(|e| e.starts_with("links.l1.colour: unknown key 'colour'")),
        "{errs:?}"
    );
}

#[test]
fn bad_paths_are_refused() {
    let mut v = minimal();
    v["vcs"][0]["path"] = json!(["S1", "D1"]);
    assert!(errors_of(v)[0].contains("no link joins 'S1' and 'D1'"));
    let mut v = minimal();
    v["vcs"][0]["path"] = json!(["SW1", "D1"]);
    assert!(errors_of(v)[0].contains("must be a host"));
    let mut v = minimal();
    v["vcs"][0]["path"] = json!(["S1", "SW1", "S1"]);
    assert!(errors_of(v)[0].contains("appears twice"));
}

#[test]
fn duplicate_ids_and_wrong_types() {
    let mut v = minimal();
    v["nodes"][2]["id"] = json!("S1");
    assert!(errors_of(v).iter().any(|e| e.contains("duplicate id 'S1'")));
    let mut v = minimal();
    v["links"] = json!("none");
    assert!(errors_of(v).iter().any(|e| e == "links: expected an array, found \"none\""));
    assert!(errors_of(json!([1, 2]))[0].contains("expected an object"));
    assert!(parse_scenario("{ nope").unwrap_err()[0].message.starts_with("not valid JSON"));
}

#[test]
fn unknown_algorithm_and_version() {
    let mut v = minimal();
    v["defaults"] = json!({"switch_port": {"algorithm": {"kind": "magic"}}});
    v["version"] = json!(9);
    let errs = errors_of(v);
    assert!(
        errs.iter()
            .any(|e| e
                .starts_with("defaults.switch_port.algorithm.kind: unknown algorithm \"magic\"")),
        "{errs:?}"
    );
    assert!(errs.iter().any(|e| e.starts_with("version: 9 is newer")), "{errs:?}");
}

#[test]
fn mcr_above_pcr_is_impossible_and_pcr_above_the_link_warns() {
    let mut v = minimal();
    v["vcs"][0]["mcr_mbps"] = json!(200);
    assert!(errors_of(v).iter().any(|e| e.starts_with("vcs.vc1.mcr_mbps: MCR 200")));
    let mut v = minimal();
    v["vcs"][0]["pcr_mbps"] = json!(622.08);
    v["vcs"][0]["mcr_mbps"] = json!(1);
    let s = scenario_from_value(&v).unwrap();
    assert!(s.warnings[0].message.contains("negotiated down"));
}

/// The cell model's registry entries (params.rs).
mod registry {
    use super::super::params::{all, spec};
    use crate::scenario::registry::Scope::{Link, Vc};
    #[test]
    fn powers_of_two_are_checked_with_a_clear_message() {
        let rif = spec(Vc, "rif");
        assert_eq!(rif.check(0.0625), Ok(0.0625));
        assert_eq!(rif.check(1.0 / 32768.0), Ok(1.0 / 32768.0));
        assert_eq!(rif.check(0.3).unwrap_err(), "0.3 is not a power of two between 1/32768 and 1");
        assert!(rif.check(2.0).is_err());
        assert!(spec(Vc, "nrm").check(48.0).is_err());
    }

    #[test]
    fn cdf_takes_zero_or_a_power_of_two() {
        let cdf = spec(Vc, "cdf");
        assert!(cdf.check(0.0).is_ok());
        assert!(cdf.check(1.0 / 64.0).is_ok());
        assert!(cdf.check(1.0 / 128.0).is_err());
    }

    #[test]
    fn ranges_and_integers() {
        assert!(spec(Link, "rate_mbps").check(0.0).unwrap_err().contains("out of range"));
        assert!(spec(Vc, "tbe_cells").check(12.5).unwrap_err().contains("whole number"));
        assert!(spec(Vc, "adtf_s").check(f64::NAN).is_err());
    }

    #[test]
    fn every_default_passes_its_own_check() {
        for p in all().filter(|p| p.default.is_finite()) {
            assert!(p.check(p.default).is_ok(), "{} default {}", p.key, p.default);
        }
    }
}
