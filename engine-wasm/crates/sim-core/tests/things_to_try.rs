//! The "things to try" of the library checked against the runs their changes make
//! (scenarios/README.md, "Things to try"): every sentence that says what will happen carries
//! checks in the claims' grammar beside it, judged on the run with its change applied, with
//! `base.` figures read from the run without it; a sentence that predicts nothing says so with
//! `"checks": null`. The numbers come from the runs, so a model change that moves them is caught
//! here together with the sentence that quotes them. A few sentences are also held here by hand
//! where they say more than one run can show or than the checks' grammar has a word for: how long
//! a climb takes, how long a rate stays over its share, and a sentence naming three settings.

mod common;

use common::{col, opts, report, samples};
use serde_json::Value;
use sim_core::claims::things::{check_things, file_things, CheckOutcome};
use sim_core::claims::{fmt_num, Status};
use sim_core::scenario::claims::checks::ThingChecks;
use sim_core::scenario::Limits;

/// Each library file's checks judged: (file, sentence, outcome), or the file's errors.
fn judged() -> Vec<(String, String, Result<CheckOutcome, String>)> {
    let mut rows = common::on_library_files(|file, text| {
        let things = file_things(text).unwrap_or_default();
        match check_things(text, &Limits::default(), &|| 0.0) {
            Ok(outcomes) => outcomes
                .into_iter()
                .map(|o| (file.to_string(), things[o.thing].text.clone(), Ok(o)))
                .collect(),
            Err(e) => {
                vec![(file.to_string(), String::new(), Err(sim_core::scenario::format_errors(&e)))]
            }
        }
    });
    rows.sort_by_key(|r| (r.0.clone(), r.2.as_ref().map_or(0, |o| o.thing)));
    rows
}

#[test]
fn every_thing_to_try_has_checks_or_says_it_predicts_nothing() {
    let mut unmarked = Vec::new();
    let mut checked = 0;
    for (file, text) in common::library_texts() {
        let things = file_things(&text)
            .unwrap_or_else(|e| panic!("{file}: {}", sim_core::scenario::format_errors(&e)));
        for (i, thing) in things.iter().enumerate() {
            match &thing.checks {
                ThingChecks::Unmarked => unmarked.push(format!(
                    "{file}: things_to_try[{i}] «{}» has neither checks nor \"checks\": null",
                    thing.text
                )),
                ThingChecks::PredictsNothing => {}
                ThingChecks::Checks(_) => checked += 1,
            }
        }
    }
    assert!(unmarked.is_empty(), "{}", unmarked.join("\n"));
    assert!(checked > 60, "only {checked} things to try carry checks");
}

#[test]
fn every_check_of_a_thing_to_try_holds_on_its_run() {
    let rows = judged();
    let mut failing = Vec::new();
    for (file, sentence, got) in &rows {
        match got {
            Err(e) => failing.push(format!("{file}: {e}")),
            Ok(o) => {
                let c = &o.check.claim;
                let value = o.outcome.value.map_or("—".into(), fmt_num);
                println!("{file:34} {:32} {:>10} {:24} {}", c.id, value, c.paper_text(), c.metric);
                if o.outcome.status != Status::Held {
                    failing.push(format!(
                        "{file}: «{sentence}» ({}): {} is {value}, the sentence needs {}",
                        c.id,
                        c.metric,
                        c.paper_text()
                    ));
                }
            }
        }
    }
    println!("{} checks, {} failing", rows.len(), failing.len());
    assert!(failing.is_empty(), "{}", failing.join("\n"));
}

const WAN: &str = "two-source-wan.json";

#[test]
fn a_check_reads_the_same_figures_as_the_runners_report_of_both_runs() {
    let text = common::scenario_text(WAN);
    let outcomes = check_things(&text, &Limits::default(), &|| 0.0).unwrap();
    let spike = outcomes.iter().find(|o| o.thing == 1).expect("the ICR sentence is checked");
    assert_eq!(
        spike.check.claim.metric,
        "window.ports.l3.queue_max / base.window.ports.l3.queue_max"
    );
    let window = [(100.0, 200.0)];
    let sets = thing_sets(WAN, "Lower ICR to 10 Mbit/s");
    let pairs: Vec<(&str, &str)> = sets.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let low = report(WAN, &opts(Some(200.0), &window, &pairs));
    let base = report(WAN, &opts(Some(300.0), &window, &[]));
    let peak = |r: &Value| common::port_stat(r, 0, "l3", "queue_max");
    assert_eq!(spike.outcome.value, Some(peak(&low) / peak(&base)));
}

#[test]
fn a_broken_check_in_a_file_is_refused_by_path_and_a_shortened_run_still_loads() {
    let mut v: Value = serde_json::from_str(&common::scenario_text(WAN)).unwrap();
    v["things_to_try"][1]["checks"][0]["metric"] =
        "window.ports.l3.queue_max / base.wndow.x".into();
    v["things_to_try"][2]["checks"][0]["base"] = "nope".into();
    let errors = sim_core::Model::validate(&v.to_string()).unwrap_err();
    let text = sim_core::scenario::format_errors(&errors);
    assert!(text.contains("things_to_try[1].checks[0].metric: 'wndow' is neither"), "{text}");
    assert!(text.contains("things_to_try[2].checks[0].base: no variant 'nope'"), "{text}");
    // Windows past a run shortened with --until leave the check unjudged, not the file broken.
    let short = report(WAN, &opts(Some(100.0), &[], &[]));
    assert_eq!(short["until_ms"].as_f64(), Some(100.0));
}

/// The things to try of a library file.
fn things(name: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(&common::scenario_text(name)).unwrap();
    v["things_to_try"].as_array().unwrap().clone()
}

/// The thing to try whose text starts with `start`, as `--set` pairs.
fn thing_sets(name: &str, start: &str) -> Vec<(String, String)> {
    let thing = things(name)
        .into_iter()
        .find(|t| t["text"].as_str().is_some_and(|s| s.starts_with(start)))
        .unwrap_or_else(|| panic!("{name}: no thing to try starting {start:?}"));
    thing["set"]
        .as_object()
        .unwrap_or_else(|| panic!("{name}: {start:?} carries no set"))
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect()
}

/// (time, value) of one column of a run with `sets` applied.
fn series(name: &str, until_ms: f64, sets: &[(String, String)], column: &str) -> Vec<(f64, f64)> {
    let pairs: Vec<(&str, &str)> = sets.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (columns, rows) = samples(name, &opts(Some(until_ms), &[], &pairs));
    let (t, c) = (col(&columns, "t_ms"), col(&columns, column));
    rows.iter().map(|r| (r[t], r[c])).collect()
}

/// How long, after `from_ms`, S1's ACR takes from leaving `low` to reaching `high` Mbit/s.
fn climb_ms(acr: &[(f64, f64)], from_ms: f64, low: f64, high: f64) -> f64 {
    let after: Vec<_> = acr.iter().filter(|(t, _)| *t >= from_ms).collect();
    let start = after.iter().find(|(_, a)| *a > low).expect("S1 never climbs").0;
    let end = after.iter().find(|(_, a)| *a >= high).expect("S1 never gets back").0;
    end - start
}

#[test]
fn two_source_wan_rif_1_512_climbs_back_in_tens_of_milliseconds_not_one() {
    let text = "Set RIF to 1/512: S1 needs tens of milliseconds, not one,";
    let slow = series(WAN, 300.0, &thing_sets(WAN, text), "vc.vc1.acr");
    let base = series(WAN, 300.0, &[], "vc.vc1.acr");
    // S2 stops at 200 ms; S1 climbs from its half share back to its whole one (90 % of 140).
    let fast_ms = climb_ms(&base, 200.0, 80.0, 126.0);
    let slow_ms = climb_ms(&slow, 200.0, 80.0, 126.0);
    assert!(fast_ms <= 3.0, "RIF 1/16 climbs in {fast_ms} ms");
    assert!((10.0..100.0).contains(&slow_ms), "RIF 1/512 climbs in {slow_ms} ms");
}

#[test]
fn two_source_wan_without_forward_ccr_s2_overshoots_for_longer() {
    let sets = thing_sets(WAN, "Switch forward CCR off at the switches");
    // How long S2's ACR stays more than 10 % above its 70 Mbit/s share.
    let over = |s: &[(f64, f64)]| -> f64 {
        let dt = s[1].0 - s[0].0;
        s.iter().filter(|(t, a)| (100.0..200.0).contains(t) && *a > 1.1 * 70.0).count() as f64 * dt
    };
    let off = over(&series(WAN, 200.0, &sets, "vc.vc2.acr"));
    let on = over(&series(WAN, 200.0, &[], "vc.vc2.acr"));
    assert!(off > on, "above its share for {off} ms without forward CCR, {on} ms with it");
}

const MA: &str = "ma-two-switch.json";

/// The largest queue at the SW1→SW2 trunk over a variant's run, cells.
fn ma_peak(variant: &str, sets: &[(&str, &str)]) -> f64 {
    let r = report(MA, &common::variant(variant, None, &[], sets));
    r["totals"]["ports"]["trunk"]["queue_max"].as_f64().unwrap()
}

#[test]
fn ma_two_switch_earlier_warning_peaks_near_2100_then_190_and_rm_is_rate_out_of_band() {
    let text = things(MA)[1]["text"].as_str().unwrap().to_string();
    assert!(text.contains("near 2,100, then 190 cells"), "{text}");
    let at = |ms: &str| ma_peak("fifo-rm", &[("defaults.switch_port.setup_ms", ms)]);
    let (two, five) = (at("2"), at("5"));
    assert!((two - 2100.0).abs() <= 0.05 * 2100.0, "2 ms: {two}");
    assert!((five - 190.0).abs() <= 0.1 * 190.0, "5 ms: {five}");
    let out_of_band = ma_peak("fifo-rm", &[("defaults.switch_port.setup_in_band", "false")]);
    let rate = ma_peak("fifo-rate", &[]);
    assert!(out_of_band >= 0.95 * rate, "RM out of band peaks at {out_of_band}, RATE at {rate}");
}
