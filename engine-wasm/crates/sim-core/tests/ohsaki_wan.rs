//! Ohsaki et al. (Ohsaki, Murata & Miyahara) §III-B: the parking lot with binary
//! (EFCI) switches in a WAN (1 ms between switches), for the RIF/RDF pairs of
//! Table 2, checked through the same code path `abrsim run` uses.

mod common;

use common::binary_fluid::Fluid;
use common::{opts, port_stat, report, total_lost, vc_stat};
use serde_json::Value;
use sim_core::probe::jain_index;

const VCS: [&str; 4] = ["vc1", "vc2", "vc3", "vc4"];
const BOTTLENECK: &str = "x45";
/// After the start-up transient: the rates have gone round their cycle several times.
const STEADY: (f64, f64) = (1000.0, 2000.0);
/// The links between switches (§II, WAN).
const WAN_HOP_MS: f64 = 1.0;

fn throughputs(r: &Value) -> Vec<f64> {
    VCS.iter().map(|vc| vc_stat(r, 0, vc, "throughput_mbps")).collect()
}

fn jain(r: &Value) -> f64 {
    jain_index(&throughputs(r), &[1.0; 4])
}

fn run(file: &str, rif_rdf: Option<(&str, &str)>) -> Value {
    let sets: Vec<(&str, &str)> = match rif_rdf {
        Some((rif, rdf)) => vec![("defaults.vc.rif", rif), ("defaults.vc.rdf", rdf)],
        None => vec![],
    };
    report(file, &opts(None, &[STEADY], &sets))
}

#[test]
fn moderate_decrease_avoids_loss_with_rif_1_512_but_stays_unfair() {
    // Fig. 10: RIF 1/512, RDF 1/16 (Schemes 2 and 3).
    let r = run("ohsaki-wan-moderate-decrease.json", None);
    assert_eq!(total_lost(&r), 0, "cell loss can be avoided by setting RIF = 1/512");
    let t = throughputs(&r);
    assert!(jain(&r) < 0.9, "fairness among connections is not still accomplished: {t:?}");
    assert!(t[0] > t[1] && t[1] > t[2].max(t[3]), "the longer the VC, the more it gets: {t:?}");
}

#[test]
fn moderate_decrease_with_scheme_1_rif_loses_cells() {
    // Fig. 9: RIF 1/256, RDF 1/16 (Scheme 1) — only Schemes 2 and 3 avoid loss.
    let r = run("ohsaki-wan-moderate-decrease.json", Some(("1/256", "1/16")));
    assert!(total_lost(&r) > 0);
    assert!(jain(&r) < 0.9, "{:?}", throughputs(&r));
}

#[test]
fn slow_decrease_is_fair_and_lossless_for_every_scheme() {
    // Figs. 11 and 12: (1/512, 1/64) for Scheme 1, (1/1024, 1/64) for Schemes 2 and 3.
    let moderate = run("ohsaki-wan-moderate-decrease.json", None);
    for pair in [None, Some(("1/512", "1/64"))] {
        let r = run("ohsaki-wan-slow-decrease.json", pair);
        assert_eq!(total_lost(&r), 0, "{pair:?}");
        assert!(jain(&r) > 0.99, "{pair:?}: {:?}", throughputs(&r));
        // The paper reads full utilisation off its figures; in this model the
        // rates cycle every ~140 ms and SW4's queue runs empty for part of each
        // cycle (0.90 and 0.93 — see the scenario's explanation). What holds is
        // the improvement over RDF 1/16 (0.71).
        let util = port_stat(&r, 0, BOTTLENECK, "utilization");
        assert!(
            util > port_stat(&moderate, 0, BOTTLENECK, "utilization") + 0.1,
            "{pair:?}: {util}"
        );
        assert!(util > 0.85, "{pair:?}: {util}");
    }
}

#[test]
fn slow_decrease_has_no_rif_that_both_fills_sw4_and_avoids_loss() {
    // Why the paper's "full link utilization" (Figs. 11 and 12) is not reached
    // here: with RDF 1/64 and every other parameter as §II states, the largest
    // loss-free RIF is Scheme 1's 1/512, whose queue peaks just under the
    // 5,796-cell buffer (this model's Q_max = BL line agrees with the paper's
    // choice), yet SW4 idles; SW4 is full only from RIF 1/128, which loses
    // cells. The region between the Q_max = BL and Q_min = 0 lines that §II
    // chooses from is empty in this model for the WAN.
    let scheme_1 = run("ohsaki-wan-slow-decrease.json", Some(("1/512", "1/64")));
    assert_eq!(total_lost(&scheme_1), 0);
    assert!(port_stat(&scheme_1, 0, BOTTLENECK, "queue_max") > 5000.0);
    assert!(port_stat(&scheme_1, 0, BOTTLENECK, "utilization") < 0.95);
    let faster = run("ohsaki-wan-slow-decrease.json", Some(("1/256", "1/64")));
    assert!(total_lost(&faster) > 0);
    assert!(port_stat(&faster, 0, BOTTLENECK, "utilization") < 0.98);
    let full = run("ohsaki-wan-slow-decrease.json", Some(("1/128", "1/64")));
    assert!(port_stat(&full, 0, BOTTLENECK, "utilization") > 0.99);
    assert!(total_lost(&full) > 0);
}

#[test]
fn slow_decrease_idles_sw4_on_one_wan_hop_too() {
    // What the idle SW4 is not: the parking lot's unequal round trips, the
    // point where the switch reads its queue. With every VC behind the one
    // 1 ms hop (the 2 ms round trip Scheme 1 sizes for), the same RDF 1/64
    // loop still runs its queue dry each cycle at every loss-free RIF, and
    // fills SW4 only from RIF 1/256, which loses cells.
    let one_hop = |rif: &str| {
        let sets = [
            ("links.x12.delay_ms", "0.001"),
            ("links.x23.delay_ms", "0.001"),
            ("links.x34.delay_ms", "0.001"),
            ("defaults.vc.rif", rif),
        ];
        run_with("ohsaki-wan-slow-decrease.json", &sets)
    };
    for rif in ["1/1024", "1/512"] {
        let r = one_hop(rif);
        assert_eq!(total_lost(&r), 0, "{rif}");
        let util = port_stat(&r, 0, BOTTLENECK, "utilization");
        assert!(util < 0.98, "{rif}: {util}");
    }
    let r = one_hop("1/256");
    assert!(port_stat(&r, 0, BOTTLENECK, "utilization") > 0.99);
    assert!(total_lost(&r) > 0);
    // Marking cells as they join the queue lags the feedback by the queueing
    // delay: the swing deepens, SW4 idles more and its buffer overflows.
    let arrival = run_with("ohsaki-wan-slow-decrease.json", &[MARK_ON_ARRIVAL]);
    assert!(total_lost(&arrival) > 0);
    assert!(port_stat(&arrival, 0, BOTTLENECK, "utilization") < 0.8);
}

#[test]
fn slow_decrease_never_triggers_source_rule_6() {
    // §II sets CRM 32 and CDF 1/2: source rule 6 halves ACR when 32 forward RM
    // cells have gone out with no backward RM cell back. It never fires in
    // these runs, so switching it off (CDF 0) gives the same run, sample for
    // sample: the idle SW4 is not rule 6's doing.
    for rif in ["1/1024", "1/512"] {
        let on = run_with("ohsaki-wan-slow-decrease.json", &[("defaults.vc.rif", rif)]);
        let sets = [("defaults.vc.rif", rif), ("defaults.vc.cdf", "0")];
        let off = run_with("ohsaki-wan-slow-decrease.json", &sets);
        assert!(on["stats"]["series_hash"].is_string());
        assert_eq!(on["stats"]["series_hash"], off["stats"]["series_hash"], "RIF {rif}");
    }
}

#[test]
fn slow_decrease_cycle_is_the_one_a_fluid_model_of_the_source_rules_predicts() {
    // Ohsaki et al. choose RIF from the Q_max = BL line of their analysis (§II,
    // Fig. 3), a first-order fluid approximation of the source rules for one
    // binary switch. The fluid model below is that method applied to this
    // parking lot: each VC's rate rises by RIF·PCR per CI = 0 backward RM cell
    // and falls by RDF·ACR per CI = 1 one, backward RM cells coming back at the
    // rate sent one round trip earlier over Nrm, with SW4 congested while its
    // queue is above Q_H. It gives the same cycle as the cell-level run: the
    // queue runs empty in every cycle at both of Table 2's slow-down pairs, and
    // only from RIF 1/128, which overflows the buffer, does it stay above 0.
    // The analysis, read this way, has no RIF between its two lines for
    // RDF 1/64 on the WAN: the idle SW4 is its prediction too.
    for (rif, engine_rif) in [(1.0 / 1024.0, "1/1024"), (1.0 / 512.0, "1/512")] {
        let fluid = Fluid::parking_lot(WAN_HOP_MS, rif, 1.0 / 64.0).run(STEADY);
        assert_eq!(fluid.q_min, 0.0, "RIF {engine_rif}: the fluid queue runs dry");
        assert_eq!(fluid.lost, 0.0, "RIF {engine_rif}");
        let r = run("ohsaki-wan-slow-decrease.json", Some((engine_rif, "1/64")));
        let util = port_stat(&r, 0, BOTTLENECK, "utilization");
        assert!((util - fluid.utilization).abs() < 0.02, "RIF {engine_rif}: {util} vs {fluid:?}");
        let peak = port_stat(&r, 0, BOTTLENECK, "queue_max");
        assert!((peak / fluid.q_max - 1.0).abs() < 0.1, "RIF {engine_rif}: {peak} vs {fluid:?}");
        assert!(fluid.utilization < 0.95, "{fluid:?}");
    }
    let full = Fluid::parking_lot(WAN_HOP_MS, 1.0 / 128.0, 1.0 / 64.0).run(STEADY);
    assert!(full.q_min > 0.0 && full.lost > 0.0, "{full:?}");
}

const MARK_ON_ARRIVAL: (&str, &str) = ("defaults.switch_port.algorithm.mark_on_arrival", "true");

fn run_with(file: &str, sets: &[(&str, &str)]) -> Value {
    report(file, &opts(None, &[STEADY], sets))
}
