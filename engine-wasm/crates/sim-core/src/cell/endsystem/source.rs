//! The ABR source end system: the TM 4.0 source rules as Fahmy et al. numbers and
//! explains them (§1). Each rule is its own method so that it can be read
//! against the paper and tested alone. Rates are in cells per second.

use super::params::AbrParams;
use super::traffic::Traffic;
use crate::cell::net::{Cell, CellKind, RmFields};
use crate::time::{cell_interval, SimTime};

/// The state of one ABR source.
#[derive(Clone, Debug)]
pub struct AbrSource {
    pub params: AbrParams,
    pub traffic: Traffic,
    /// Allowed cell rate.
    pub acr: f64,
    /// Cells sent since the last in-rate FRM (rule 3's count).
    cells_since_frm: u32,
    /// When the last in-rate FRM was sent; None before the first cell.
    last_frm: Option<SimTime>,
    /// In-rate FRMs sent since the last BRM arrived (rule 6's count).
    frms_since_brm: u64,
    /// When the last cell was sent.
    last_send: Option<SimTime>,
    /// When the last in-rate cell was sent (rule 11 fills the gaps between
    /// in-rate cells below TCR with out-of-rate FRMs).
    last_in_rate: Option<SimTime>,
    /// The pending transmission opportunity, if one is scheduled.
    pub next_send: Option<SimTime>,
    /// Bumped whenever the pending opportunity is replaced (lazy cancellation).
    pub generation: u32,
    /// Whether the connection has been set up (rule 2 ran).
    pub started: bool,
    /// A turned-around RM cell of the reverse flow waiting to go (rule 3);
    /// a newer one replaces it (TM 4.0 destination behaviour).
    pub waiting_brm: Option<Cell>,
    /// Whether a BRM went since the last in-rate FRM (rule 3's BRM priority).
    brm_since_frm: bool,
    /// Cells of messages still to send (request–response traffic).
    pub backlog: u64,
    pub data_sent: u64,
    /// In-rate FRMs sent.
    pub frm_sent: u64,
    /// Out-of-rate FRMs sent (rule 11).
    pub oor_frm_sent: u64,
    /// Turned-around BRMs of the reverse flow sent.
    pub brm_sent: u64,
    /// Waiting BRMs replaced by a newer one before they could go.
    pub brm_replaced: u64,
    pub brm_received: u64,
    /// The last rate turned into a cell interval, and that interval. ACR
    /// changes only when an RM cell comes back (one in Nrm cells), so most
    /// cells reuse it instead of dividing and rounding again.
    interval_memo: std::cell::Cell<(f64, SimTime)>,
}

impl AbrSource {
    pub fn new(params: AbrParams, traffic: Traffic) -> AbrSource {
        AbrSource {
            params,
            traffic,
            acr: params.effective_icr(),
            cells_since_frm: 0,
            last_frm: None,
            frms_since_brm: 0,
            last_send: None,
            last_in_rate: None,
            next_send: None,
            generation: 0,
            started: false,
            waiting_brm: None,
            brm_since_frm: false,
            backlog: 0,
            data_sent: 0,
            frm_sent: 0,
            oor_frm_sent: 0,
            brm_sent: 0,
            brm_replaced: 0,
            brm_received: 0,
            interval_memo: std::cell::Cell::new((0.0, SimTime::ZERO)),
        }
    }

    /// Rule 1: MCR ≤ ACR ≤ PCR.
    fn clamp_acr(&mut self) {
        self.acr = self.acr.min(self.params.pcr).max(self.params.mcr);
    }

    /// The ACR to show: zero before the connection is set up.
    pub fn reported_acr(&self) -> f64 {
        if self.started {
            self.acr
        } else {
            0.0
        }
    }

    /// Whether the application has data cells to send at `now`.
    pub fn has_data(&self, now: SimTime) -> bool {
        self.traffic.active(now)
            && (!matches!(self.traffic, Traffic::Messages { .. }) || self.backlog > 0)
    }

    /// Whether the source has any cell to send at `now`: data or a waiting BRM.
    pub fn has_work(&self, now: SimTime) -> bool {
        self.waiting_brm.is_some() || self.has_data(now)
    }

    /// The time between in-rate cells at `now` (rule 1: send at a rate ≤ ACR;
    /// a source-bottlenecked application supplies no faster than its cap);
    /// None while ACR is zero.
    fn in_rate_interval(&self, now: SimTime) -> Option<SimTime> {
        let rate = match self.traffic.rate_cap(now) {
            Some(cap) => self.acr.min(cap.max(self.params.tcr)),
            None => self.acr,
        };
        (rate > 0.0).then(|| self.interval_of(rate))
    }

    /// [`cell_interval`] of `rate` (> 0), remembered for the next call.
    #[inline]
    fn interval_of(&self, rate: f64) -> SimTime {
        let (memo_rate, interval) = self.interval_memo.get();
        if memo_rate.to_bits() == rate.to_bits() {
            return interval;
        }
        let interval = cell_interval(rate);
        self.interval_memo.set((rate, interval));
        interval
    }

    /// The time from the last cell to the next transmission opportunity.
    /// Below TCR the in-rate cells still go at ACR, and rule 11 lets
    /// out-of-rate FRMs fill the gaps between them at no more than TCR: one
    /// TCR interval after the last cell when the next in-rate cell is at
    /// least two TCR intervals away, else that in-rate cell.
    pub fn interval_at(&self, now: SimTime) -> SimTime {
        let in_rate = self.in_rate_interval(now);
        if self.acr >= self.params.tcr {
            return in_rate.expect("ACR ≥ TCR > 0");
        }
        let oor = cell_interval(self.params.tcr);
        match (self.last_send, self.last_in_rate, in_rate) {
            (Some(last), Some(in_last), Some(i)) => {
                let to_in_rate = SimTime((in_last + i).0.saturating_sub(last.0).max(1));
                if to_in_rate.0 >= 2 * oor.0 {
                    oor
                } else {
                    to_in_rate
                }
            }
            _ => oor,
        }
    }

    /// Whether the in-rate schedule allows a cell at `now` (always at ACR ≥ TCR,
    /// where opportunities are only scheduled at ACR).
    fn in_rate_due(&self, now: SimTime) -> bool {
        if self.acr >= self.params.tcr {
            return true;
        }
        match (self.last_in_rate, self.in_rate_interval(now)) {
            (None, Some(_)) => true,
            (Some(last), Some(i)) => now >= last + i,
            (_, None) => false,
        }
    }

    /// The earliest a new transmission opportunity may be: one interval after
    /// the last cell, never before `now`.
    pub fn earliest_send(&self, now: SimTime) -> SimTime {
        match self.last_send {
            Some(last) => (last + self.interval_at(now)).max(now),
            None => now,
        }
    }

    /// Hands the source a turned-around RM cell of the reverse flow to send
    /// by rule 3; a BRM already waiting is replaced (counted).
    pub fn give_brm(&mut self, brm: Cell) {
        if self.waiting_brm.replace(brm).is_some() {
            self.brm_replaced += 1;
        }
    }

    /// Cells this source has put on the wire.
    pub fn cells_sent(&self) -> u64 {
        self.data_sent + self.frm_sent + self.oor_frm_sent + self.brm_sent
    }

    /// Rule 2: at connection set-up ACR = ICR, where the ICR used is
    /// min(negotiated ICR, TBE/FRTT); the first cell sent will be an FRM.
    pub fn start(&mut self) {
        self.started = true;
        self.acr = self.params.effective_icr();
        self.clamp_acr();
        self.cells_since_frm = 0;
        self.last_frm = None;
        self.frms_since_brm = 0;
    }

    /// Rule 3: whether the cell sent now must be an in-rate FRM — the first
    /// cell; or Nrm−1 other cells have gone since the last FRM; or Trm has
    /// passed since it and at least Mrm other cells have gone.
    pub fn frm_due(&self, now: SimTime) -> bool {
        match self.last_frm {
            None => true,
            Some(last) => {
                self.cells_since_frm + 1 >= self.params.nrm
                    || (now.0 - last.0 >= self.params.trm.0
                        && self.cells_since_frm >= self.params.mrm)
            }
        }
    }

    /// Rule 5 ("use it or lose it"): before an FRM, if no FRM was sent for
    /// ADTF and ACR > ICR, ACR falls to ICR.
    fn apply_rule_5(&mut self, now: SimTime) {
        if let Some(last) = self.last_frm {
            let icr = self.params.effective_icr();
            if now.0 - last.0 > self.params.adtf.0 && self.acr > icr {
                self.acr = icr;
            }
        }
    }

    /// Rule 6: before an FRM, if CRM FRMs have gone since the last BRM arrived,
    /// ACR ← max(MCR, ACR − ACR·CDF); it applies again at each further FRM.
    /// CDF = 0 disables the rule.
    fn apply_rule_6(&mut self) {
        let crm = self.params.crm();
        let due = if self.params.cdf_every_crm {
            self.frms_since_brm > 0 && self.frms_since_brm.is_multiple_of(crm)
        } else {
            self.frms_since_brm >= crm
        };
        if self.params.cdf > 0.0 && due {
            self.acr = (self.acr - self.acr * self.params.cdf).max(self.params.mcr);
        }
    }

    /// A transmission opportunity at `now`: decides the cell by rule 3 — an
    /// in-rate FRM when due (whether data or only a BRM is waiting); else a
    /// waiting BRM if no BRM went since the last FRM or there is no data; else
    /// data — applies rules 5 and 6 before an FRM, and returns the cell to
    /// send. Below TCR, an opportunity the in-rate schedule does not allow
    /// carries an out-of-rate FRM (rule 11). None when there is nothing to send.
    #[inline(always)]
    pub fn emit(&mut self, now: SimTime, vc: u32) -> Option<Cell> {
        let data = self.has_data(now);
        if !data && self.waiting_brm.is_none() {
            return None;
        }
        let frm = |acr: f64, p: &AbrParams| {
            // FRM fields: CCR = ACR, ER = PCR, CI = NI = 0 (Fahmy et al. §1).
            let rm = RmFields { ccr: acr, er: p.pcr, mcr: p.mcr, ci: false, ni: false };
            Cell { vc, kind: CellKind::Frm, efci: false, rm }
        };
        if !self.in_rate_due(now) {
            self.oor_frm_sent += 1;
            self.last_send = Some(now);
            return Some(frm(self.acr, &self.params));
        }
        // TM 4.0 rule 3a: the next in-rate cell is an FRM when one is due,
        // whatever else waits; 3b: else a waiting BRM; 3c: else data.
        let cell = if self.frm_due(now) {
            self.apply_rule_5(now);
            self.apply_rule_6();
            self.last_frm = Some(now);
            self.cells_since_frm = 0;
            self.frms_since_brm += 1;
            self.frm_sent += 1;
            self.brm_since_frm = false;
            frm(self.acr, &self.params)
        } else if self.waiting_brm.is_some() && (!self.brm_since_frm || !data) {
            self.cells_since_frm += 1;
            self.brm_since_frm = true;
            self.brm_sent += 1;
            self.waiting_brm.take().expect("checked")
        } else {
            self.cells_since_frm += 1;
            self.data_sent += 1;
            self.backlog = self.backlog.saturating_sub(1);
            Cell::data(vc)
        };
        self.last_send = Some(now);
        self.last_in_rate = Some(now);
        Some(cell)
    }

    /// When this source's next transmission opportunity that is not a data
    /// cell comes — an RM cell, or nothing to send — if nothing from outside
    /// changes it first (a BRM, a partner's BRM, a parameter); `SimTime::NEVER`
    /// when its data cells are all it sends before it stops asking for
    /// opportunities. A sole sender's data cells land without events while
    /// its RM cells arrive by them (`sim/sources.rs`): this says which.
    pub fn next_rm_at(&self) -> SimTime {
        let counted = self.steady_frm_at();
        debug_assert!(counted.is_none_or(|t| t == self.stepped_rm_at()), "{counted:?}");
        counted.unwrap_or_else(|| self.stepped_rm_at())
    }

    /// The most cells [`AbrSource::stepped_rm_at`] runs ahead: more than one
    /// in Nrm (at most 256 by TM 4.0) or one per Trm. Past it, the cell is
    /// taken for an RM cell: its arrival is then an event, which looks again.
    const LOOK_AHEAD: u32 = 1024;

    /// [`AbrSource::next_rm_at`] by sending the coming cells from a copy,
    /// each at its time, as a transmission opportunity does.
    fn stepped_rm_at(&self) -> SimTime {
        let Some(mut t) = self.next_send else { return SimTime::NEVER };
        let mut s = self.clone();
        for _ in 0..Self::LOOK_AHEAD {
            // The loop's number only labels the cell.
            match s.emit(t, 0) {
                // Nothing to send then (its traffic paused or stopped): no
                // data cell either.
                None => return t,
                Some(cell) if cell.kind != CellKind::Data => return t,
                Some(_) => {}
            }
            if !s.has_work(t) {
                return SimTime::NEVER;
            }
            t = t + s.interval_at(t);
        }
        t
    }

    /// [`AbrSource::next_rm_at`] counted by rule 3 without sending, where
    /// every opportunity until the next in-rate FRM carries data one
    /// interval apart: persistent traffic within its window, no BRM
    /// waiting, ACR ≥ TCR (no out-of-rate FRMs) and ACR unchanged by data
    /// cells. The FRM is the `j`-th opportunity from the next for the least
    /// `j` at which `cells_since_frm + j + 1 ≥ Nrm`, or at which Trm has
    /// passed since the last FRM and `cells_since_frm + j ≥ Mrm`
    /// ([`AbrSource::frm_due`]). None where it cannot tell.
    fn steady_frm_at(&self) -> Option<SimTime> {
        let t0 = self.next_send?;
        let Traffic::Persistent { start, stop } = self.traffic else { return None };
        if self.waiting_brm.is_some() || self.acr < self.params.tcr || t0 < start {
            return None;
        }
        let t = match self.last_frm {
            None => t0.0,
            Some(last) => {
                let i = self.interval_of(self.acr).0.max(1);
                let c = self.cells_since_frm;
                let by_nrm = self.params.nrm.saturating_sub(1).saturating_sub(c) as u64;
                let trm_due = (last.0 + self.params.trm.0).saturating_sub(t0.0).div_ceil(i);
                let by_trm = (self.params.mrm.saturating_sub(c) as u64).max(trm_due);
                t0.0.checked_add(by_nrm.min(by_trm).checked_mul(i)?)?
            }
        };
        // Every cell up to it within the traffic window.
        (stop.is_none_or(|s| t < s.0)).then_some(SimTime(t))
    }

    /// Rules 8–9 on a backward RM cell, the NI/CI table of Fahmy et al. §5.1:
    /// CI = 1: ACR ← ACR − ACR·RDF; else NI = 0: ACR ← ACR + RIF·PCR; NI = 1:
    /// no increase; then ACR ← min(ACR, ER, PCR) and ACR ← max(ACR, MCR).
    pub fn on_brm(&mut self, rm: &RmFields) {
        self.brm_received += 1;
        self.frms_since_brm = 0;
        if rm.ci {
            self.acr -= self.acr * self.params.rdf;
        } else if !rm.ni {
            self.acr += self.params.rif * self.params.pcr;
        }
        self.acr = self.acr.min(rm.er);
        self.clamp_acr();
    }

    /// Rescheduling (Fahmy et al. §5.1): after ACR rose, the next cell may go
    /// earlier than planned — at the last send plus the new interval, never
    /// before `now`. Returns the new time when the pending opportunity moves.
    pub fn reschedule(&mut self, now: SimTime) -> Option<SimTime> {
        let (next, last) = (self.next_send?, self.last_send?);
        let earlier = (last + self.interval_at(now)).max(now);
        if earlier < next {
            self.next_send = Some(earlier);
            self.generation = self.generation.wrapping_add(1);
            Some(earlier)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests;
