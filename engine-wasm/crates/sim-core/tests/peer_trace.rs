//! A differential test against an independent simulator: YATS (TU Dresden)
//! in its Lua port LuaYATS, whose ABR source, ERICA port and destination are
//! its original C++ (see `tests/peers/README.md`), run on Fahmy, Jain, Goyal
//! & Vandalore, "ABR Engineering: Roles and Guidelines for Setting ABR
//! Parameters", §4.2.1 (Figure 4), the library's `two-source-wan`.
//!
//! Its ERICA port runs the feedback timing of this project's default ERICA
//! — CCR from forward RM cells, ER written on forward and backward RM
//! cells, RM cells served before data — except that it divides the latest
//! CCR by the load where ours divides the mean CCR of the interval the load
//! was measured on. The paper's Figure 4
//! agrees with the trace (both ACRs at 70 Mbit/s while S2 is on), so the
//! test follows both: our ACRs within 3 % of the trace's over the paper's
//! three phases, SW1's queue peak within 10 % of the trace's, and the queue
//! empty again by 240 ms, as in the trace (≈ 229 ms).

mod common;

use common::{col, samples};
use sim_core::runner::RunOptions;

const TRACE: &str = include_str!("peers/yats-two-source-wan-trace.txt");

/// The trace's rows: t (ms), ACR of S1 and S2 (Mbit/s), SW1's ABR queue (cells).
fn trace() -> Vec<[f64; 4]> {
    TRACE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<f64> = l.split_whitespace().map(|x| x.parse().expect("a number")).collect();
            assert_eq!(f.len(), 6, "six columns: {l}");
            [f[0], f[1], f[2], f[3]]
        })
        .collect()
}

/// The mean of column `c` over the rows with `from ≤ t < to`.
fn mean(rows: &[[f64; 4]], c: usize, (from, to): (f64, f64)) -> f64 {
    let v: Vec<f64> = rows.iter().filter(|r| r[0] >= from && r[0] < to).map(|r| r[c]).collect();
    assert!(v.len() > 10, "rows in {from}–{to} ms");
    v.iter().sum::<f64>() / v.len() as f64
}

/// The first time at or after `after` from which column `c` stays 0.
fn empty_from(rows: &[[f64; 4]], c: usize, after: f64) -> f64 {
    let last_busy =
        rows.iter().filter(|r| r[0] >= after && r[c] > 0.0).map(|r| r[0]).fold(after, f64::max);
    rows.iter().find(|r| r[0] > last_busy).map_or(f64::INFINITY, |r| r[0])
}

/// Our run, sampled every 0.5 ms as the trace is: t, ACR of vc1 and vc2, SW1→SW2 queue.
fn ours() -> Vec<[f64; 4]> {
    let opts = RunOptions { until_ms: Some(300.0), ..Default::default() };
    let (cols, rows) = samples("two-source-wan.json", &opts);
    let (t, a1, a2, q) = (
        col(&cols, "t_ms"),
        col(&cols, "vc.vc1.acr"),
        col(&cols, "vc.vc2.acr"),
        col(&cols, "port.l3.queue_max"),
    );
    rows.iter().map(|r| [r[t], r[a1], r[a2], r[q]]).collect()
}

const WINDOWS: [(f64, f64); 3] = [(60.0, 95.0), (150.0, 195.0), (260.0, 300.0)];

#[test]
fn the_trace_reads_as_its_readme_says() {
    let yats = trace();
    assert_eq!(yats.len(), 602);
    let s1: Vec<f64> = WINDOWS.iter().map(|&w| mean(&yats, 1, w)).collect();
    for (got, want) in s1.iter().zip([139.968, 69.984, 139.979]) {
        assert!((got - want).abs() < 0.05, "S1 {got} against {want}");
    }
    assert!((mean(&yats, 2, WINDOWS[1]) - 70.010).abs() < 0.05);
    let peak = yats.iter().map(|r| r[3]).fold(0.0, f64::max);
    assert_eq!(peak, 7152.0);
    assert!((empty_from(&yats, 3, 150.0) - 229.0).abs() < 1.0);
}

#[test]
fn acrs_are_within_3_percent_of_the_independent_simulator() {
    let (yats, ours) = (trace(), ours());
    let mut findings = vec![];
    for (c, vc, windows) in [(1, "S1", &WINDOWS[..]), (2, "S2", &WINDOWS[1..2])] {
        for &w in windows {
            let (theirs, mine) = (mean(&yats, c, w), mean(&ours, c, w));
            eprintln!("{vc} over {w:?} ms: ours {mine:.3}, YATS {theirs:.3} Mbit/s");
            if (mine / theirs - 1.0).abs() > 0.03 {
                findings.push(format!("{vc} over {w:?} ms: ours {mine:.3}, YATS {theirs:.3}"));
            }
        }
    }
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn the_queue_peaks_within_10_percent_and_empties_by_240_ms() {
    let (yats, ours) = (trace(), ours());
    let peak = |rows: &[[f64; 4]]| rows.iter().map(|r| r[3]).fold(0.0, f64::max);
    let (theirs, mine) = (peak(&yats), peak(&ours));
    eprintln!("SW1 queue peak: ours {mine}, YATS {theirs} cells");
    assert!((mine / theirs - 1.0).abs() <= 0.10, "ours {mine}, YATS {theirs}");
    let (t_theirs, t_mine) = (empty_from(&yats, 3, 150.0), empty_from(&ours, 3, 150.0));
    eprintln!("SW1 queue empty from: ours {t_mine}, YATS {t_theirs} ms");
    assert!(t_mine <= 240.0 && t_theirs <= 240.0, "ours {t_mine}, YATS {t_theirs}");
}
