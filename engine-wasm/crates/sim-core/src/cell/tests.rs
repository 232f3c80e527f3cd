//! The cell model's parts together: the queue disciplines a scenario may
//! name are the ones the ports have, and the worked example of "Add a switch
//! algorithm" in docs/architecture.md (`switch_alg/half_rate.rs`) reaches the
//! scenario reader's menus and runs a library scenario.

use crate::cell::net::Discipline;
use crate::cell::scenario::{choices_json, scenario_from_value, QUEUE_DISCIPLINES};
use crate::cell::Simulation;
use crate::time::SimTime;
use serde_json::json;

#[test]
fn the_recipe_s_algorithm_is_in_the_kind_menu() {
    let choices = choices_json();
    assert!(choices["algorithms"].as_array().unwrap().contains(&json!("half_rate")));
}

#[test]
fn a_scenario_runs_with_it_and_its_source_is_held_to_half_the_link() {
    let mut text: serde_json::Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../scenarios/two-source-wan.json"
    )))
    .unwrap();
    // Its suggestions, variants and claims are about ERICA's knobs: they go with ERICA.
    for erica_only in ["things_to_try", "variants", "claims"] {
        text.as_object_mut().unwrap().remove(erica_only);
    }
    text["defaults"]["switch_port"]["algorithm"] = json!({"kind": "half_rate"});
    let mut model = Simulation::build(&scenario_from_value(&text).expect("the scenario builds"));
    model.run_until(SimTime::from_ms(60.0), u64::MAX);
    // Frame: [now_ms, ACR of vc1, ACR of vc2 (not started), queues…], in Mbit/s. After
    // a round trip (30 ms over 3,000 km) vc1 has had the switches' half of 155.52 Mbit/s.
    let acr = model.frame()[1];
    assert!(acr > 0.0 && acr <= 155.52 / 2.0 + 1e-9, "vc1's ACR {acr} Mbit/s");
}

#[test]
fn a_scenario_names_the_disciplines_the_ports_have() {
    let names: Vec<&str> = Discipline::ALL.iter().map(|d| d.as_str()).collect();
    assert_eq!(names, QUEUE_DISCIPLINES);
}
