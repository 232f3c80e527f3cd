//! Every library file is valid as it stands, with tags a person would look it
//! up by and a change behind every thing to try that names one (the engine
//! applies and validates each change on load; see scenarios/README.md).

mod common;

use serde_json::Value;
use sim_core::model::Model;

#[test]
fn every_library_file_validates_with_its_things_to_try() {
    let files = common::library_texts();
    assert!(files.len() >= 20, "{} files", files.len());
    for (name, text) in &files {
        if let Err(errors) = Model::validate(text) {
            panic!("{name}: {errors:?}");
        }
        let v: Value = serde_json::from_str(text).unwrap();
        let tags = v["tags"].as_array().unwrap_or_else(|| panic!("{name}: no tags"));
        assert!(!tags.is_empty(), "{name}: no tags");
        let things = v["things_to_try"].as_array().unwrap();
        let with_change =
            things.iter().filter(|t| t.get("variant").is_some() || t.get("set").is_some()).count();
        assert!(
            with_change * 2 >= things.len(),
            "{name}: {with_change} of {} carry a change",
            things.len()
        );
        assert!(!text.to_lowercase().contains("seed 00"), "{name} cites a paper as a seed");
    }
}
