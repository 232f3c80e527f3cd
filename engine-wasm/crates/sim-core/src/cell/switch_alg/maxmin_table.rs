//! The local max-min table of Ma & Ramakrishnan, "Queue Management for
//! Explicit Rate Based Congestion Control" §2.2, as a data structure of its
//! own: each VC's class (idle, bottlenecked here, satisfied elsewhere) and
//! recorded allocation A_i, the count of bottlenecked VCs, and the satisfied
//! VCs ordered by allocation with their sum, so that equation 1's share
//! (C − Σ_{j∈S} A_j) / (N − |S|) and its re-evaluation take O(log N).

use crate::time::SimTime;
use std::collections::BTreeSet;

/// How a VC stands at this port (Ma & Ramakrishnan §2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Not counted: no RM cell yet, or idle past the timeout.
    Idle,
    /// Bottlenecked here: counted in N − |S| of equation 1.
    Bottlenecked,
    /// In S: its recorded allocation A_i is subtracted from C.
    Satisfied,
}

/// What the port remembers of one VC.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VcState {
    pub(crate) class: Class,
    /// A_i: the allocation recorded at its last RM cell.
    pub(crate) allocation: f64,
    /// When its last RM cell passed (t_vc, vc.prev_rm_time).
    pub(crate) last_rm: Option<SimTime>,
    /// Seconds between its last two RM cells (vc.rm_intval); 0 before two.
    pub(crate) rm_interval: f64,
    /// vc.reducing_cap: its part of the port's capacity reduction (vc_r).
    pub(crate) reducing_cap: f64,
    /// vc.prev_ER: the ER this port gave it last; NaN before any.
    pub(crate) prev_er: f64,
    /// Whether its demand (the ER field its last RM cell brought) reached
    /// this port's share: this port is what limits it, whatever its CCR.
    pub(crate) limited_here: bool,
}

impl Default for VcState {
    fn default() -> Self {
        VcState {
            class: Class::Idle,
            allocation: 0.0,
            last_rm: None,
            rm_interval: 0.0,
            reducing_cap: 0.0,
            prev_er: f64::NAN,
            limited_here: false,
        }
    }
}

/// The local max-min bookkeeping of Ma & Ramakrishnan §2.2: each VC's class and
/// recorded allocation, the number of bottlenecked VCs, the satisfied VCs
/// ordered by allocation and their sum.
#[derive(Clone, Debug, Default)]
pub struct MaxMinTable {
    /// `vcs[i]` is the state of VC `base + i`: the table spans the VCs seen,
    /// from the port's first member on, not every VC of the network (a port
    /// of a destination's own link holds one state, not one per VC before it).
    pub(crate) vcs: Vec<VcState>,
    pub(crate) base: u32,
    bottlenecked: u32,
    /// VCs whose demand reached the share at their last RM cell.
    limited_here: u32,
    /// Σ_{j∈S} A_j.
    pub(crate) satisfied_sum: f64,
    /// (A_j as ordered bits, j) for j ∈ S; allocations are ≥ 0, whose IEEE
    /// bit patterns sort like the numbers.
    satisfied: BTreeSet<(u64, u32)>,
    /// Changes since `satisfied_sum` was last summed afresh (float drift).
    changes: u32,
}

/// Re-add the satisfied allocations from scratch after this many changes.
const RESUM_EVERY: u32 = 4096;

fn key(allocation: f64) -> u64 {
    // Clamp −0 and any negative to +0 so that the bits order as numbers.
    if allocation > 0.0 {
        allocation.to_bits()
    } else {
        0
    }
}

impl MaxMinTable {
    /// Starts the table at `vc`, the port's first member; before any state.
    pub(crate) fn start_at(&mut self, vc: u32) {
        debug_assert!(self.vcs.is_empty());
        self.base = vc;
    }

    pub(crate) fn state(&mut self, vc: u32) -> &mut VcState {
        if vc < self.base {
            // Below the first member (never in a run: forward RM cells and
            // set-ups, the only ones that reach the table, are members'):
            // the table grows at the front.
            let more = (self.base - vc) as usize;
            self.vcs.splice(0..0, std::iter::repeat_n(VcState::default(), more));
            self.base = vc;
        }
        let i = (vc - self.base) as usize;
        if i >= self.vcs.len() {
            self.vcs.resize(i + 1, VcState::default());
        }
        &mut self.vcs[i]
    }

    /// The class of `vc` here.
    pub fn class(&self, vc: u32) -> Class {
        self.vcs.get(vc.wrapping_sub(self.base) as usize).map_or(Class::Idle, |s| s.class)
    }

    /// The allocation recorded for `vc`.
    pub fn allocation(&self, vc: u32) -> f64 {
        self.vcs.get(vc.wrapping_sub(self.base) as usize).map_or(0.0, |s| s.allocation)
    }

    /// p.bottleneck: the number of VCs bottlenecked here.
    pub fn bottlenecked(&self) -> u32 {
        self.bottlenecked
    }

    /// The VCs this port limits: those whose demand (ER field) reached the
    /// share at their last RM cell, including those booked as satisfied at
    /// a CCR that lags a little under it.
    pub fn limited_here(&self) -> u32 {
        self.limited_here
    }

    /// N: the VCs counted here.
    pub fn active(&self) -> u32 {
        self.bottlenecked + self.satisfied.len() as u32
    }

    /// Takes `vc` out of its class (it stays known), ready to be classified again.
    pub(crate) fn detach(&mut self, vc: u32) {
        let s = *self.state(vc);
        match s.class {
            Class::Idle => {}
            Class::Bottlenecked => self.bottlenecked -= 1,
            Class::Satisfied => {
                self.satisfied.remove(&(key(s.allocation), vc));
                self.satisfied_sum -= s.allocation;
                self.note_change();
            }
        }
        self.state(vc).class = Class::Idle;
    }

    pub(crate) fn attach(&mut self, vc: u32, class: Class, allocation: f64) {
        debug_assert_eq!(self.class(vc), Class::Idle);
        let allocation = if allocation > 0.0 { allocation } else { 0.0 };
        let s = self.state(vc);
        s.class = class;
        s.allocation = allocation;
        match class {
            Class::Idle => {}
            Class::Bottlenecked => self.bottlenecked += 1,
            Class::Satisfied => {
                self.satisfied.insert((key(allocation), vc));
                self.satisfied_sum += allocation;
                self.note_change();
            }
        }
    }

    pub(crate) fn note_change(&mut self) {
        self.changes += 1;
        if self.changes >= RESUM_EVERY || self.satisfied.is_empty() {
            self.satisfied_sum = self.satisfied.iter().map(|&(bits, _)| f64::from_bits(bits)).sum();
            self.changes = 0;
        }
    }

    /// The local max-min share A_B for capacity `cap`, counting `extra` more
    /// VCs as bottlenecked (the VC being computed, or a newcomer at set-up).
    ///
    /// Equation 1 with S the satisfied VCs, then the iteration of §2.2: while
    /// a VC in S has a recorded rate not below the share, it cannot be
    /// satisfied (step 2 only admits `A_i < A_B`): take it out of S and
    /// recompute (step 3). The satisfied VCs are visited from the largest
    /// allocation down, so the loop stops at the first that stays.
    pub fn share(&self, cap: f64, extra: u32) -> f64 {
        let mut sum = self.satisfied_sum;
        let mut unsatisfied = self.bottlenecked + extra;
        if unsatisfied == 0 {
            // Every VC is satisfied: a newcomer could take whatever is left.
            return (cap - sum).max(0.0);
        }
        for &(bits, _) in self.satisfied.iter().rev() {
            let a = f64::from_bits(bits);
            if a < (cap - sum) / unsatisfied as f64 {
                break;
            }
            sum -= a;
            unsatisfied += 1;
        }
        ((cap - sum) / unsatisfied as f64).max(0.0)
    }

    /// MaxMin_FairShare of Figure 14 line 39 for VC `vc` whose RM cell
    /// carries `er` and `ccr`: computes A_B with the VC counted, marks the VC
    /// (§2.2, last paragraph) and returns A_B.
    pub fn allocate(&mut self, vc: u32, cap: f64, er: f64, ccr: f64) -> f64 {
        self.detach(vc);
        self.set_limited(vc, false);
        let share = self.share(cap, 1);
        self.set_limited(vc, share <= er);
        let demand = er.min(ccr);
        if share <= demand {
            self.attach(vc, Class::Bottlenecked, share);
        } else {
            self.attach(vc, Class::Satisfied, demand);
        }
        share
    }

    fn set_limited(&mut self, vc: u32, limited: bool) {
        let was = std::mem::replace(&mut self.state(vc).limited_here, limited);
        self.limited_here = self.limited_here + u32::from(limited) - u32::from(was);
    }

    /// Forgets `vc` (it left or went idle).
    pub fn remove(&mut self, vc: u32) {
        self.detach(vc);
        self.set_limited(vc, false);
    }
}
