//! ERICA's parameters: the registry entries of its knobs (basic ERICA and
//! the twelve extensions of Jain et al., "Switch Algorithm Testing: A Case
//! Study with ERICA") and the configuration a scenario's `algorithm` object
//! reads into.

use super::super::AlgorithmConfig;
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{
    self, p, Kind::*, ParamSpec, Registration, Scope, Scope::Erica as S,
};
use crate::scenario::ScenarioError;
use crate::time::SimTime;

/// ERICA's and ERICA+'s knobs in the parameter registry.
pub static PARAMS: &[ParamSpec] = &[
    p("target_utilization", S, "Target utilisation", "", 0.9, 0.05, 1.0, Real, true,
      "ERICA fills this fraction of the link (Jain et al. 'ERICA Scheme: Basic'; 95 % LAN, 90 % WAN in its tests). ERICA+ replaces it by f(Tq)."),
    p("interval_ms", S, "Averaging interval", "ms", 5.0, 0.01, 1000.0, Real, true,
      "ERICA measures input rate and active VCs over this interval (Jain et al. uses 1 ms)."),
    p("forward_ccr", S, "Forward CCR (ext. 1)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 1: read CCR from forward RM cells and give feedback in backward ones, shortening the loop (Jain et al.)."),
    p("same_feedback", S, "Same feedback in one interval (ext. 2)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 2: a VC gets one ER per averaging interval, however many RM cells it sends, against oscillations of high-rate sources."),
    p("fair_share_first", S, "Fair share first (ext. 3)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 3: a VC below the fair share is raised only to the fair share, against transient overloads when sources start."),
    p("per_vc_ccr", S, "Per-VC CCR measurement (ext. 4)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 4: use each VC's measured cell rate instead of the CCR it declares: a switch-based 'use it or lose it'."),
    p("count_averaging", S, "Time + count averaging (ext. 5)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 5: end the averaging interval after interval_ms or interval_cells ABR cells, whichever comes first."),
    p("interval_cells", S, "Averaging interval (cells)", "cells", 100.0, 1.0, 1_000_000.0, Integer, true,
      "With extension 5, the interval also ends after this many ABR cells (Jain et al.: 50 in LANs, 100 in WANs)."),
    p("vbr_aware", S, "ERICA with VBR (ext. 6)", "", 1.0, 0.0, 1.0, Bool, true,
      "Extension 6: ABR capacity = target × link rate − CBR/VBR rate. Off: the switch does not see CBR/VBR cells."),
    p("bidirectional_counting", S, "Bi-directional counting (ext. 7)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 7: count a VC as active if seen in the last interval or in this one so far, forward cells or backward RM cells."),
    p("maxmin_fix", S, "Max-min fairness fix (ext. 8)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 8: when overload ≤ 1 + δ, give at least the largest ER of the previous interval, so VCs bottlenecked here converge to max-min."),
    p("delta", S, "Fairness fix δ", "", 0.1, 0.0, 1.0, Real, true,
      "Extension 8 applies while overload ≤ 1 + δ (0.1 as in the ERICA+ listing)."),
    p("average_sources", S, "Averaging of number of sources (ext. 9)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 9: a VC's activity is 1 when seen and decays by α every interval it is not; the active count is their sum."),
    p("alpha", S, "Activity decay α", "", 0.99, 0.0, 1.0, Real, true,
      "Extension 9's decay factor per unseen interval (Jain et al. gives no value). 0.99 is chosen here: with Jain et al.'s intervals of 50–100 cells, about 0.3 ms at full load, a silent VC still counts half after some 20 ms, a WAN round trip."),
    p("boundary_cases", S, "Boundary cases (ext. 10)", "", 1.0, 0.0, 1.0, Bool, true,
      "Extension 10: zero capacity gives ER 0, zero input gives C/N, and N < 1 counts as 1. Off: the bare formulas (zero input gives the whole capacity)."),
    p("average_load", S, "Averaging of load factor (ext. 11)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 11: average the cells seen and the time separately over past intervals, then divide."),
    p("load_decay", S, "Load averaging decay", "", 0.8, 0.0, 0.99, Real, true,
      "Extension 11's weight of the past per interval (Jain et al. gives no value). 0.8 is chosen here: a memory of about five intervals, enough to quiet the per-interval noise of 50–100-cell intervals."),
    p("erica_plus", S, "ERICA+ queue control (ext. 12)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 12: ABR capacity = (link rate − VBR rate) × f(Tq), Tq the queueing delay; replaces the target utilisation."),
    p("a", S, "ERICA+ a", "", 1.15, 1.0, 4.0, Real, true,
      "f(Tq) = a·T0/((a−1)·Tq + T0) below T0: the over-allocation with an empty queue (Jain et al.: 1.15)."),
    p("b", S, "ERICA+ b", "", 1.05, 1.0, 4.0, Real, true,
      "f(Tq) = max(Fmin, b·T0/((b−1)·Tq + T0)) above T0 (Jain et al.: 1.05)."),
    p("t0_ms", S, "ERICA+ T0", "ms", 0.5, 0.001, 100.0, Real, true,
      "ERICA+ queueing-delay target (Jain et al.: 100 µs LAN, 500 µs WAN)."),
    p("f_min", S, "ERICA+ Fmin", "", 0.5, 0.01, 1.0, Real, true,
      "Lower bound of f(Tq): at least this share of the capacity stays for data while queues drain (Jain et al.: 0.5)."),
];

/// The spec of one of this algorithm's knobs.
fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    registry::find(PARAMS, scope, key)
}

/// ERICA's parameters: the basic two and the options of the twelve extensions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EricaConfig {
    /// Fraction of the link rate ERICA aims to fill (Jain et al.: "say, at 95 %").
    pub target_utilization: f64,
    /// Length of the averaging interval.
    pub interval: SimTime,
    /// Extension 1: read CCR from forward RM cells instead of backward ones.
    pub forward_ccr: bool,
    /// Extension 2: one ER per VC per averaging interval.
    pub same_feedback: bool,
    /// Extension 3: VCs below the fair share go only up to the fair share.
    pub fair_share_first: bool,
    /// Extension 4: use each VC's measured rate instead of its CCR.
    pub per_vc_ccr: bool,
    /// Extension 5: the interval also ends after `interval_cells` ABR cells.
    pub count_averaging: bool,
    pub interval_cells: u32,
    /// Extension 6: take the measured CBR/VBR rate out of the ABR capacity.
    pub vbr_aware: bool,
    /// Extension 7: count VCs seen in either direction, last interval or this one.
    pub bidirectional_counting: bool,
    /// Extension 8: the max-min fairness fix, applied while z ≤ 1 + `delta`.
    pub maxmin_fix: bool,
    pub delta: f64,
    /// Extension 9: average the number of active sources with decay `alpha`.
    pub average_sources: bool,
    pub alpha: f64,
    /// Extension 10: the boundary-case table.
    pub boundary_cases: bool,
    /// Extension 11: average the load factor's numerator and denominator,
    /// weighting the past by `load_decay` per interval.
    pub average_load: bool,
    pub load_decay: f64,
    /// Extension 12: ERICA+, queue control by f(Tq) with {a, b, T0, Fmin}.
    pub erica_plus: bool,
    pub a: f64,
    pub b: f64,
    pub t0: SimTime,
    pub f_min: f64,
}

impl Default for EricaConfig {
    /// The registry's defaults.
    fn default() -> EricaConfig {
        let d = |k| spec(S, k).default;
        let on = |k| d(k) != 0.0;
        EricaConfig {
            target_utilization: d("target_utilization"),
            interval: SimTime::from_ms(d("interval_ms")),
            forward_ccr: on("forward_ccr"),
            same_feedback: on("same_feedback"),
            fair_share_first: on("fair_share_first"),
            per_vc_ccr: on("per_vc_ccr"),
            count_averaging: on("count_averaging"),
            interval_cells: d("interval_cells") as u32,
            vbr_aware: on("vbr_aware"),
            bidirectional_counting: on("bidirectional_counting"),
            maxmin_fix: on("maxmin_fix"),
            delta: d("delta"),
            average_sources: on("average_sources"),
            alpha: d("alpha"),
            boundary_cases: on("boundary_cases"),
            average_load: on("average_load"),
            load_decay: d("load_decay"),
            erica_plus: on("erica_plus"),
            a: d("a"),
            b: d("b"),
            t0: SimTime::from_ms(d("t0_ms")),
            f_min: d("f_min"),
        }
    }
}

impl Registration for EricaConfig {
    type Config = AlgorithmConfig;
    const KINDS: &'static [&'static str] = &["erica", "erica_plus"];
    const PARAMS: &'static [ParamSpec] = PARAMS;
    fn read(kind: &str, obj: &mut Obj<'_>, errors: &mut Errors) -> AlgorithmConfig {
        AlgorithmConfig::Erica(EricaConfig::read(obj, errors, kind == "erica_plus"))
    }
}

impl EricaConfig {
    /// Reads ERICA's keys from an `algorithm` object; absent keys take their
    /// defaults. `plus` is true for `kind: "erica_plus"`, which always runs
    /// extension 12.
    pub(crate) fn read(obj: &mut Obj<'_>, errors: &mut Errors, plus: bool) -> EricaConfig {
        let mut c = EricaConfig::default();
        macro_rules! real {
            ($key:literal, $field:ident) => {
                if let Some(x) = obj.param(spec(S, $key), errors) {
                    c.$field = x;
                }
            };
        }
        macro_rules! flag {
            ($key:literal, $field:ident) => {
                if let Some(x) = obj.flag($key, errors) {
                    c.$field = x;
                }
            };
        }
        real!("target_utilization", target_utilization);
        if let Some(x) = obj.param(spec(S, "interval_ms"), errors) {
            c.interval = SimTime::from_ms(x);
        }
        flag!("forward_ccr", forward_ccr);
        flag!("same_feedback", same_feedback);
        flag!("fair_share_first", fair_share_first);
        flag!("per_vc_ccr", per_vc_ccr);
        flag!("count_averaging", count_averaging);
        if let Some(x) = obj.param(spec(S, "interval_cells"), errors) {
            c.interval_cells = x as u32;
        }
        flag!("vbr_aware", vbr_aware);
        flag!("bidirectional_counting", bidirectional_counting);
        flag!("maxmin_fix", maxmin_fix);
        real!("delta", delta);
        flag!("average_sources", average_sources);
        real!("alpha", alpha);
        flag!("boundary_cases", boundary_cases);
        flag!("average_load", average_load);
        real!("load_decay", load_decay);
        if plus {
            c.erica_plus = true;
            if obj.flag("erica_plus", errors) == Some(false) {
                errors.push(ScenarioError::new(
                    obj.at("erica_plus"),
                    "kind \"erica_plus\" always runs queue control; use kind \"erica\" to switch it off",
                ));
            }
        } else {
            flag!("erica_plus", erica_plus);
        }
        real!("a", a);
        real!("b", b);
        if let Some(x) = obj.param(spec(S, "t0_ms"), errors) {
            c.t0 = SimTime::from_ms(x);
        }
        real!("f_min", f_min);
        c
    }
}
