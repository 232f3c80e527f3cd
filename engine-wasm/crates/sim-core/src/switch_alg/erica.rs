//! ERICA, the Explicit Rate Indication for Congestion Avoidance scheme, basic
//! form — seed 004, slide "ERICA Scheme: Basic" (Jain et al., "Switch Algorithm
//! Testing: A Case Study with ERICA"), as SPEC §5.2 states it:
//!
//! ```text
//! ABR capacity = target utilisation × link rate − CBR/VBR rate
//! overload z   = ABR input rate / ABR capacity
//! fair share   = ABR capacity / number of active VCs
//! VC share     = CCR / z
//! ER           = min(max(fair share, VC share), ABR capacity)
//! ER in cell   = min(ER in cell, ER)
//! ```
//!
//! Measurements are taken over an averaging interval of fixed length; feedback
//! is written into backward RM cells as they pass the switch. Basic ERICA uses
//! the CCR the BRM carries (the CCR the source put in the FRM, a whole loop
//! plus queueing delay old). With extension 1, "forward CCR" (seed 004 slide
//! "1. Innovation: Use forward CCR"), the switch reads CCR from forward RM
//! cells into a per-VC table and uses the freshest value. All rates are in
//! cells per second and include RM cells, as the source's ACR does.

use super::{PortView, SwitchAlgorithm};
use crate::net::{Cell, CellKind};
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{p, Kind::*, ParamSpec, Scope::Erica as S};
use crate::time::SimTime;

/// ERICA's knobs in the parameter registry.
pub static PARAMS: &[ParamSpec] = &[
    p("target_utilization", S, "Target utilisation", "", 0.9, 0.05, 1.0, Real, true,
      "ERICA fills this fraction of the link (seed 004 'ERICA Scheme: Basic')."),
    p("interval_ms", S, "Averaging interval", "ms", 5.0, 0.01, 1000.0, Real, true,
      "ERICA measures input rate and active VCs over this interval."),
    p("forward_ccr", S, "Forward CCR (ext. 1)", "", 0.0, 0.0, 1.0, Bool, true,
      "Extension 1: read CCR from forward RM cells and give feedback in backward ones, shortening the loop (seed 004)."),
];

/// ERICA's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EricaConfig {
    /// Fraction of the link rate ERICA aims to fill (seed 004: "say, at 95 %").
    pub target_utilization: f64,
    /// Length of the averaging interval.
    pub interval: SimTime,
    /// Extension 1: read CCR from forward RM cells instead of backward ones.
    pub forward_ccr: bool,
}

impl EricaConfig {
    /// Reads ERICA's keys from an `algorithm` object; absent keys take their defaults.
    pub(crate) fn read(obj: &mut Obj, errors: &mut Errors) -> EricaConfig {
        let d = |k| crate::scenario::registry::spec(S, k).default;
        EricaConfig {
            target_utilization: obj.param(S, "target_utilization", errors).unwrap_or(d("target_utilization")),
            interval: SimTime::from_ms(obj.param(S, "interval_ms", errors).unwrap_or(d("interval_ms"))),
            forward_ccr: obj.flag("forward_ccr", errors).unwrap_or(d("forward_ccr") != 0.0),
        }
    }
}

/// The measurements of the last complete averaging interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EricaMeasurement {
    pub abr_capacity: f64,
    pub overload: f64,
    pub fair_share: f64,
    pub active_vcs: u32,
}

/// ERICA's state at one output port.
#[derive(Clone, Debug)]
pub struct Erica {
    pub config: EricaConfig,
    interval_start: SimTime,
    /// Interval number, starting at 1, stamped into `vc_seen`.
    interval_no: u32,
    abr_cells: u64,
    other_cells: u64,
    active: u32,
    vc_seen: Vec<u32>,
    /// The CCR last read from each VC's forward RM cells (extension 1); NaN before any.
    forward_ccr: Vec<f64>,
    /// None until the first interval has completed: no feedback before then.
    pub measurement: Option<EricaMeasurement>,
}

impl Erica {
    /// ERICA at a port that `vc_count` VCs might cross.
    pub fn new(config: EricaConfig, vc_count: usize) -> Erica {
        Erica {
            config,
            interval_start: SimTime::ZERO,
            interval_no: 1,
            abr_cells: 0,
            other_cells: 0,
            active: 0,
            vc_seen: vec![0; vc_count],
            forward_ccr: vec![f64::NAN; vc_count],
            measurement: None,
        }
    }

    /// The explicit rate ERICA computes for a VC whose current cell rate is `ccr`.
    pub fn explicit_rate(&self, ccr: f64) -> Option<f64> {
        let m = self.measurement?;
        let vc_share = if m.overload > 0.0 { ccr / m.overload } else { m.abr_capacity };
        Some(m.fair_share.max(vc_share).min(m.abr_capacity))
    }
}

impl SwitchAlgorithm for Erica {
    fn on_arrival(&mut self, _port: &PortView, cell: &mut Cell) {
        if !cell.is_abr() {
            // CBR/VBR: its rate is taken out of the ABR capacity.
            self.other_cells += 1;
            return;
        }
        self.abr_cells += 1;
        // A VC is active at this port when its forward cells pass through it.
        if cell.kind == CellKind::Frm {
            self.forward_ccr[cell.vc as usize] = cell.rm.ccr;
        }
        if cell.kind != CellKind::Brm {
            let seen = &mut self.vc_seen[cell.vc as usize];
            if *seen != self.interval_no {
                *seen = self.interval_no;
                self.active += 1;
            }
        }
    }

    fn on_backward_rm(&mut self, _port: &PortView, cell: &mut Cell) {
        let fresh = self.forward_ccr[cell.vc as usize];
        let ccr = if self.config.forward_ccr && !fresh.is_nan() { fresh } else { cell.rm.ccr };
        if let Some(er) = self.explicit_rate(ccr) {
            cell.rm.er = cell.rm.er.min(er);
        }
    }

    fn first_tick(&self, now: SimTime) -> Option<SimTime> {
        Some(now + self.config.interval)
    }

    fn on_tick(&mut self, port: &PortView) -> Option<SimTime> {
        let span = (port.now.0 - self.interval_start.0) as f64 / crate::time::PS_PER_S;
        if span > 0.0 {
            let input_rate = self.abr_cells as f64 / span;
            let other_rate = self.other_cells as f64 / span;
            let abr_capacity =
                (self.config.target_utilization * port.link_cps - other_rate).max(port.link_cps * 1e-6);
            self.measurement = Some(EricaMeasurement {
                abr_capacity,
                overload: input_rate / abr_capacity,
                fair_share: abr_capacity / self.active.max(1) as f64,
                active_vcs: self.active,
            });
        }
        self.interval_start = port.now;
        self.interval_no = self.interval_no.wrapping_add(1).max(1);
        self.abr_cells = 0;
        self.other_cells = 0;
        self.active = 0;
        Some(port.now + self.config.interval)
    }

    fn abr_capacity_cps(&self, link_cps: f64) -> f64 {
        self.config.target_utilization * link_cps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::RmFields;

    const LINK: f64 = 366_792.45;

    fn view(ms: f64) -> PortView {
        PortView { now: SimTime::from_ms(ms), link_cps: LINK, queue_len: 0, buffer_cells: 1000 }
    }

    fn erica(vcs: usize) -> Erica {
        Erica::new(EricaConfig { target_utilization: 0.9, interval: SimTime::from_ms(1.0), forward_ccr: false }, vcs)
    }

    fn feed(e: &mut Erica, vc: u32, cells: u32) {
        for _ in 0..cells {
            e.on_arrival(&view(0.0), &mut Cell::data(vc));
        }
    }

    fn brm(vc: u32, ccr: f64, er: f64) -> Cell {
        Cell { kind: CellKind::Brm, rm: RmFields { ccr, er, ..RmFields::EMPTY }, ..Cell::data(vc) }
    }

    #[test]
    fn no_feedback_before_the_first_interval() {
        let mut e = erica(1);
        let mut c = brm(0, 1000.0, 5000.0);
        e.on_backward_rm(&view(0.5), &mut c);
        assert_eq!(c.rm.er, 5000.0);
    }

    #[test]
    fn one_overloading_vc_is_brought_to_the_target() {
        let mut e = erica(1);
        // 400 cells in 1 ms = 400,000 cells/s against a capacity of 330,113.
        feed(&mut e, 0, 400);
        e.on_tick(&view(1.0));
        let m = e.measurement.unwrap();
        assert!((m.abr_capacity - 0.9 * LINK).abs() < 1e-6);
        assert!((m.overload - 400_000.0 / (0.9 * LINK)).abs() < 1e-9);
        let mut c = brm(0, 400_000.0, LINK);
        e.on_backward_rm(&view(1.5), &mut c);
        assert!((c.rm.er - 0.9 * LINK).abs() < 1e-6);
    }

    #[test]
    fn two_vcs_share_the_capacity_and_er_is_never_raised() {
        let mut e = erica(2);
        feed(&mut e, 0, 300);
        feed(&mut e, 1, 300);
        e.on_tick(&view(1.0));
        let fair = 0.9 * LINK / 2.0;
        assert!((e.measurement.unwrap().fair_share - fair).abs() < 1e-6);
        let mut c = brm(1, 300_000.0, LINK);
        e.on_backward_rm(&view(1.2), &mut c);
        // VC share = 300,000 / (600,000 / 330,113) ≈ 165,057 = fair share.
        assert!((c.rm.er - fair).abs() < 1.0);
        let mut low = brm(1, 300_000.0, 1000.0);
        e.on_backward_rm(&view(1.2), &mut low);
        assert_eq!(low.rm.er, 1000.0);
    }

    #[test]
    fn extension_1_forward_ccr_uses_the_freshest_ccr() {
        for forward in [false, true] {
            let mut e = erica(2);
            e.config.forward_ccr = forward;
            feed(&mut e, 0, 300);
            feed(&mut e, 1, 300);
            // VC 0's latest FRM says it already slowed to 60,000 cells/s.
            let mut frm = Cell { kind: CellKind::Frm, rm: RmFields { ccr: 60_000.0, ..RmFields::EMPTY }, ..Cell::data(0) };
            e.on_arrival(&view(0.9), &mut frm);
            e.on_tick(&view(1.0));
            // Its BRM still carries the stale CCR of 400,000.
            let mut c = brm(0, 400_000.0, LINK);
            e.on_backward_rm(&view(1.2), &mut c);
            let z = 601.0 / 1000.0 * 1e6 / (0.9 * LINK);
            let fair = 0.9 * LINK / 2.0;
            let expect = if forward { fair.max(60_000.0 / z) } else { fair.max(400_000.0 / z) };
            assert!((c.rm.er - expect).abs() < 1e-6, "forward={forward}: {} != {expect}", c.rm.er);
        }
    }

    #[test]
    fn an_underloaded_port_lets_a_vc_climb_to_capacity() {
        let mut e = erica(2);
        feed(&mut e, 0, 10);
        e.on_tick(&view(1.0));
        let mut c = brm(0, 10_000.0, LINK);
        e.on_backward_rm(&view(1.2), &mut c);
        // z = 10,000 / 330,113: VC share = 330,113 = capacity; fair share of one VC too.
        assert!((c.rm.er - 0.9 * LINK).abs() < 1e-6);
    }
}
