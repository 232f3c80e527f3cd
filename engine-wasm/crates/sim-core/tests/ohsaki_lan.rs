//! Ohsaki et al. (Ohsaki, Murata & Miyahara) §III-A: the parking lot with binary
//! (EFCI) switches in a LAN (0.01 ms between switches), for the RIF/RDF pairs
//! of Table 1, checked through the same code path `abrsim run` uses.

mod common;

use common::{opts, port_stat, report, total_lost, vc_stat};
use serde_json::Value;
use sim_core::probe::jain_index;

const VCS: [&str; 4] = ["vc1", "vc2", "vc3", "vc4"];
/// The SW4→SW5 link every VC crosses.
const BOTTLENECK: &str = "x45";

fn throughputs(r: &Value, w: usize) -> Vec<f64> {
    VCS.iter().map(|vc| vc_stat(r, w, vc, "throughput_mbps")).collect()
}

fn jain(r: &Value, w: usize) -> f64 {
    jain_index(&throughputs(r, w), &[1.0; 4])
}

fn run(file: &str, rif_rdf: Option<(&str, &str)>, windows: &[(f64, f64)]) -> Value {
    let sets: Vec<(&str, &str)> = match rif_rdf {
        Some((rif, rdf)) => vec![("defaults.vc.rif", rif), ("defaults.vc.rdf", rdf)],
        None => vec![],
    };
    report(file, &opts(None, windows, &sets))
}

#[test]
fn fast_decrease_fills_sw4_without_loss_but_favours_the_long_vcs() {
    // Fig. 4: RIF 1/4, RDF 1/4.
    let r = run("ohsaki-lan-fast-decrease.json", None, &[(0.0, 400.0), (0.0, 1000.0)]);
    assert_eq!(total_lost(&r), 0, "§III-A: cell loss is prevented");
    assert!(port_stat(&r, 1, BOTTLENECK, "utilization") > 0.99, "SW4 is fully utilised");
    // Longer connections (VC1, VC2) transmit more cells than shorter ones (VC3,
    // VC4): clearly over the first 400 ms, still over the whole second. The
    // dynamics are chaotic, so the split in any window is only roughly stable.
    let early = throughputs(&r, 0);
    assert!(early[0] + early[1] > 1.3 * (early[2] + early[3]), "{early:?}");
    let whole = throughputs(&r, 1);
    assert!(whole[0] + whole[1] > 1.1 * (whole[2] + whole[3]), "{whole:?}");
}

#[test]
fn fast_decrease_with_the_q_min_rif_starves_the_short_vc_and_idles_sw4() {
    // Fig. 5: RIF 1/512, RDF 1/4 — no loss either, but SW4 is not filled.
    let r = run(
        "ohsaki-lan-fast-decrease.json",
        Some(("1/512", "1/4")),
        &[(100.0, 600.0), (0.0, 1000.0)],
    );
    assert_eq!(total_lost(&r), 0);
    assert!(port_stat(&r, 1, BOTTLENECK, "utilization") < 0.9);
    let t = throughputs(&r, 0);
    let longest_three = t[..3].iter().cloned().fold(f64::INFINITY, f64::min);
    assert!(t[3] < 0.7 * longest_three, "VC4 is starved: {t:?}");
}

#[test]
fn moderate_decrease_stays_unfair_with_rif_1_32() {
    // Fig. 6: RIF 1/32, RDF 1/16.
    let r = run("ohsaki-lan-moderate-decrease.json", None, &[(500.0, 1000.0)]);
    let t = throughputs(&r, 0);
    assert!(jain(&r, 0) < 0.9, "{t:?}");
    assert!(t[0] > 2.5 * t[3] && t[1] > 2.5 * t[3], "{t:?}");
    assert!(port_stat(&r, 0, BOTTLENECK, "utilization") > 0.99);
    // The analysis sizes RIF for SW4, which loses nothing; VC1 and VC2
    // climbing to PCR together overflow SW2→SW3 once (39 cells; the paper
    // is silent on loss here — see the scenario's explanation).
    assert_eq!(r["totals"]["ports"][BOTTLENECK]["cells_lost"], 0);
    let delivered: f64 =
        VCS.iter().map(|vc| r["totals"]["vcs"][*vc]["cells_received"].as_f64().unwrap()).sum();
    assert!((total_lost(&r) as f64) < 1e-3 * delivered, "lost {} of {delivered}", total_lost(&r));
}

#[test]
fn moderate_decrease_with_rif_1_2048_is_fair_and_fills_sw4() {
    // Fig. 7: RIF 1/2048, RDF 1/16.
    let r = run("ohsaki-lan-moderate-decrease.json", Some(("1/2048", "1/16")), &[(500.0, 1000.0)]);
    assert!(jain(&r, 0) > 0.99, "{:?}", throughputs(&r, 0));
    assert!(port_stat(&r, 0, BOTTLENECK, "utilization") > 0.99);
    assert_eq!(total_lost(&r), 0);
}

#[test]
fn slow_decrease_is_fair_full_and_lossless() {
    // Fig. 8: RIF 1/256, RDF 1/64; the paper's runs settle in about 500 ms.
    let r = run("ohsaki-lan-slow-decrease.json", None, &[(500.0, 1000.0)]);
    assert!(jain(&r, 0) > 0.995, "{:?}", throughputs(&r, 0));
    for vc in VCS {
        let acr = vc_stat(&r, 0, vc, "acr_mbps");
        assert!((acr - 37.5).abs() < 0.05 * 37.5, "{vc}: {acr}");
    }
    assert!(port_stat(&r, 0, BOTTLENECK, "utilization") > 0.99);
    assert_eq!(total_lost(&r), 0);
}

#[test]
fn relative_rate_marking_also_keeps_the_lan_lossless_and_full() {
    let r = report(
        "ohsaki-lan-fast-decrease.json",
        &opts(
            Some(600.0),
            &[(100.0, 600.0)],
            &[("defaults.switch_port.algorithm.relative_rate", "true")],
        ),
    );
    assert_eq!(total_lost(&r), 0);
    assert!(port_stat(&r, 0, BOTTLENECK, "utilization") > 0.99);
}
