//! The EFCI binary-mode switch of Ohsaki et al. (Ohsaki, Murata & Miyahara,
//! "Performance of Rate-Based Congestion Control Algorithm with Binary-Mode
//! Switch in ATM Networks", §I and §II) and its
//! relative-rate variant.
//!
//! Ohsaki et al. §I: "the congestion is detected by a predefined threshold in the
//! switch buffer. If the number of cells in the buffer exceeds this threshold
//! value, it is recognized as congestion." §II gives two thresholds, Q_H and
//! Q_L, both at half the buffer; with Q_L < Q_H they form a hysteresis:
//! congestion starts when the queue exceeds Q_H and ends when it falls below
//! Q_L. A congested port sets EFCI in the data cells it forwards; the
//! destination copies the EFCI of the last data cell into the CI bit of the
//! backward RM cell, and the source cuts its rate by RDF (Fahmy et al. §1, rules 8–9).
//!
//! Cells are marked as they leave the queue, so that the mark tells the state
//! of the queue now rather than when the cell joined it, several milliseconds
//! earlier at a full buffer: the feedback delay is then the propagation delay,
//! as in the analysis Ohsaki et al. relies on (their references \[10\]–\[12\]).
//! `mark_on_arrival` marks instead as the cell joins the queue, from the queue
//! it finds there: the mark then waits out the queue, and the feedback lags
//! by the queueing delay as well.
//!
//! Relative-rate marking (`relative_rate`, ATM Forum TM 4.0's other binary
//! switch): instead of EFCI in data cells, the switch writes into the backward
//! RM cells of the VCs it congests: CI = 1 while congested; NI = 1 while not
//! congested but the queue is above Q_L (the queue rising towards Q_H: hold
//! the rates). The source then reacts one queueing delay and one
//! destination-to-switch trip sooner.

use super::{Algorithm, AlgorithmConfig};
use super::{PortView, SwitchAlgorithm};
use crate::cell::atm::{Cell, CellKind};
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{self, Kind::*, ParamSpec, Registration, Scope, Scope::Efci as S};
use crate::scenario::ScenarioError;

/// The binary switch's knobs in the parameter registry.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "q_high_cells", scope: S, label: "Q_H (congestion threshold)", unit: "cells", default: f64::NAN, min: 1.0, max: 4_000_000.0, kind: Integer, live: true,
      doc: "Congestion starts when the queue exceeds Q_H. Absent: half the port's buffer (Ohsaki et al. §II)." },
    ParamSpec { key: "q_low_cells", scope: S, label: "Q_L (relief threshold)", unit: "cells", default: f64::NAN, min: 0.0, max: 4_000_000.0, kind: Integer, live: true,
      doc: "Congestion ends when the queue falls below Q_L (hysteresis). Absent: equal to Q_H, as in Ohsaki et al. §II." },
    ParamSpec { key: "relative_rate", scope: S, label: "Relative-rate marking", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Set CI (congested) or NI (queue above Q_L) in backward RM cells instead of EFCI in data cells." },
    ParamSpec { key: "mark_on_arrival", scope: S, label: "Mark cells as they arrive", unit: "", default: 0.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Set EFCI in a data cell as it joins the queue, from the queue it finds, instead of as it leaves. The mark then waits out the queue before it travels on, so the feedback lags by the queueing delay (8 ms at Q_H = 2,898 cells on a 150 Mbit/s link). Ohsaki et al. §I only say congestion is the queue exceeding a threshold; off: marked on leaving." },
];

/// The spec of one of this algorithm's knobs.
fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    registry::find(PARAMS, scope, key)
}

/// The binary switch's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EfciConfig {
    /// Q_H in cells; None: half the buffer.
    pub q_high: Option<u32>,
    /// Q_L in cells; None: Q_H.
    pub q_low: Option<u32>,
    /// Relative-rate marking of BRMs instead of EFCI marking of data cells.
    pub relative_rate: bool,
    /// EFCI set on a data cell as it joins the queue instead of as it leaves.
    pub mark_on_arrival: bool,
}

impl Registration for EfciConfig {
    type Config = AlgorithmConfig;
    const KINDS: &'static [&'static str] = &["efci"];
    const PARAMS: &'static [ParamSpec] = PARAMS;
    fn read(_kind: &str, obj: &mut Obj<'_>, errors: &mut Errors) -> AlgorithmConfig {
        AlgorithmConfig::Efci(EfciConfig::read(obj, errors))
    }
}

impl Algorithm for Efci {
    type Config = EfciConfig;
    fn build(config: &EfciConfig) -> Efci {
        Efci::new(*config)
    }
    fn name(&self) -> &'static str {
        "efci"
    }
    fn reconfigure(&mut self, other: &Efci) {
        self.config = other.config;
    }
}

impl EfciConfig {
    /// Reads the binary switch's keys from an `algorithm` object.
    pub(crate) fn read(obj: &mut Obj<'_>, errors: &mut Errors) -> EfciConfig {
        let q_high = obj.param(spec(S, "q_high_cells"), errors).map(|x| x as u32);
        let q_low = obj.param(spec(S, "q_low_cells"), errors).map(|x| x as u32);
        if let (Some(h), Some(l)) = (q_high, q_low) {
            if l > h {
                errors.push(ScenarioError::new(
                    obj.at("q_low_cells"),
                    format!("Q_L = {l} cells is above Q_H = {h} cells; the relief threshold must not exceed the congestion threshold"),
                ));
            }
        }
        let relative_rate = obj.flag("relative_rate", errors).unwrap_or(false);
        let mark_on_arrival = obj.flag("mark_on_arrival", errors).unwrap_or(false);
        EfciConfig { q_high, q_low, relative_rate, mark_on_arrival }
    }
}

/// The binary switch at one output port.
#[derive(Clone, Debug)]
pub struct Efci {
    pub config: EfciConfig,
    /// Whether the port is in the congested state of the hysteresis.
    pub congested: bool,
    /// Data cells marked with EFCI (or BRMs given CI) so far.
    pub marked: u64,
}

impl Efci {
    pub fn new(config: EfciConfig) -> Efci {
        Efci { config, congested: false, marked: 0 }
    }

    /// (Q_H, Q_L) for a port with `buffer_cells` of buffer.
    pub fn thresholds(&self, buffer_cells: u32) -> (u32, u32) {
        let high = self.config.q_high.unwrap_or(buffer_cells / 2);
        // A Q_L given alone above the default Q_H is held at Q_H.
        let low = self.config.q_low.unwrap_or(high).min(high);
        (high, low)
    }

    /// The hysteresis of Ohsaki et al. §II with the queue at `queue` cells.
    fn update(&mut self, queue: u32, buffer_cells: u32) {
        let (high, low) = self.thresholds(buffer_cells);
        if queue > high {
            self.congested = true;
        } else if queue < low {
            self.congested = false;
        }
    }

    /// EFCI on a data cell while congested (not in relative-rate mode).
    fn mark(&mut self, cell: &mut Cell) {
        if !self.config.relative_rate && self.congested && cell.kind == CellKind::Data {
            cell.efci = true;
            self.marked += 1;
        }
    }
}

impl SwitchAlgorithm for Efci {
    fn sees_departures(&self) -> bool {
        true
    }

    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) {
        // The queue is about to hold one more cell.
        self.update(port.queue_len + 1, port.buffer_cells);
        if self.config.mark_on_arrival {
            self.mark(cell);
        }
    }

    fn on_departure(&mut self, port: &PortView, cell: &mut Cell) {
        self.update(port.queue_len, port.buffer_cells);
        if !self.config.mark_on_arrival {
            self.mark(cell);
        }
    }

    fn on_backward_rm(&mut self, port: &PortView, cell: &mut Cell) {
        if !self.config.relative_rate {
            return;
        }
        let (_, low) = self.thresholds(port.buffer_cells);
        if self.congested {
            cell.rm.ci = true;
            self.marked += 1;
        } else if port.queue_len > low {
            cell.rm.ni = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::atm::RmFields;
    use crate::time::SimTime;

    fn view(queue_len: u32) -> PortView {
        PortView { now: SimTime::ZERO, link_cps: 353_773.6, queue_len, buffer_cells: 5796 }
    }

    fn leave(e: &mut Efci, queue_after: u32) -> Cell {
        let mut c = Cell::data(0);
        e.on_departure(&view(queue_after), &mut c);
        c
    }

    fn brm() -> Cell {
        Cell { kind: CellKind::Brm, rm: RmFields { er: 1e9, ..RmFields::EMPTY }, ..Cell::data(0) }
    }

    #[test]
    fn thresholds_default_to_half_the_buffer() {
        let e = Efci::new(EfciConfig::default());
        assert_eq!(e.thresholds(5796), (2898, 2898));
        let e = Efci::new(EfciConfig { q_high: Some(1000), ..Default::default() });
        assert_eq!(e.thresholds(5796), (1000, 1000));
        let e = Efci::new(EfciConfig { q_low: Some(4000), ..Default::default() });
        assert_eq!(e.thresholds(5796), (2898, 2898));
    }

    #[test]
    fn data_cells_are_marked_while_the_queue_exceeds_q_h() {
        let mut e = Efci::new(EfciConfig::default());
        assert!(!leave(&mut e, 2898).efci);
        e.on_arrival(&view(2898), &mut Cell::data(0));
        assert!(e.congested);
        assert!(leave(&mut e, 2899).efci);
        // Back at Q_H = Q_L: still congested until the queue is below Q_L.
        assert!(leave(&mut e, 2898).efci);
        assert!(!leave(&mut e, 2897).efci);
        // RM cells are never EFCI-marked; only data cells carry the bit.
        e.on_arrival(&view(3000), &mut Cell::data(0));
        let mut frm = Cell { kind: CellKind::Frm, ..Cell::data(0) };
        e.on_departure(&view(3000), &mut frm);
        assert!(!frm.efci);
        assert_eq!(e.marked, 2);
    }

    #[test]
    fn hysteresis_holds_the_state_between_q_l_and_q_h() {
        let mut e =
            Efci::new(EfciConfig { q_high: Some(100), q_low: Some(50), ..Default::default() });
        let states: Vec<bool> =
            [60, 101, 80, 51, 50, 49, 60, 99].iter().map(|&q| leave(&mut e, q).efci).collect();
        assert_eq!(states, [false, true, true, true, true, false, false, false]);
    }

    #[test]
    fn marking_on_arrival_reads_the_queue_a_cell_finds() {
        let mut e = Efci::new(EfciConfig {
            q_high: Some(100),
            mark_on_arrival: true,
            ..Default::default()
        });
        let join = |e: &mut Efci, queue: u32| {
            let mut c = Cell::data(0);
            e.on_arrival(&view(queue), &mut c);
            c.efci
        };
        assert!(!join(&mut e, 99));
        // The 101st cell finds 100 waiting: marked now, whatever the queue
        // is when it leaves.
        assert!(join(&mut e, 100));
        assert!(!leave(&mut e, 10).efci);
        // Leaving no longer marks: the queue has fallen below Q_L.
        let mut late = Cell::data(0);
        e.on_arrival(&view(200), &mut late);
        e.on_departure(&view(0), &mut Cell::data(0));
        assert!(late.efci && !e.congested);
        assert_eq!(e.marked, 2);
    }

    #[test]
    fn relative_rate_sets_ci_when_congested_and_ni_above_q_l() {
        let mut e = Efci::new(EfciConfig {
            q_high: Some(100),
            q_low: Some(50),
            relative_rate: true,
            ..Default::default()
        });
        let mut quiet = brm();
        e.on_backward_rm(&view(10), &mut quiet);
        assert!(!quiet.rm.ci && !quiet.rm.ni);
        let mut rising = brm();
        e.on_backward_rm(&view(70), &mut rising);
        assert!(!rising.rm.ci && rising.rm.ni);
        e.on_arrival(&view(150), &mut Cell::data(0));
        let mut congested = brm();
        e.on_backward_rm(&view(150), &mut congested);
        assert!(congested.rm.ci);
        // Relative-rate mode leaves data cells alone.
        assert!(!leave(&mut e, 150).efci);
    }

    #[test]
    fn config_refuses_q_l_above_q_h() {
        let v = serde_json::json!({"kind": "efci", "q_high_cells": 100, "q_low_cells": 200, "relative_rate": "yes"});
        let mut errors = Vec::new();
        let mut obj = Obj::new(&v, "alg", &mut errors).unwrap();
        obj.get("kind");
        EfciConfig::read(&mut obj, &mut errors);
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["alg.q_low_cells", "alg.relative_rate"]);
    }
}
