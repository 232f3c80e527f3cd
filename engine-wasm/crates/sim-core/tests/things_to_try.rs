//! The "things to try" of a library scenario checked against the run their change makes: each
//! sentence that says what will happen is measured here, with the change the file carries
//! applied, against the scenario as it stands. The numbers come from the runs, so a model change
//! that moves them is caught here together with the sentence that quotes them.

mod common;

use common::{col, opts, report, samples};
use serde_json::Value;

const WAN: &str = "two-source-wan.json";

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
fn two_source_wan_low_icr_makes_the_queue_spike_when_s2_joins_several_times_smaller() {
    let sets = thing_sets(WAN, "Lower ICR to 10 Mbit/s");
    let window = [(100.0, 200.0)];
    let pairs: Vec<(&str, &str)> = sets.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let low = report(WAN, &opts(Some(200.0), &window, &pairs));
    let base = report(WAN, &opts(Some(200.0), &window, &[]));
    let spike = |r: &Value| common::port_stat(r, 0, "l3", "queue_max");
    assert!(spike(&base) > 1000.0, "spike {}", spike(&base));
    assert!(spike(&low) < spike(&base) / 3.0, "{} against {}", spike(&low), spike(&base));
}

#[test]
fn two_source_wan_target_095_moves_the_share_to_74_and_drains_more_slowly() {
    let sets = thing_sets(WAN, "Set the target utilisation to 0.95");
    let pairs: Vec<(&str, &str)> = sets.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let window = [(100.0, 200.0)];
    let high = report(WAN, &opts(Some(200.0), &window, &pairs));
    let base = report(WAN, &opts(Some(200.0), &window, &[]));
    let share = high["maxmin_mbps"]["vc1"].as_f64().unwrap();
    assert_eq!(share.round(), 74.0, "{share}");
    // The queue built when S2 joins takes longer to drain: more of it stays on average.
    let mean = |r: &Value| common::port_stat(r, 0, "l3", "queue_mean");
    assert!(mean(&high) > mean(&base), "{} against {}", mean(&high), mean(&base));
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
fn ma_two_switch_rm_start_up_stops_the_queue_near_3800_cells_instead_of_4900() {
    let text = things(MA)[0]["text"].as_str().unwrap().to_string();
    assert!(text.contains("near 3,800 cells instead of 4,900"), "{text}");
    let (rate, rm) = (ma_peak("fifo-rate", &[]), ma_peak("fifo-rm", &[]));
    assert!((rate - 4900.0).abs() <= 0.05 * 4900.0, "RATE peaks at {rate}");
    assert!((rm - 3800.0).abs() <= 0.05 * 3800.0, "RM peaks at {rm}");
}

#[test]
fn ma_two_switch_earlier_warning_peaks_near_2700_then_190_and_rm_is_rate_at_0_ms() {
    let text = things(MA)[1]["text"].as_str().unwrap().to_string();
    assert!(text.contains("near 2,700, then 190 cells"), "{text}");
    let at = |ms: &str| ma_peak("fifo-rm", &[("defaults.switch_port.setup_ms", ms)]);
    let (two, five) = (at("2"), at("5"));
    assert!((two - 2700.0).abs() <= 0.05 * 2700.0, "2 ms: {two}");
    assert!((five - 190.0).abs() <= 0.1 * 190.0, "5 ms: {five}");
    let (zero, rate) = (at("0"), ma_peak("fifo-rate", &[]));
    assert!(zero >= 0.95 * rate, "RM at 0 ms peaks at {zero}, RATE at {rate}");
}

#[test]
fn ma_two_switch_queue_management_brings_the_queue_back_to_the_600_cell_set_point() {
    let text = things(MA)[2]["text"].as_str().unwrap().to_string();
    assert!(text.contains("falls back to 600 cells"), "{text}");
    let r = report(MA, &common::variant("fifo-icr500-qm", None, &[(1200.0, 1500.0)], &[]));
    let late = common::port_stat(&r, 0, "trunk", "queue_mean");
    assert!((late - 600.0).abs() <= 0.1 * 600.0, "queue {late} cells over 1,200–1,500 ms");
    let peak = r["totals"]["ports"]["trunk"]["queue_max"].as_f64().unwrap();
    assert!(peak > 1000.0, "peak {peak}");
}
