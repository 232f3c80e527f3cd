//! The library as a reproduction record (scenarios/README.md, "Paper claims"): every paper claim of every
//! scenario file is run and judged, exactly as `abrsim check` does, and no
//! claim expected to hold may fail. Claims marked `expected: false` are
//! reported (with `now_holds` when the model has since caught up) but do not
//! fail the test. Beside it: the figures a claim reads equal the runner's
//! report over the same window, and a broken claim is refused by path.

mod common;

use serde_json::{json, Value};
use sim_core::claims::{self, Status, Tracker};
use sim_core::runner::{run_report, RunOptions};
use sim_core::scenario::Limits;

/// Files without a claim, and why: a number whose claim a single run cannot express.
const WITHOUT_CLAIMS: &[(&str, &str)] = &[
    (
        "pletka-dudp-open-loop.json",
        "Pletka et al. §III-D's 'conformance often exceeds 5 %' compares the UDP shares of several \
         Table I mixes (variants); a claim reads one run",
    ),
    (
        "fahmy-trm.json",
        "Fahmy et al. §4.2.2 (Figure 6) states no number for the Trm experiment: 'capacity may be \
         unused for a long time' and 'a faster response' only",
    ),
];

#[test]
fn every_claim_expected_to_hold_holds() {
    let mut rows = common::on_library_files(|file, text| {
        let (fc, outcomes) = claims::check_file(text, &Limits::default(), &|| 0.0)
            .unwrap_or_else(|e| panic!("{file}: {}", sim_core::scenario::format_errors(&e)));
        let exempt = WITHOUT_CLAIMS.iter().any(|(f, _)| *f == file);
        assert!(exempt || !fc.claims.is_empty(), "{file} states no paper claim");
        fc.claims.into_iter().zip(outcomes).map(|(c, o)| (file.to_string(), c, o)).collect()
    });
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let count = |s: Status| rows.iter().filter(|r| r.2.status == s).count();
    for (file, c, o) in &rows {
        println!(
            "{file:32} {:28} {:24} {:>12} {}",
            c.id,
            c.paper_text(),
            o.value.map_or("—".into(), claims::fmt_num),
            o.status.as_str()
        );
    }
    println!(
        "{} claims: {} held, {} expected to fail, {} failing, {} now hold",
        rows.len(),
        count(Status::Held),
        count(Status::ExpectedFail),
        count(Status::Failing),
        count(Status::NowHolds)
    );
    assert!(rows.len() > 60, "the library states only {} claims", rows.len());
    let failing: Vec<String> = rows
        .iter()
        .filter(|r| r.2.status == Status::Failing)
        .map(|(f, c, o)| {
            format!(
                "{f} {}: paper {}, this run {}",
                c.id,
                c.paper_text(),
                o.value.map_or("—".into(), claims::fmt_num)
            )
        })
        .collect();
    assert!(failing.is_empty(), "claims expected to hold fail:\n{}", failing.join("\n"));
    // Every expected failure says why.
    for (f, c, _) in &rows {
        assert!(c.expected || c.reason.as_deref().is_some_and(|r| r.len() > 20), "{f} {}", c.id);
    }
}

/// A claim list for `figures`, each read over `window`.
fn claims_for(figures: &[&str], window: [f64; 2]) -> Vec<claims::Claim> {
    let list: Vec<Value> = figures
        .iter()
        .enumerate()
        .map(|(i, f)| {
            json!({"id": format!("c{i}"), "quote": "q", "metric": format!("window.{f}"),
                   "window": window, "paper": 0, "compare": "at_least", "tolerance": {"abs": 1e12}})
        })
        .collect();
    let mut errors = Vec::new();
    let out = claims::read_claims(Some(&json!(list)), &[], None, &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    out
}

/// Runs `file` with one report window and a tracker fed the same rows; returns
/// (report window, tracker values).
fn side_by_side(file: &str, figures: &[&str], window: [f64; 2]) -> (Value, Vec<Option<f64>>) {
    let list = claims_for(figures, window);
    let text = common::scenario_text(file);
    let sample_ms = serde_json::from_str::<Value>(&text).unwrap()["run"]["sample_interval_ms"]
        .as_f64()
        .unwrap_or(0.5);
    let opts = RunOptions { windows: vec![(window[0], window[1])], ..Default::default() };
    let mut tracker: Option<Tracker> = None;
    let report = run_report(&text, &opts, &|| 0.0, &mut |src, rows| {
        tracker
            .get_or_insert_with(|| Tracker::new(&list, src.columns()).expect("figures resolve"))
            .feed(rows, sample_ms);
    })
    .unwrap();
    let until = report["until_ms"].as_f64().unwrap();
    let t = tracker.unwrap();
    let values = t.evaluate(sample_ms, until, until).into_iter().map(|o| o.value).collect();
    (report["windows"][0].clone(), values)
}

/// Every figure the tracker computes equals the report's (to the report's rounding).
fn assert_same(file: &str, figures: &[&str], window: [f64; 2]) {
    let (w, values) = side_by_side(file, figures, window);
    for (f, v) in figures.iter().zip(values) {
        let expected = w.pointer(&format!("/{}", f.replace('.', "/"))).and_then(Value::as_f64);
        let (e, v) = (expected.unwrap_or_else(|| panic!("{f} in {w}")), v.expect(f));
        assert!((v - e).abs() <= 1e-3 * e.abs().max(1.0), "{file} {f}: tracker {v}, report {e}");
    }
}

#[test]
fn cell_figures_are_the_runners_report() {
    let figures = [
        "vcs.vc1.acr_mbps",
        "vcs.vc2.acr_mbps",
        "vcs.vc2.throughput_mbps",
        "vcs.vc1.cells_received",
        "vcs.vc1.maxmin_mbps",
        "ports.l3.queue_mean",
        "ports.l3.queue_max",
        "ports.l3.utilization",
        "ports.l3.cells_lost",
        "fairness",
    ];
    assert_same("two-source-wan.json", &figures, [100.0, 195.0]);
}

#[test]
fn packet_figures_are_the_runners_report() {
    let figures = [
        "classes.tcp.throughput_mbps",
        "classes.udp.throughput_mbps",
        "ratio",
        "ratio_mean",
        "d_udp.mean",
        "fairness_mean",
        "flows.udp.throughput_mbps",
        "ports.bottleneck.queue_mean",
        "ports.bottleneck.queue_max",
        "ports.bottleneck.utilization",
        "ports.bottleneck.packets_lost",
    ];
    assert_same("pletka-clcc-tcp-udp.json", &figures, [5000.0, 10000.0]);
}

#[test]
fn a_broken_claim_is_refused_by_path() {
    let mut doc: Value =
        serde_json::from_str(&common::scenario_text("two-source-wan.json")).unwrap();
    doc["claims"] = json!([
        {"id": "a", "quote": "q", "metric": "windows[1].vcs.vc1.acr_mbps", "window": [0, 10], "paper": 1, "tolerance": {"abs": 1}},
        {"id": "b", "quote": "q", "metric": "window.vcs.vc1.acr_mbps", "window": [0, 400], "paper": 1, "tolerance": {"abs": 1}},
        {"id": "c", "quote": "q", "metric": "totals.ports.l3.queue_max", "paper": 1, "expected": false},
        {"id": "d", "quote": "q", "metric": "totals.ports.l3.queue_max", "paper": 1, "compare": "about", "variant": "nope"},
        {"id": "e", "quote": "q", "metric": "totals.x", "paper": 1, "tolerance": {"abs": 1, "rel": 1}, "colour": 1},
    ]);
    let errors = sim_core::cell::scenario::scenario_from_value(&doc).unwrap_err();
    let text = sim_core::scenario::format_errors(&errors);
    for needle in [
        "claims.a.metric: windows[1] does not exist",
        "claims.c.tolerance: is required for compare approx",
        "claims.c.reason: is required when expected is false",
        "claims.d.compare: 'about' is not one of approx, at_most, at_least",
        "claims.d.variant: no variant 'nope'",
        "claims.e.tolerance: give abs or rel, not both",
        "claims.e.colour: unknown key",
    ] {
        assert!(text.contains(needle), "missing «{needle}» in:\n{text}");
    }
    // A window past the run is refused where the claims are judged (abrsim check), not when
    // the scenario loads: a run shortened with --until leaves such a claim unjudged.
    let mut past_end: Value =
        serde_json::from_str(&common::scenario_text("two-source-wan.json")).unwrap();
    past_end["claims"] = json!([
        {"id": "b", "quote": "q", "metric": "window.vcs.vc1.acr_mbps", "window": [0, 400], "paper": 1, "tolerance": {"abs": 1}},
    ]);
    assert!(sim_core::cell::scenario::scenario_from_value(&past_end).is_ok());
    let refused = claims::file_claims(&past_end.to_string()).err().expect("refused");
    let text = sim_core::scenario::format_errors(&refused);
    assert!(text.contains("claims.b.window: ends at 400 ms, after the run (300 ms)"), "{text}");
    // A figure the run has no column for is named when the tracker is made.
    let list = claims_for(&["vcs.vc9.acr_mbps"], [0.0, 10.0]);
    let columns: Vec<String> = ["t_ms", "vc.vc1.acr_mean"].iter().map(|s| s.to_string()).collect();
    let err = Tracker::new(&list, &columns).err().expect("refused");
    assert_eq!(err[0].path, "claims.c0.metric");
    assert!(err[0].message.contains("vc.vc9.acr_mean"), "{}", err[0].message);
}

#[test]
fn a_claim_is_pending_until_its_window_has_passed() {
    let list = claims_for(&["vcs.vc1.acr_mbps"], [10.0, 20.0]);
    let columns: Vec<String> = ["t_ms", "vc.vc1.acr_mean"].iter().map(|s| s.to_string()).collect();
    let mut t = Tracker::new(&list, &columns).unwrap();
    let rows: Vec<f64> = (1..=30).flat_map(|i| [i as f64, 5.0 + (i >= 11) as u8 as f64]).collect();
    t.feed(&rows[..30], 1.0);
    assert_eq!(t.evaluate(1.0, 15.0, 30.0)[0].status, Status::Pending);
    t.feed(&rows[30..], 1.0);
    let o = &t.evaluate(1.0, 30.0, 30.0)[0];
    assert_eq!(o.status, Status::Held);
    // Rows 11..=20 cover (10, 20]: all 6.0.
    assert_eq!(o.value, Some(6.0));
}
