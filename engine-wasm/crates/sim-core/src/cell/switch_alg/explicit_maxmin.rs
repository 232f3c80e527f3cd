//! The explicit-rate max-min switch with queue management of Ma & Ramakrishnan,
//! "Queue Management for Explicit Rate Based Congestion Control" (Ma & Ramakrishnan).
//!
//! Two parts, one per section of the paper:
//!
//! * **Local max-min allocation** (§2.2). On each forward RM cell of VC i the
//!   port computes the bottleneck share of equation 1,
//!   `A_B = (C − Σ_{j∈S} A_j) / (N − |S|)`, where S is the set of VCs
//!   satisfied elsewhere (or by their own rate) and A_j the allocations
//!   recorded when their own RM cells passed. The iteration of §2.2 (steps
//!   1–5) drops from S every VC whose recorded rate is not below the share.
//!   Then VC i is marked: bottlenecked with `A_i = A_B` when
//!   `A_B ≤ min(ER_i, CCR_i)`, else satisfied with `A_i = min(ER_i, CCR_i)`;
//!   and `A_B` is written into the RM cell's ER field when it is lower.
//!   [`MaxMinTable`] keeps the count of bottlenecked VCs and the sum of the
//!   satisfied allocations, so a bottlenecked VC's RM cell costs O(1) and a
//!   satisfied VC's O(log N) (its entry in the ordered set moves); the
//!   iteration visits only the satisfied VCs whose rates reach the share,
//!   none in the steady state.
//!
//! * **Queue management** (§4.2 and the pseudo-code of Figure 14): when the
//!   queue exceeds the set-point S, the capacity shared by the VCs
//!   bottlenecked here is reduced by the quadratic `R(x)` of equation 2
//!   through (S, 0), (2S, M/4), (3S, M), capped at M; how much queue the
//!   reduction has already removed is tracked per regeneration cycle as a
//!   "virtual queue" (equation 3); when the queue is back under S the
//!   capacity is given back slowly, at most one maximum RTT long.
//!   [`ExplicitMaxMin::rate_reduction`] is Figure 14 line by line: each
//!   line's number is in a comment beside it.
//!
//! Where the figure leaves something open, this reading is taken (each is
//! noted again at its line):
//! * RTT_clock (lines 5–10) is a time stamp: started (← t) when the queue
//!   falls below S after a reduction, reset when the queue is at or above S;
//!   "stopped" (← 0) means every later RM cell clears its VC's reduction.
//!   With many VCs a VC's window lasts until it has taken one bounded step,
//!   the §5.3 enhancement for RM intervals longer than the RTT.
//! * vc.prev_rm_time is kept at every RM cell of the VC (equation 3's t_vc),
//!   not only in the reducing branch (line 33).
//! * Lines 40–46 bound the ER while the port reduces and during each VC's
//!   recovery window, not outside them (vc.reducing_cap = 0 there would
//!   freeze the ER for good); inside them a VC with no part in the
//!   reduction is bounded by inc2 alone, and a satisfied VC whose ER the
//!   bound lowered is booked at that ER rather than its lagging CCR.
//! * The set-up of the RM start-up option runs the same procedure as an RM
//!   cell; the RATE option only computes the share (Ma & Ramakrishnan §3).
//! * p.bottleneck, "the number of bottlenecked VCs" that lines 34–35 and 42
//!   divide the reduction and the recovery step by, counts the VCs whose
//!   demand (the ER field of their last RM cell) reached this port's share:
//!   the VCs this link limits (§4.2.2, "the total capacity reduction for the
//!   link over the number of bottlenecked VCs using the link"). §2.2's
//!   booking of a VC whose CCR lags a little under the share as satisfied at
//!   that CCR is kept for the sum of equation 1, but not for this count: with
//!   hundreds of VCs at nearly the same rate that booking swings between all
//!   and none of them as the reduction moves, and each of the few left
//!   counted would take a large slice of the reduction and of the recovery.
//!
//! All rates are in cells per second, as the source's ACR is.

pub use super::maxmin_table::{Class, MaxMinTable};
use super::{Algorithm, AlgorithmConfig};
use super::{PortView, Setup, SwitchAlgorithm};
use crate::cell::atm::{Cell, CellKind};
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{
    self, Kind::*, ParamSpec, Registration, Scope, Scope::ExplicitMaxMin as S,
};
use crate::time::SimTime;

/// The explicit max-min switch's knobs in the parameter registry.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "queue_management", scope: S, label: "Queue management", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Reduce the capacity given to VCs bottlenecked here while the queue is above the set-point (Ma & Ramakrishnan §4, Figure 14). Off: plain max-min allocation of the full capacity (Ma & Ramakrishnan §3)." },
    ParamSpec { key: "set_point_cells", scope: S, label: "Set-point S", unit: "cells", default: 600.0, min: 1.0, max: 1_000_000.0, kind: Integer, live: true,
      doc: "Queue length above which the capacity is reduced; 600 cells (about 2 ms at 155 Mbit/s) in Ma & Ramakrishnan §4.2.1." },
    ParamSpec { key: "max_reduction", scope: S, label: "Maximum reduction M", unit: "", default: 0.1, min: 0.0, max: 0.5, kind: Real, live: true,
      doc: "Ceiling M of the reduction R(x), as a fraction of the ABR capacity; 10 % in Ma & Ramakrishnan §4.2.1." },
    ParamSpec { key: "max_rtt_ms", scope: S, label: "Maximum RTT", unit: "ms", default: 20.0, min: 0.001, max: 10_000.0, kind: Real, live: true,
      doc: "The longest round trip of the VCs through this port, as known from set-up: capacity is given back over one such RTT (Ma & Ramakrishnan §4.2.3, Figure 14 lines 7 and 41)." },
    ParamSpec { key: "capacity_interval_ms", scope: S, label: "Capacity interval", unit: "ms", default: 1.0, min: 0.01, max: 1000.0, kind: Real, live: true,
      doc: "The ABR capacity is the link rate minus the CBR/VBR rate measured over this interval (Figure 14 line 1, ABR_capacity)." },
    ParamSpec { key: "vc_timeout_ms", scope: S, label: "Idle VC timeout", unit: "ms", default: 1000.0, min: 0.0, max: 36_000_000.0, kind: Real, live: true,
      doc: "A VC that sends no RM cell for this long stops being counted in the max-min share; 0 keeps every VC for ever. Not in Ma & Ramakrishnan, whose VCs never stop." },
];

/// The spec of one of this algorithm's knobs.
fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    registry::find(PARAMS, scope, key)
}

/// The explicit max-min switch's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExplicitMaxMinConfig {
    /// Whether Figure 14's rate reduction runs (Ma & Ramakrishnan §4) or the full capacity is shared (§3).
    pub queue_management: bool,
    /// Set-point S, in cells.
    pub set_point: f64,
    /// M as a fraction of the ABR capacity.
    pub max_reduction: f64,
    /// p.max_RTT of Figure 14.
    pub max_rtt: SimTime,
    /// Interval over which the background rate is measured.
    pub capacity_interval: SimTime,
    /// Idle time after which a VC is forgotten; zero: never.
    pub vc_timeout: SimTime,
}

impl Registration for ExplicitMaxMinConfig {
    type Config = AlgorithmConfig;
    const KINDS: &'static [&'static str] = &["explicit_maxmin"];
    const PARAMS: &'static [ParamSpec] = PARAMS;
    fn read(_kind: &str, obj: &mut Obj<'_>, errors: &mut Errors) -> AlgorithmConfig {
        AlgorithmConfig::ExplicitMaxMin(ExplicitMaxMinConfig::read(obj, errors))
    }
}

impl Algorithm for ExplicitMaxMin {
    type Config = ExplicitMaxMinConfig;
    fn build(config: &ExplicitMaxMinConfig) -> ExplicitMaxMin {
        ExplicitMaxMin::new(*config)
    }
    fn name(&self) -> &'static str {
        "explicit_maxmin"
    }
    fn reconfigure(&mut self, other: &ExplicitMaxMin) {
        self.config = other.config;
    }
    fn set_members(&mut self, members: Vec<u32>) {
        if let Some(&first) = members.first() {
            self.table.start_at(first);
        }
    }
}

impl ExplicitMaxMinConfig {
    /// Reads the keys from an `algorithm` object; absent keys take their defaults.
    pub(crate) fn read(obj: &mut Obj<'_>, errors: &mut Errors) -> ExplicitMaxMinConfig {
        let d = |k| spec(S, k).default;
        let mut num = |k: &'static str| obj.param(spec(S, k), errors).unwrap_or(d(k));
        let set_point = num("set_point_cells");
        let max_reduction = num("max_reduction");
        let max_rtt = SimTime::from_ms(num("max_rtt_ms"));
        let capacity_interval = SimTime::from_ms(num("capacity_interval_ms"));
        let vc_timeout = SimTime::from_ms(num("vc_timeout_ms"));
        ExplicitMaxMinConfig {
            queue_management: obj
                .flag("queue_management", errors)
                .unwrap_or(d("queue_management") != 0.0),
            set_point,
            max_reduction,
            max_rtt,
            capacity_interval,
            vc_timeout,
        }
    }
}

impl Default for ExplicitMaxMinConfig {
    fn default() -> Self {
        ExplicitMaxMinConfig {
            queue_management: true,
            set_point: 600.0,
            max_reduction: 0.1,
            max_rtt: SimTime::from_ms(20.0),
            capacity_interval: SimTime::from_ms(1.0),
            vc_timeout: SimTime::from_ms(1000.0),
        }
    }
}

/// The quadratic rate reduction of equation 2, `R(x) = a(x−S)² + b(x−S) + c`
/// through (S, 0), (2S, M/4) and (3S, M) (Ma & Ramakrishnan §4.2.1, Figure 8). Those
/// points give c = 0, b = 0 and a = M/(4S²); R is 0 below S and held at M
/// above 3S.
pub fn reduction(queue: f64, set_point: f64, max: f64) -> f64 {
    if queue <= set_point {
        return 0.0;
    }
    let over = queue - set_point;
    (max * over * over / (4.0 * set_point * set_point)).min(max)
}

/// Where the port is in a cycle of reduction and recovery: Figure 14's
/// RTT_clock (lines 5–10) and the phase it implies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RttClock {
    /// No reduction since the start: nothing to recover from (the figure's
    /// RTT_clock < 0; starting it here would only freeze the ERs for one RTT).
    Idle,
    /// The queue is at or above S: reducing.
    Reducing,
    /// The queue fell below S at this time after reducing (RTT_clock ← t):
    /// slow recovery, one maximum RTT long for each VC.
    Since(SimTime),
}

/// The per-port variables of Figure 14 (Ma & Ramakrishnan §4.2.2, "The state
/// maintained at each link").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueControl {
    /// p.reducing_cap: capacity taken from the bottlenecked VCs now.
    pub reducing_cap: f64,
    /// p.reduced_q: queue removed by the reduction so far in this cycle.
    pub reduced_q: f64,
    /// p.max_queue: the largest queue of this regeneration cycle.
    pub max_queue: f64,
    /// p.prev_q: the queue at the previous RM cell.
    pub prev_q: f64,
    /// RTT_clock.
    pub rtt_clock: RttClock,
    /// v_q at the last RM cell of a bottlenecked VC: the virtual queue.
    pub virtual_queue: f64,
}

impl Default for QueueControl {
    fn default() -> Self {
        QueueControl {
            reducing_cap: 0.0,
            reduced_q: 0.0,
            max_queue: 0.0,
            prev_q: 0.0,
            rtt_clock: RttClock::Idle,
            virtual_queue: 0.0,
        }
    }
}

/// Measures the CBR/VBR rate crossing the port, to give ABR the rest.
#[derive(Clone, Copy, Debug, Default)]
struct CapacityMeter {
    window_start: SimTime,
    background_cells: u64,
    background_cps: f64,
}

impl CapacityMeter {
    /// Closes the measurement window when it has run its length.
    fn roll(&mut self, now: SimTime, interval: SimTime) {
        let span = now.0.saturating_sub(self.window_start.0);
        if span >= interval.0 && span > 0 {
            self.background_cps =
                self.background_cells as f64 / (span as f64 / crate::time::PS_PER_S);
            self.background_cells = 0;
            self.window_start = now;
        }
    }
}

/// The explicit max-min switch at one output port.
#[derive(Clone, Debug)]
pub struct ExplicitMaxMin {
    pub config: ExplicitMaxMinConfig,
    pub table: MaxMinTable,
    pub control: QueueControl,
    meter: CapacityMeter,
}

impl ExplicitMaxMin {
    /// The switch at a port, with no VC known yet.
    pub fn new(config: ExplicitMaxMinConfig) -> ExplicitMaxMin {
        ExplicitMaxMin {
            config,
            table: MaxMinTable::default(),
            control: QueueControl::default(),
            meter: CapacityMeter::default(),
        }
    }

    /// ABR_capacity(p) of Figure 14 line 1: the link rate less the measured
    /// CBR/VBR rate (which has strict priority), never below 0.1 % of the link.
    pub fn abr_capacity(&self, link_cps: f64) -> f64 {
        (link_cps - self.meter.background_cps).max(link_cps * 1e-3)
    }

    /// Figure 14, Rate_Reduction(p, vc), for an RM cell of `vc` carrying
    /// `er` and `ccr` that finds `queue` cells at the port at `now`. Returns
    /// the ER this port allows the VC (vc.ER after line 46).
    pub fn rate_reduction(
        &mut self,
        now: SimTime,
        queue: u32,
        link_cps: f64,
        vc: u32,
        er: f64,
        ccr: f64,
    ) -> f64 {
        let s = self.config.set_point;
        let cap = self.abr_capacity(link_cps); // line 1
        let q = queue as f64; // line 2
        let t = now; // line 3
        let max_red = self.config.max_reduction * cap; // MAX_RED = M
                                                       // vc.rm_intval and t − vc.prev_rm_time (line 19). Equation 3 and the
                                                       // state list of §4.2.2 define t_vc as the time of the VC's previous
                                                       // RM cell, whichever branch it took, so it is kept at every RM cell
                                                       // (Figure 14 updates it only at line 33, inside the reducing branch;
                                                       // the two agree while a VC stays bottlenecked above S).
        let v = self.table.state(vc);
        let rm_intval = v.last_rm.map_or(0.0, |prev| (t.0 - prev.0) as f64 / crate::time::PS_PER_S);
        if v.last_rm.is_some() {
            v.rm_interval = rm_intval;
        }
        v.last_rm = Some(t);
        let bottlenecked = v.class == Class::Bottlenecked;
        let p = &mut self.control;
        // p.bottleneck (lines 34 and 42): the VCs this port limits, counted by
        // their demand rather than by the class §2.2 books them in (see
        // `MaxMinTable::limited_here`).
        let count = |t: &MaxMinTable| t.limited_here().max(1) as f64;
        let mut num_b = count(&self.table);

        // Whether lines 40–46 bound this VC's ER: while the port reduces,
        // and after the drain for the VC's recovery window (§4.2.3: "a
        // ceiling function is applied to this increase for an interval of up
        // to one maximum round-trip time").
        let mut bounded = false;
        let new_cap = if !self.config.queue_management {
            cap
        } else if q < s {
            // line 4: the queue is below the set-point
            match p.rtt_clock {
                RttClock::Idle => {}
                RttClock::Reducing => {
                    // lines 5–6: the queue has just drained: start the clock
                    p.rtt_clock = RttClock::Since(t);
                    bounded = true;
                }
                RttClock::Since(start) => {
                    // line 7: one maximum RTT since the queue drained. With
                    // many VCs the time between a VC's RM cells exceeds the
                    // RTT (§5.3): the VC's recovery then lasts until its
                    // previous RM cell too came after the drain, so that it
                    // has taken at least one bounded step before its
                    // reduction is forgotten.
                    let window = self.config.max_rtt.as_secs().max(rm_intval);
                    if (t.0 - start.0) as f64 / crate::time::PS_PER_S > window {
                        self.table.state(vc).reducing_cap = 0.0; // line 8
                    } else {
                        bounded = true;
                    }
                    // line 9: the figure then stops the clock (RTT_clock ← 0),
                    // so that every later RM cell below S clears its VC; the
                    // start time is kept instead, to time each VC's window.
                }
            } // lines 10–11
            p.reducing_cap = 0.0; // line 12
            p.reduced_q = 0.0; // line 13
            p.max_queue = q; // line 14
            p.prev_q = q; // line 14
            cap // line 15
        } else {
            // At or above S: reducing. The recovery clock starts afresh when
            // the queue next falls below S (the figure leaves the reset of
            // RTT_clock implicit).
            p.rtt_clock = RttClock::Reducing;
            bounded = true;
            if !bottlenecked {
                // line 16: the VC is not bottlenecked here
                cap - p.reducing_cap // line 17
            } else {
                // line 18
                let vc_reducing_cap = self.table.state(vc).reducing_cap;
                let v_red_q = rm_intval * vc_reducing_cap; // lines 19–20 (equation 3)
                p.reduced_q += v_red_q; // line 21
                let r_red_q = q - p.prev_q; // line 22
                let v_q = p.max_queue - p.reduced_q; // line 23
                if r_red_q > v_red_q && v_q < q {
                    // line 24: the real queue grew past the virtual one: new cycle
                    p.max_queue = q; // line 25
                    p.reduced_q = 0.0; // line 26
                } // line 27
                if v_q <= s {
                    // line 28: the virtual queue reached the set-point; what
                    // is left in the real queue (b_rem, §4.2.2) is the next
                    // amount to reduce
                    p.max_queue = q; // line 29
                    p.reduced_q = 0.0; // line 30
                } // line 31
                p.virtual_queue = v_q;
                p.reducing_cap = reduction(v_q, s, max_red); // line 32 (equation 2)
                                                             // line 33: vc.prev_rm_time ← t, done above for every RM cell
                num_b = count(&self.table); // line 34
                self.table.state(vc).reducing_cap = p.reducing_cap / num_b; // line 35
                p.prev_q = q; // line 36
                cap - p.reducing_cap // line 37
            } // line 38
        };
        let mut vc_er = self.table.allocate(vc, new_cap, er, ccr); // line 39
        if self.config.queue_management {
            let v = self.table.state(vc);
            // Outside a cycle the bound is off: once line 8 has cleared
            // vc.reducing_cap, inc1 = 0 would freeze the ER for good. Inside
            // one, a VC that took no part in the reduction (inc1 = 0) is held
            // to inc2 alone, so that it is not frozen either. A VC's first ER
            // is not bounded.
            if bounded && v.prev_er.is_finite() {
                let inc1 = if v.reducing_cap > 0.0 { v.reducing_cap } else { f64::INFINITY }; // line 40
                let rtts = if v.rm_interval > 0.0 {
                    self.config.max_rtt.as_secs() / v.rm_interval
                } else {
                    1.0
                };
                let n = rtts.max(1.0); // line 41
                let inc2 = max_red / (num_b * n); // line 42
                let max_er = v.prev_er + inc1.min(inc2); // line 43
                if vc_er > max_er {
                    // line 44
                    vc_er = max_er; // line 45
                                    // The VC will now take up to this ER: a satisfied VC is
                                    // recorded at it rather than at its lagging CCR, so that
                                    // the capacity held back from it is not handed to the
                                    // next VC in one lump.
                    let granted = er.min(vc_er);
                    if self.table.class(vc) == Class::Satisfied
                        && granted > self.table.allocation(vc)
                    {
                        self.table.detach(vc);
                        self.table.attach(vc, Class::Satisfied, granted);
                    }
                } // line 46
            }
            self.table.state(vc).prev_er = vc_er;
        }
        vc_er
    }

    /// The share a VC joining now would get, computed but not allocated
    /// (the RATE start-up option of Ma & Ramakrishnan §3).
    pub fn share_for_newcomer(&self, link_cps: f64, vc: u32) -> f64 {
        let cap = self.abr_capacity(link_cps);
        let new_cap =
            if self.config.queue_management { cap - self.control.reducing_cap } else { cap };
        let extra = u32::from(self.table.class(vc) != Class::Bottlenecked);
        match self.table.class(vc) {
            // Already counted as satisfied: it would leave S to take the share.
            Class::Satisfied => {
                let mut t = self.table.clone();
                t.remove(vc);
                t.share(new_cap, 1)
            }
            _ => self.table.share(new_cap, extra),
        }
    }
}

impl SwitchAlgorithm for ExplicitMaxMin {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) {
        self.meter.roll(port.now, self.config.capacity_interval);
        match cell.kind {
            CellKind::Background => self.meter.background_cells += 1,
            CellKind::Frm => {
                // The allocation is computed on the forward RM cell and the
                // ER field overwritten when lower (Ma & Ramakrishnan §2).
                let er = self.rate_reduction(
                    port.now,
                    port.queue_len,
                    port.link_cps,
                    cell.vc,
                    cell.rm.er,
                    cell.rm.ccr,
                );
                cell.rm.er = cell.rm.er.min(er);
            }
            CellKind::Data | CellKind::Brm => {}
        }
    }

    fn on_setup(&mut self, port: &PortView, vc: u32, setup: &mut Setup) {
        self.meter.roll(port.now, self.config.capacity_interval);
        let er = if setup.allocate {
            // RM option: the set-up is treated as an RM cell, so the
            // allocation is made now and the other VCs are warned early.
            self.rate_reduction(port.now, port.queue_len, port.link_cps, vc, setup.er, setup.ccr)
        } else {
            // RATE option: the share is computed for the set-up message; the
            // allocation waits for the first RM cell.
            self.share_for_newcomer(port.link_cps, vc)
        };
        setup.er = setup.er.min(er);
    }

    fn supports_setup(&self) -> bool {
        true
    }

    fn first_tick(&self, now: SimTime) -> Option<SimTime> {
        (self.config.vc_timeout.0 > 0).then(|| now + SimTime(self.config.vc_timeout.0 / 2))
    }

    /// Forgets VCs idle for longer than the timeout, so a VC that stopped no
    /// longer holds a share.
    fn on_tick(&mut self, port: &PortView) -> Option<SimTime> {
        let timeout = self.config.vc_timeout.0;
        if timeout == 0 {
            return None;
        }
        for i in 0..self.table.vcs.len() {
            let s = self.table.vcs[i];
            let vc = self.table.base + i as u32;
            if s.class != Class::Idle
                && s.last_rm.is_none_or(|t| port.now.0.saturating_sub(t.0) > timeout)
            {
                self.table.remove(vc);
                let v = self.table.state(vc);
                v.reducing_cap = 0.0;
                v.prev_er = f64::NAN;
            }
        }
        Some(port.now + SimTime(timeout / 2))
    }
}
#[cfg(test)]
mod tests;
