//! Fuzzing the scenario parser, validator and builder with replayable seeds:
//! arbitrary JSON, and every library scenario with one value replaced by
//! something absurd. Nothing may panic; every rejection names a path and a
//! reason; whatever is accepted must build and run a little. `FUZZ_CASES`
//! sets the count (default 10,000 of each kind; `FUZZ_CASES=200000` for a
//! long run).

use serde_json::{json, Map, Value};
use sim_core::kernel::Rng;
use sim_core::runner::{run_report, RunOptions};
use sim_core::time::SimTime;
use sim_core::Simulation;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn cases() -> u64 {
    std::env::var("FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

const KEYS: &[&str] = &[
    "format",
    "version",
    "id",
    "nodes",
    "links",
    "vcs",
    "kind",
    "path",
    "a",
    "b",
    "rate_mbps",
    "length_km",
    "delay_ms",
    "traffic",
    "start_ms",
    "stop_ms",
    "rif",
    "nrm",
    "pcr_mbps",
    "defaults",
    "switch_port",
    "algorithm",
    "run",
    "until_ms",
    "background",
    "variants",
    "set",
    "bidirectional",
    "x",
    "y",
    "buffer_cells",
    "on_ms",
    "off_ms",
    "startup",
];

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    match rng.next_u64() % if depth > 3 { 6 } else { 8 } {
        0 => Value::Null,
        1 => json!(rng.next_u64().is_multiple_of(2)),
        2 => json!((rng.next_f64() - 0.5) * 10f64.powi((rng.next_u64() % 16) as i32)),
        3 => json!(rng.next_u64() % 1000),
        4 => json!(KEYS[(rng.next_u64() % KEYS.len() as u64) as usize]),
        5 => json!(
            ["host", "switch", "erica", "none", "persistent", "SW1", "S1", "abr-lab/scenario"]
                [(rng.next_u64() % 8) as usize]
        ),
        6 => Value::Array((0..rng.next_u64() % 5).map(|_| random_value(rng, depth + 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.next_u64() % 6 {
                m.insert(
                    KEYS[(rng.next_u64() % KEYS.len() as u64) as usize].to_string(),
                    random_value(rng, depth + 1),
                );
            }
            Value::Object(m)
        }
    }
}

fn absurd(rng: &mut Rng) -> Value {
    let huge: Vec<Value> = (0..5000).map(|i| json!(i)).collect();
    let options = [
        json!(-1),
        json!(0),
        json!(-1e300),
        json!(1e12),
        json!(1e308),
        json!(u64::MAX),
        json!(0.3),
        json!(""),
        json!("x".repeat(10_000)),
        json!([]),
        json!({}),
        json!(null),
        json!(true),
        json!("NaN"),
        Value::Array(huge),
        json!("../../etc/passwd"),
        json!("<script>alert(1)</script>"),
        json!(["S1", "S1"]),
        json!({"kind": "magic"}),
    ];
    options[(rng.next_u64() % options.len() as u64) as usize].clone()
}

/// Every (path, value) leaf and inner node of a JSON tree.
fn paths(v: &Value, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            m.iter().for_each(|(k, c)| paths(c, [prefix.clone(), vec![k.clone()]].concat(), out))
        }
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, c)| paths(c, [prefix.clone(), vec![i.to_string()]].concat(), out)),
        _ => {}
    }
}

fn replace(v: &mut Value, path: &[String], with: Value) {
    if path.is_empty() {
        *v = with;
        return;
    }
    match v {
        Value::Object(m) => {
            if let Some(c) = m.get_mut(&path[0]) {
                replace(c, &path[1..], with)
            }
        }
        Value::Array(a) => {
            if let Some(c) = path[0].parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                replace(c, &path[1..], with)
            }
        }
        _ => {}
    }
}

/// Parses, and when accepted builds and runs a few simulated milliseconds
/// within an event budget. Returns whether it was accepted.
fn exercise(text: &str, case: &str) -> bool {
    let outcome = catch_unwind(AssertUnwindSafe(|| match Simulation::from_json(text) {
        Ok(mut sim) => {
            sim.run_until(SimTime::from_ms(2.0), 20_000);
            true
        }
        Err(errors) => {
            assert!(!errors.is_empty(), "{case}: rejected without a reason");
            for e in &errors {
                assert!(
                    !e.message.is_empty(),
                    "{case}: an error without a message at '{}'",
                    e.path
                );
                assert!(
                    !e.path.is_empty()
                        || e.message.starts_with("not valid JSON")
                        || e.message.contains("not an object")
                        || e.message.contains("expected an object"),
                    "{case}: an error without a path: {}",
                    e.message
                );
            }
            false
        }
    }));
    outcome.unwrap_or_else(|_| {
        panic!(
            "{case}: the engine panicked on input:\n{}",
            text.chars().take(2000).collect::<String>()
        )
    })
}

#[test]
fn arbitrary_json_never_panics_and_every_rejection_names_a_path() {
    let mut accepted = 0;
    for seed in 0..cases() {
        let mut rng = Rng::new(seed, 77);
        let mut v = random_value(&mut rng, 0);
        // Bias towards the real shape so that validation goes deep.
        if seed % 2 == 0 {
            let mut m = v.as_object().cloned().unwrap_or_default();
            m.insert("format".into(), json!("abr-lab/scenario"));
            m.insert("version".into(), json!(1));
            v = Value::Object(m);
        }
        accepted += exercise(&v.to_string(), &format!("arbitrary case {seed}")) as u64;
    }
    // Garbled text too: truncations and byte flips of a real file.
    let text = std::fs::read_to_string(format!(
        "{}/../../../scenarios/two-source-wan.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    for cut in (0..text.len()).step_by(7).filter(|&c| text.is_char_boundary(c)) {
        exercise(&text[..cut], &format!("truncated at {cut}"));
    }
    eprintln!("{} arbitrary documents, {accepted} accepted", cases());
}

#[test]
fn library_scenarios_with_one_absurd_value_are_refused_or_run() {
    let dir = format!("{}/../../../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let bases: Vec<(String, Value)> = files
        .iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap(),
            )
        })
        .collect();
    let (mut refused, mut ran) = (0u64, 0u64);
    for seed in 0..cases() {
        let mut rng = Rng::new(seed, 99);
        let (name, base) = &bases[(seed % bases.len() as u64) as usize];
        let mut all = vec![];
        paths(base, vec![], &mut all);
        let path = &all[(rng.next_u64() % all.len() as u64) as usize];
        let mut v = base.clone();
        replace(&mut v, path, absurd(&mut rng));
        if exercise(
            &v.to_string(),
            &format!("{name} with {} replaced (case {seed})", path.join(".")),
        ) {
            ran += 1;
        } else {
            refused += 1;
        }
    }
    eprintln!(
        "{} mutated scenarios: {refused} refused with a path, {ran} accepted and ran",
        cases()
    );
}

#[test]
fn overrides_of_absurd_values_through_the_runner_are_refused_cleanly() {
    let text = std::fs::read_to_string(format!(
        "{}/../../../scenarios/two-source-wan.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    for (path, value) in [
        ("links.l3.rate_mbps", "1000000"),
        ("links.l3.rate_mbps", "-5"),
        ("run.until_ms", "36000001"),
        ("vcs.vc1.path", "[\"S1\",\"SW1\",\"S1\"]"),
        ("vcs.vc1.path", "[\"S1\",\"D1\"]"),
        ("nodes.0.id", "\"SW1\""),
        ("defaults.switch_port.algorithm.kind", "\"quantum\""),
        ("vcs.vc1.nrm", "1e12"),
        ("vcs", "{}"),
    ] {
        let opts = RunOptions {
            until_ms: Some(1.0),
            sets: vec![(path.into(), value.into())],
            ..Default::default()
        };
        let errors = run_report(&text, &opts, &|| 0.0, &mut |_, _| {})
            .expect_err(&format!("{path}={value} should be refused"));
        assert!(errors.iter().all(|e| !e.path.is_empty()), "{path}={value}: {errors:?}");
    }
}

#[test]
fn limits_refuse_what_would_exhaust_a_tab_and_can_be_raised() {
    let text = std::fs::read_to_string(format!(
        "{}/../../../scenarios/two-source-wan.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let base: Value = serde_json::from_str(&text).unwrap();
    // A 10-hour run.
    let opts = RunOptions { until_ms: Some(36_000_000.0), ..Default::default() };
    let errors = run_report(&text, &opts, &|| 0.0, &mut |_, _| {}).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.path == "run.until_ms" && e.message.contains("limits.max_until_ms")),
        "{errors:?}"
    );
    // 10,000 VCs are refused before anything walks them.
    let mut many = base.clone();
    let vc = many["vcs"][0].clone();
    many["vcs"] = Value::Array(
        (0..10_000)
            .map(|i| {
                let mut v = vc.clone();
                v["id"] = json!(format!("v{i}"));
                v
            })
            .collect(),
    );
    let errors = Simulation::from_json(&many.to_string()).err().unwrap();
    assert_eq!(errors[0].path, "vcs");
    assert!(errors[0].message.contains("limit of 2000"));
    // A 1 Tbit/s link is out of the registry's range.
    let opts = RunOptions {
        sets: vec![("links.l3.rate_mbps".into(), "1000000".into())],
        ..Default::default()
    };
    assert_eq!(
        run_report(&text, &opts, &|| 0.0, &mut |_, _| {}).unwrap_err()[0].path,
        "links.l3.rate_mbps"
    );
    // Raised limits let a long run through validation.
    let mut limits = sim_core::scenario::Limits::default();
    limits.set("max_until_ms", 4e7).unwrap();
    limits.set("max_cell_slots", 1e12).unwrap();
    let mut long = base.clone();
    long["run"]["until_ms"] = json!(36_000_000);
    assert!(Simulation::from_json_with(&long.to_string(), &limits).is_ok());
    assert!(limits.set("max_bananas", 1.0).is_err());
}
