//! ERICA's parameters: the registry entries of its knobs (basic ERICA and
//! the twelve extensions of Jain et al., "Switch Algorithm Testing: A Case
//! Study with ERICA") and the configuration a scenario's `algorithm` object
//! reads into.

use super::super::AlgorithmConfig;
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{self, Kind::*, ParamSpec, Registration, Scope, Scope::Erica as S};
use crate::scenario::ScenarioError;
use crate::time::SimTime;

/// ERICA's and ERICA+'s knobs in the parameter registry.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "target_utilization", scope: S, label: "Target utilisation", unit: "", default: 0.9, min: 0.05, max: 1.0, kind: Real, live: true,
      doc: "ERICA fills this fraction of the link (Jain et al. 'ERICA Scheme: Basic'; 95 % LAN, 90 % WAN in its tests). ERICA+ replaces it by f(Tq)." },
    ParamSpec { key: "interval_ms", scope: S, label: "Averaging interval", unit: "ms", default: 5.0, min: 0.01, max: 1000.0, kind: Real, live: true,
      doc: "ERICA measures input rate and active VCs over this interval (Jain et al. uses 1 ms)." },
    ParamSpec { key: "forward_ccr", scope: S, label: "Forward CCR (ext. 1)", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Where the switch reads a VC's current rate (CCR). On: from the VC's forward RM cells as they arrive, kept per VC (Jain et al., 'Switch Algorithm Testing: A Case Study with ERICA', extension 1 'Forward CCR': the CCR a backward RM cell carries is a loop old). Off: from the backward RM cell being given feedback, as basic ERICA does." },
    ParamSpec { key: "ccr_interval_mean", scope: S, label: "Forward CCR: interval mean", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "With forward CCR: divide by the load factor z the mean CCR of the VC's forward RM cells in the interval z was measured on, so the rate and the load it caused go together. Off: the VC's latest forward RM cell's CCR, as the independent YATS simulator's ERICA does; a source that already followed the last feedback is then corrected twice, and on a chain with short links a trunk can settle fully busy with a growing queue." },
    ParamSpec { key: "forward_er", scope: S, label: "ER on forward RM cells", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Where the switch writes its explicit rate. On: on forward RM cells as they leave the port and again on backward RM cells; the destination copies the forward value back, so the source gets the smaller (as YATS's ERICA does; Jain et al. 'ERICA Scheme: Basic': ER in cell ← min(ER in cell, ER calculated)). Off: on backward RM cells only, as basic ERICA does." },
    ParamSpec { key: "rm_first", scope: S, label: "RM cells skip the queue", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "On: RM cells waiting at this port are sent before ABR data cells (after CBR/VBR), so the rate a cell carries does not age in a long queue and feedback is not delayed by it (as YATS's ERICA port does). Off: RM cells wait in line with data, as basic ERICA assumes." },
    ParamSpec { key: "same_feedback", scope: S, label: "Same feedback in one interval (ext. 2)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 2: a VC gets one ER per averaging interval, however many RM cells it sends, against oscillations of high-rate sources." },
    ParamSpec { key: "fair_share_first", scope: S, label: "Fair share first (ext. 3)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 3: a VC below the fair share is raised only to the fair share, against transient overloads when sources start." },
    ParamSpec { key: "per_vc_ccr", scope: S, label: "Per-VC CCR measurement (ext. 4)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 4: use each VC's measured cell rate instead of the CCR it declares: a switch-based 'use it or lose it'." },
    ParamSpec { key: "count_averaging", scope: S, label: "Time + count averaging (ext. 5)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 5: end the averaging interval after interval_ms or interval_cells ABR cells, whichever comes first." },
    ParamSpec { key: "interval_cells", scope: S, label: "Averaging interval (cells)", unit: "cells", default: 100.0, min: 1.0, max: 1_000_000.0, kind: Integer, live: true,
      doc: "With extension 5, the interval also ends after this many ABR cells (Jain et al.: 50 in LANs, 100 in WANs)." },
    ParamSpec { key: "vbr_aware", scope: S, label: "ERICA with VBR (ext. 6)", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 6: ABR capacity = target × link rate − CBR/VBR rate. Off: the switch does not see CBR/VBR cells." },
    ParamSpec { key: "bidirectional_counting", scope: S, label: "Bi-directional counting (ext. 7)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 7: count a VC as active if seen in the last interval or in this one so far, forward cells or backward RM cells." },
    ParamSpec { key: "maxmin_fix", scope: S, label: "Max-min fairness fix (ext. 8)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 8: when overload ≤ 1 + δ, give at least the largest ER of the previous interval, so VCs bottlenecked here converge to max-min." },
    ParamSpec { key: "delta", scope: S, label: "Fairness fix δ", unit: "", default: 0.1, min: 0.0, max: 1.0, kind: Real, live: true,
      doc: "Extension 8 applies while overload ≤ 1 + δ (0.1 as in the ERICA+ listing)." },
    ParamSpec { key: "average_sources", scope: S, label: "Averaging of number of sources (ext. 9)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 9: a VC's activity is 1 when seen and decays by α every interval it is not; the active count is their sum." },
    ParamSpec { key: "alpha", scope: S, label: "Activity decay α", unit: "", default: 0.99, min: 0.0, max: 1.0, kind: Real, live: true,
      doc: "Extension 9's decay factor per unseen interval (Jain et al. gives no value). 0.99 is chosen here: with Jain et al.'s intervals of 50–100 cells, about 0.3 ms at full load, a silent VC still counts half after some 20 ms, a WAN round trip." },
    ParamSpec { key: "boundary_cases", scope: S, label: "Boundary cases (ext. 10)", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 10: zero capacity gives ER 0, zero input gives C/N, and N < 1 counts as 1. Off: the bare formulas (zero input gives the whole capacity)." },
    ParamSpec { key: "average_load", scope: S, label: "Averaging of load factor (ext. 11)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 11: average the cells seen and the time separately over past intervals, then divide." },
    ParamSpec { key: "load_decay", scope: S, label: "Load averaging decay", unit: "", default: 0.8, min: 0.0, max: 0.99, kind: Real, live: true,
      doc: "Extension 11's weight of the past per interval (Jain et al. gives no value). 0.8 is chosen here: a memory of about five intervals, enough to quiet the per-interval noise of 50–100-cell intervals." },
    ParamSpec { key: "erica_plus", scope: S, label: "ERICA+ queue control (ext. 12)", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Extension 12: ABR capacity = (link rate − VBR rate) × f(Tq), Tq the queueing delay; replaces the target utilisation." },
    ParamSpec { key: "a", scope: S, label: "ERICA+ a", unit: "", default: 1.15, min: 1.0, max: 4.0, kind: Real, live: true,
      doc: "f(Tq) = a·T0/((a−1)·Tq + T0) below T0: the over-allocation with an empty queue (Jain et al.: 1.15)." },
    ParamSpec { key: "b", scope: S, label: "ERICA+ b", unit: "", default: 1.05, min: 1.0, max: 4.0, kind: Real, live: true,
      doc: "f(Tq) = max(Fmin, b·T0/((b−1)·Tq + T0)) above T0 (Jain et al.: 1.05)." },
    ParamSpec { key: "t0_ms", scope: S, label: "ERICA+ T0", unit: "ms", default: 0.5, min: 0.001, max: 100.0, kind: Real, live: true,
      doc: "ERICA+ queueing-delay target (Jain et al.: 100 µs LAN, 500 µs WAN)." },
    ParamSpec { key: "f_min", scope: S, label: "ERICA+ Fmin", unit: "", default: 0.5, min: 0.01, max: 1.0, kind: Real, live: true,
      doc: "Lower bound of f(Tq): at least this share of the capacity stays for data while queues drain (Jain et al.: 0.5)." },
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
    /// Extension 1: read CCR from forward RM cells (the latest per VC)
    /// instead of the backward RM cell given feedback.
    pub forward_ccr: bool,
    /// Read as `kind: "erica_basic"`: the feedback-timing options above
    /// default to basic ERICA's ([`EricaConfig::basic`]).
    pub basic: bool,
    /// With extension 1: the mean CCR of the interval z was measured on
    /// (the default) instead of the latest.
    pub ccr_interval_mean: bool,
    /// Write ER on forward RM cells as they leave, as well as on backward ones.
    pub forward_er: bool,
    /// RM cells waiting at the port go before ABR data cells.
    pub rm_first: bool,
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
            basic: false,
            ccr_interval_mean: on("ccr_interval_mean"),
            forward_er: on("forward_er"),
            rm_first: on("rm_first"),
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
    const KINDS: &'static [&'static str] = &["erica", "erica_basic", "erica_plus"];
    const PARAMS: &'static [ParamSpec] = PARAMS;
    fn read(kind: &str, obj: &mut Obj<'_>, errors: &mut Errors) -> AlgorithmConfig {
        AlgorithmConfig::Erica(EricaConfig::read(obj, errors, kind))
    }
}

impl EricaConfig {
    /// Basic ERICA's feedback timing (`kind: "erica_basic"`), the scheme as
    /// first proposed (Jain et al., "ERICA Scheme: Basic"): CCR read from
    /// the backward RM cell given feedback, ER written on backward RM cells
    /// only, RM cells queued with data. On a chain of switches it can hold
    /// a link above its target with a queue that keeps growing, which is
    /// what extension 1 ("CCR in backward direction is too old") answers.
    pub fn basic() -> EricaConfig {
        EricaConfig {
            basic: true,
            forward_ccr: false,
            forward_er: false,
            rm_first: false,
            ..EricaConfig::default()
        }
    }

    /// Reads ERICA's keys from an `algorithm` object of `kind` ("erica",
    /// "erica_basic" or "erica_plus"); absent keys take the kind's
    /// defaults. `erica_plus` always runs extension 12.
    pub(crate) fn read(obj: &mut Obj<'_>, errors: &mut Errors, kind: &str) -> EricaConfig {
        let plus = kind == "erica_plus";
        let mut c =
            if kind == "erica_basic" { EricaConfig::basic() } else { EricaConfig::default() };
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
        flag!("ccr_interval_mean", ccr_interval_mean);
        flag!("forward_er", forward_er);
        flag!("rm_first", rm_first);
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
