//! `validate_edit` gives the verdict of `validate_scenario` for a one-path change of a valid
//! scenario: every library scenario of the cell model, every live VC parameter, values inside,
//! at and outside the registry's range and of the wrong type, on one VC and on `defaults.vc`.

use serde_json::Value;
use sim_core::scenario::set::apply_set;
use sim_wasm::{validate_edit, validate_scenario};

fn verdict_ok(text: &str) -> bool {
    serde_json::from_str::<Value>(text).expect("verdict JSON")["ok"] == Value::Bool(true)
}

#[test]
fn the_narrow_check_agrees_with_validating_the_whole_scenario() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scenarios");
    let registry: Value = serde_json::from_str(&sim_wasm::param_registry()).unwrap();
    let live_vc: Vec<(String, f64, f64)> = registry
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["scope"] == "vc" && p["live"] == true)
        .map(|p| {
            let key = p["key"].as_str().unwrap().to_string();
            (key, p["min"].as_f64().unwrap(), p["max"].as_f64().unwrap())
        })
        .collect();
    assert!(live_vc.iter().any(|(k, ..)| k == "rif"));
    let mut compared = 0;
    let mut refused = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        // The big scenario is slow to validate whole many times; the others cover the same code.
        if doc.get("model").is_some() || doc["vcs"].as_array().is_some_and(|v| v.len() > 50) {
            continue;
        }
        assert!(verdict_ok(&validate_scenario(&text)), "{} is valid", path.display());
        let first = doc["vcs"][0]["id"].as_str().unwrap().to_string();
        for (key, min, max) in &live_vc {
            let values = [
                serde_json::json!(min),
                serde_json::json!(max),
                serde_json::json!((min + max) / 2.0),
                serde_json::json!(min / 3.0),
                serde_json::json!(max * 2.0 + 1.0),
                serde_json::json!(-1),
                serde_json::json!("fast"),
                serde_json::json!(0.3),
            ];
            for target in [format!("vcs.{first}.{key}"), format!("defaults.vc.{key}")] {
                for value in &values {
                    let mut edited = doc.clone();
                    if apply_set(&mut edited, &target, &value.to_string()).is_err() {
                        continue;
                    }
                    let json = edited.to_string();
                    let whole = verdict_ok(&validate_scenario(&json));
                    let narrow = verdict_ok(&validate_edit(&json, &target));
                    assert_eq!(
                        narrow,
                        whole,
                        "{}: {target} = {value}: validate_edit says {}, validate_scenario {}",
                        path.display(),
                        validate_edit(&json, &target),
                        validate_scenario(&json)
                    );
                    compared += 1;
                    refused += usize::from(!whole);
                }
            }
        }
    }
    assert!(compared > 1000, "{compared} edits compared");
    assert!(refused > 100, "{refused} of them refused");
}
