//! ERICA, the Explicit Rate Indication for Congestion Avoidance scheme, with
//! the twelve extensions of Jain et al. (Jain, Fahmy, Kalyanaraman & Goyal,
//! "Switch Algorithm Testing: A Case Study with ERICA", slides "ERICA Scheme:
//! Basic" and "ERICA Extensions" 1–12).
//!
//! Basic ERICA (slide "ERICA Scheme: Basic"), at the end of each averaging
//! interval and on each backward RM cell:
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
//! Each extension is an option of the scenario's `algorithm` object (key in
//! brackets; default in the registry entry below):
//!
//! 1. forward CCR (`forward_ccr`, off): read CCR from forward RM cells into a
//!    per-VC table, give feedback in backward ones; the CCR divided by z is
//!    the one the VC declared in the interval z was measured on (the mean of
//!    its FRMs there), so that "fairness is improved at each step" (slide
//!    "ERICA Features") rather than a newer CCR being divided by an older z;
//! 2. same feedback in one interval (`same_feedback`, off): the first BRM of a
//!    VC in an averaging interval gets a freshly computed ER, later ones the same;
//! 3. fair share first (`fair_share_first`, off): a VC below the fair share is
//!    taken only up to the fair share;
//! 4. per-VC CCR measurement (`per_vc_ccr`, off): the switch counts each VC's
//!    cells and uses the measured rate instead of the CCR the source declares;
//! 5. time + count averaging (`count_averaging` with `interval_cells`, off):
//!    the interval ends after `interval_ms` or `interval_cells` ABR cells,
//!    whichever comes first;
//! 6. ERICA with VBR (`vbr_aware`, on): ABR capacity = U × link − VBR rate
//!    (target utilisation applies to the total load); off, the switch does
//!    not monitor CBR/VBR cells at all;
//! 7. bi-directional counting (`bidirectional_counting`, off): a VC is active
//!    if it was seen in the last interval or in this one so far, forward cells
//!    or backward RM cells alike;
//! 8. max-min fairness fix (`maxmin_fix` with `delta`, off): when z ≤ 1 + δ the
//!    ER is at least the largest ER given in the previous interval divided by
//!    max(z, 1), as the slide's worked example ("Fairness Fix (Cont)", ending
//!    at 70.03) requires;
//! 9. averaging of the number of sources (`average_sources` with `alpha`, off):
//!    a VC's activity is 1 when seen and decays by α each interval it is not;
//! 10. boundary cases (`boundary_cases`, on): the table of slide "10. Boundary
//!     Cases" for zero capacity or zero input, and N < 1 → N = 1;
//! 11. averaging of the load factor (`average_load` with `load_decay`, off):
//!     cells and time are averaged separately, then divided;
//! 12. ERICA+ (`erica_plus` with `a`, `b`, `t0_ms`, `f_min`, off; or `kind:
//!     "erica_plus"`): the target utilisation becomes f(Tq) of the queueing
//!     delay (slides "12. Innovation: ERICA with Queue Control" to "ERICA+:
//!     Parameters").
//!
//! The defaults are basic ERICA as the slides write it: with the CBR/VBR rate
//! taken out of the capacity (extension 6) and with the boundary-case table
//! (extension 10), without which the basic formulas divide by zero.
//!
//! The order of the feedback steps follows the ERICA+ listing of Jain's group
//! (ATM Forum 98-0408, "Overview of ERICA+", equations 8–12): VC share,
//! max-min fix, MaxAllocCurrent update, fair share first, min with capacity.
//! All rates are in cells per second and include RM cells, as the source's
//! ACR does.

mod config;
mod vc_table;

pub use config::{EricaConfig, PARAMS};

use super::Algorithm;
use super::{PortView, SwitchAlgorithm};
use crate::cell::atm::{Cell, CellKind};
use crate::time::SimTime;
use vc_table::VcTable;

/// ERICA+'s queue-control function f(Tq) (Jain et al., "Innovation: Target
/// Utilization Function"): a·T0/((a−1)·Tq + T0) up to T0, where
/// it falls from a to 1; above T0, max(Fmin, b·T0/((b−1)·Tq + T0)).
pub fn queue_control_factor(tq: f64, a: f64, b: f64, t0: f64, f_min: f64) -> f64 {
    if tq <= t0 {
        a * t0 / ((a - 1.0) * tq + t0)
    } else {
        (b * t0 / ((b - 1.0) * tq + t0)).max(f_min)
    }
}

/// The measurements of the last complete averaging interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EricaMeasurement {
    /// Capacity given to ABR traffic, cells/s.
    pub abr_capacity: f64,
    /// ABR input rate, cells/s (averaged with extension 11).
    pub input_rate: f64,
    /// z = input rate / ABR capacity (may be infinite or NaN without extension 10).
    pub overload: f64,
    /// The fair share at the end of the interval.
    pub fair_share: f64,
    /// ERICA+'s f(Tq), or the target utilisation for plain ERICA.
    pub utilization_factor: f64,
}

/// ERICA's state at one output port.
#[derive(Clone, Debug)]
pub struct Erica {
    pub config: EricaConfig,
    interval_start: SimTime,
    /// Interval number, starting at 1, stamped into the per-VC table.
    interval_no: u32,
    abr_cells: u64,
    other_cells: u64,
    /// Extension 11's running sums of ABR cells, CBR/VBR cells and seconds.
    avg_abr_cells: f64,
    avg_other_cells: f64,
    avg_span: f64,
    /// The number of active VCs now (a sum of activities; see extensions 7 and 9).
    active: f64,
    /// Extension 8: the largest ER given in this interval and in the previous one.
    max_alloc_current: f64,
    max_alloc_previous: f64,
    /// The per-VC states; the interval's end visits only the VCs whose
    /// forward cells can pass this port (the others stay unseen, with
    /// activity 0), so its cost follows the VCs here, not the network's.
    vcs: VcTable,
    /// None until the first interval has completed: no feedback before then.
    pub measurement: Option<EricaMeasurement>,
}

impl Erica {
    /// ERICA at a port whose members are `members` (ascending): the VCs
    /// whose forward cells can pass it.
    pub fn new(config: EricaConfig, members: Vec<u32>) -> Erica {
        Erica {
            config,
            interval_start: SimTime::ZERO,
            interval_no: 1,
            abr_cells: 0,
            other_cells: 0,
            avg_abr_cells: 0.0,
            avg_other_cells: 0.0,
            avg_span: 0.0,
            active: 0.0,
            max_alloc_current: 0.0,
            max_alloc_previous: 0.0,
            vcs: VcTable::new(members),
            measurement: None,
        }
    }

    /// Gives the port its members before the run (ascending): the VCs whose
    /// forward cells can pass it, each with a new state. No other VC's
    /// state is kept.
    pub fn set_members(&mut self, members: Vec<u32>) {
        self.vcs = VcTable::new(members);
    }

    /// The number of active VCs the fair share divides by now.
    pub fn active_vcs(&self) -> f64 {
        self.active
    }

    /// Marks `vc` active now (extension 7: as soon as it is seen, either way).
    fn count_now(&mut self, vc: usize) {
        let Some(st) = self.vcs.get_mut(vc) else { return };
        if st.activity < 1.0 {
            self.active += 1.0 - st.activity;
            st.activity = 1.0;
        }
    }

    /// Ends the averaging interval at `port.now`: measures, then starts the next.
    fn close_interval(&mut self, port: &PortView) {
        let c = self.config;
        let span = (port.now.0 - self.interval_start.0) as f64 / crate::time::PS_PER_S;
        if span > 0.0 {
            // Extension 11: add cells and time separately, then divide.
            let (abr, other, time) = if c.average_load {
                self.avg_abr_cells = c.load_decay * self.avg_abr_cells + self.abr_cells as f64;
                self.avg_other_cells =
                    c.load_decay * self.avg_other_cells + self.other_cells as f64;
                self.avg_span = c.load_decay * self.avg_span + span;
                (self.avg_abr_cells, self.avg_other_cells, self.avg_span)
            } else {
                (self.abr_cells as f64, self.other_cells as f64, span)
            };
            let input_rate = abr / time;
            // Extension 6: the CBR/VBR rate comes out of the capacity.
            let vbr_rate = if c.vbr_aware { other / time } else { 0.0 };
            let (abr_capacity, utilization_factor) = if c.erica_plus {
                // Extension 12: Tq = queue / (link rate − VBR rate), the rate the
                // queue drains at ("unused bandwidth" of slide 12); capacity =
                // that bandwidth × f(Tq).
                let unused = (port.link_cps - vbr_rate).max(0.0);
                let tq = if unused > 0.0 { port.queue_len as f64 / unused } else { f64::INFINITY };
                let f = queue_control_factor(tq, c.a, c.b, c.t0.as_secs(), c.f_min);
                (unused * f, f)
            } else {
                ((c.target_utilization * port.link_cps - vbr_rate).max(0.0), c.target_utilization)
            };

            // Active VCs: seen in the interval just ended (forward; also backward
            // with extension 7); with extension 9 the unseen ones decay by α.
            let no = self.interval_no;
            let mut active = 0.0;
            self.vcs.each_member(|st| {
                let seen =
                    st.seen_forward == no || (c.bidirectional_counting && st.seen_backward == no);
                st.activity = if seen {
                    1.0
                } else if c.average_sources {
                    st.activity * c.alpha
                } else {
                    0.0
                };
                active += st.activity;
                st.measured_rate = st.cells as f64 / span;
                st.cells = 0;
                // Extension 1: the CCR that goes with z is the one the VC
                // declared while z's cells were counted — the mean of its FRMs
                // in the interval, or its last one before it if it sent none.
                st.forward_ccr =
                    if st.ccr_count > 0 { st.ccr_sum / st.ccr_count as f64 } else { st.latest_ccr };
                st.ccr_sum = 0.0;
                st.ccr_count = 0;
            });
            self.active = active;
            let overload = input_rate / abr_capacity;
            let fair_share = abr_capacity / self.divisor();
            self.measurement = Some(EricaMeasurement {
                abr_capacity,
                input_rate,
                overload,
                fair_share,
                utilization_factor,
            });
            // Extension 8 (98-0408 eqs. 6–7).
            self.max_alloc_previous = self.max_alloc_current;
            self.max_alloc_current = fair_share.min(abr_capacity);
        }
        self.interval_start = port.now;
        self.interval_no = self.interval_no.wrapping_add(1).max(1);
        self.abr_cells = 0;
        self.other_cells = 0;
    }

    /// The number the fair share divides by (extension 10: N < 1 counts as 1).
    fn divisor(&self) -> f64 {
        if self.config.boundary_cases {
            self.active.max(1.0)
        } else {
            self.active
        }
    }

    /// The explicit rate for a VC whose current cell rate is `ccr`, before the
    /// minimum with the ER already in the cell; None before the first interval.
    /// With extension 8 it also records the allocation (MaxAllocCurrent).
    pub fn explicit_rate(&mut self, ccr: f64) -> Option<f64> {
        let m = self.measurement?;
        let c = self.config;
        let capacity = m.abr_capacity;
        let fair_share = capacity / self.divisor();
        if c.boundary_cases {
            // Slide "10. Boundary Cases": zero capacity → 0; zero input → C/N.
            if capacity <= 0.0 {
                return Some(0.0);
            }
            if m.input_rate <= 0.0 {
                return Some(fair_share.min(capacity));
            }
        }
        let z = m.overload;
        let vc_share = ccr / z;
        // f64::max and min skip a NaN operand, so the bare formulas of an
        // extension-10-free switch end at the capacity rather than at NaN.
        let mut er = fair_share.max(vc_share);
        if c.maxmin_fix {
            if z <= 1.0 + c.delta {
                // The largest allocation of the previous interval, scaled by
                // the overload as every VC share is: the slides' own example
                // ("Fairness Fix (Cont)": {70.6, 70.6} at load 1.008 get
                // 70.03, not the previous interval's 70.6) divides it by z.
                // Unscaled, any equal allocation with 1 < z ≤ 1 + δ is a
                // fixed point and the port settles up to δ above its target.
                er = er.max(self.max_alloc_previous / z.max(1.0));
            }
            self.max_alloc_current = self.max_alloc_current.max(er.min(capacity));
        }
        if c.fair_share_first && ccr < fair_share && er > fair_share {
            er = fair_share;
        }
        Some(er.min(capacity))
    }

    /// The ER for `vc` with the CCR chosen by extensions 4 and 1, held for
    /// the interval by extension 2.
    fn feedback(&mut self, vc: usize, cell_ccr: f64) -> Option<f64> {
        let c = self.config;
        let st = self.vcs.get(vc);
        if c.same_feedback && st.er_interval == self.interval_no && self.measurement.is_some() {
            return Some(st.er);
        }
        let ccr = if c.per_vc_ccr {
            st.measured_rate
        } else if c.forward_ccr && !st.forward_ccr.is_nan() {
            st.forward_ccr
        } else {
            cell_ccr
        };
        let er = self.explicit_rate(ccr)?;
        if c.same_feedback {
            let no = self.interval_no;
            if let Some(st) = self.vcs.get_mut(vc) {
                st.er_interval = no;
                st.er = er;
            }
        }
        Some(er)
    }
}

impl Algorithm for Erica {
    type Config = EricaConfig;
    fn build(config: &EricaConfig) -> Erica {
        Erica::new(*config, Vec::new())
    }
    fn name(&self) -> &'static str {
        if self.config.erica_plus {
            "erica_plus"
        } else {
            "erica"
        }
    }
    fn reconfigure(&mut self, other: &Erica) {
        self.config = other.config;
    }
    fn set_members(&mut self, members: Vec<u32>) {
        Erica::set_members(self, members);
    }
}

impl SwitchAlgorithm for Erica {
    fn on_arrival(&mut self, port: &PortView, cell: &mut Cell) {
        if !cell.is_abr() {
            // CBR/VBR: its rate is taken out of the ABR capacity (extension 6).
            self.other_cells += 1;
            return;
        }
        self.abr_cells += 1;
        let vc = cell.vc as usize;
        // A VC is active at this port when its forward cells pass through it;
        // the BRMs of VCs going the other way load the link but are not counted.
        if cell.kind != CellKind::Brm {
            let no = self.interval_no;
            if let Some(st) = self.vcs.get_mut(vc) {
                if cell.kind == CellKind::Frm {
                    st.latest_ccr = cell.rm.ccr;
                    st.ccr_sum += cell.rm.ccr;
                    st.ccr_count += 1;
                }
                st.seen_forward = no;
                st.cells += 1;
            }
            if self.config.bidirectional_counting {
                self.count_now(vc);
            }
        }
        if self.config.count_averaging && self.abr_cells >= self.config.interval_cells as u64 {
            self.close_interval(port);
        }
    }

    fn on_backward_rm(&mut self, _port: &PortView, cell: &mut Cell) {
        let vc = cell.vc as usize;
        if self.config.bidirectional_counting {
            let no = self.interval_no;
            if let Some(st) = self.vcs.get_mut(vc) {
                st.seen_backward = no;
            }
            self.count_now(vc);
        }
        if let Some(er) = self.feedback(vc, cell.rm.ccr) {
            cell.rm.er = cell.rm.er.min(er);
        }
    }

    fn first_tick(&self, now: SimTime) -> Option<SimTime> {
        // A port no VC's forward cells leave by never gives feedback (only
        // backward RM cells pass it): nothing it measures can be seen, so its
        // intervals need not end (half the ticks with N sources,
        // each source's own link back from the first switch being such a port).
        if self.vcs.has_no_members() {
            return None;
        }
        Some(now + self.config.interval)
    }

    fn on_tick(&mut self, port: &PortView) -> Option<SimTime> {
        // With extension 5 a count may have ended the interval early; the
        // timer then only re-arms for the interval now running.
        if port.now >= self.interval_start + self.config.interval {
            self.close_interval(port);
        }
        Some(self.interval_start + self.config.interval)
    }

    fn abr_capacity_cps(&self, link_cps: f64) -> f64 {
        if self.config.erica_plus {
            // ERICA+ settles with f(Tq) = 1: the whole link.
            link_cps
        } else {
            self.config.target_utilization * link_cps
        }
    }
}

#[cfg(test)]
mod tests;
