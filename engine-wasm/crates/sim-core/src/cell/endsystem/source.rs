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
mod tests {
    use super::*;

    const PCR: f64 = 366_792.45;

    fn params() -> AbrParams {
        AbrParams {
            pcr: PCR,
            mcr: 0.0,
            icr: 100_000.0,
            tcr: 10.0,
            nrm: 32,
            mrm: 2,
            trm: SimTime::from_ms(100.0),
            rif: 1.0 / 16.0,
            rdf: 1.0 / 16.0,
            adtf: SimTime::from_ms(500.0),
            tbe: 16_777_215.0,
            cdf: 1.0 / 16.0,
            crm: None,
            cdf_every_crm: false,
            frtt: SimTime::from_ms(30.0),
        }
    }

    fn persistent() -> Traffic {
        Traffic::Persistent { start: SimTime::ZERO, stop: None }
    }

    fn source(p: AbrParams) -> AbrSource {
        let mut s = AbrSource::new(p, persistent());
        s.start();
        s
    }

    fn brm(er: f64, ci: bool, ni: bool) -> RmFields {
        RmFields { ccr: 0.0, er, mcr: 0.0, ci, ni }
    }

    /// Rule 3 counted ahead gives the FRM that sending the cells one by one
    /// finds, over sources run with random Nrm, Mrm, Trm, TCR, ACR, stops and
    /// BRMs; and it counts in most of the states they pass through.
    #[test]
    fn the_next_frm_counted_is_the_one_sent() {
        let mut rng = crate::kernel::Rng::new(7, 0);
        let (mut counted, mut compared) = (0, 0);
        for _ in 0..300 {
            let pick = |rng: &mut crate::kernel::Rng, n: u64| rng.next_u64() % n;
            let p = AbrParams {
                nrm: 1 << (1 + pick(&mut rng, 8)),
                mrm: 1 + pick(&mut rng, 4) as u32,
                trm: SimTime::from_us(100.0 + pick(&mut rng, 3000) as f64),
                tcr: [10.0, 1000.0, 50_000.0][pick(&mut rng, 3) as usize],
                icr: 1000.0 + pick(&mut rng, 300_000) as f64,
                mcr: [0.0, 20_000.0][pick(&mut rng, 2) as usize],
                ..params()
            };
            let stop =
                (pick(&mut rng, 2) == 0).then(|| SimTime::from_ms(pick(&mut rng, 40) as f64));
            let mut s = AbrSource::new(p, Traffic::Persistent { start: SimTime::ZERO, stop });
            s.start();
            s.next_send = Some(SimTime::ZERO);
            for step in 0..400 {
                let Some(t) = s.next_send else { break };
                compared += 1;
                if let Some(at) = s.steady_frm_at() {
                    counted += 1;
                    assert_eq!(at, s.stepped_rm_at(), "{p:?} {stop:?} step {step}");
                }
                if pick(&mut rng, 40) == 0 {
                    s.on_brm(&brm(1000.0 + pick(&mut rng, 300_000) as f64, false, false));
                }
                s.next_send = None;
                if s.emit(t, 1).is_some() && s.has_work(t) {
                    s.next_send = Some(t + s.interval_at(t));
                }
            }
        }
        assert!(counted * 2 > compared, "counted {counted} of {compared}");
    }

    #[test]
    fn rule_1_acr_stays_between_mcr_and_pcr() {
        let mut s = source(AbrParams { mcr: 50_000.0, rif: 1.0, ..params() });
        s.on_brm(&brm(10.0 * PCR, false, false));
        assert_eq!(s.acr, PCR);
        s.on_brm(&brm(1.0, false, false));
        assert_eq!(s.acr, 50_000.0);
    }

    #[test]
    fn rule_2_first_cell_is_an_frm_at_icr() {
        let mut s = source(params());
        assert_eq!(s.acr, 100_000.0);
        assert_eq!(s.emit(SimTime::ZERO, 0).unwrap().kind, CellKind::Frm);
    }

    #[test]
    fn rule_3_one_cell_in_nrm_is_an_frm() {
        let mut s = source(AbrParams { nrm: 8, ..params() });
        let kinds: Vec<CellKind> = (0..24).map(|i| s.emit(SimTime(i), 0).unwrap().kind).collect();
        let frms: Vec<usize> = kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| **k == CellKind::Frm)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(frms, vec![0, 8, 16]);
    }

    #[test]
    fn rule_3_trm_forces_an_early_frm_after_mrm_cells() {
        let mut s = source(AbrParams { trm: SimTime::from_ms(1.0), ..params() });
        let t = |ms: f64| SimTime::from_ms(ms);
        assert_eq!(s.emit(t(0.0), 0).unwrap().kind, CellKind::Frm);
        assert_eq!(s.emit(t(2.0), 0).unwrap().kind, CellKind::Data);
        // Trm passed but only one other cell has gone: Mrm = 2 holds the FRM back.
        assert_eq!(s.emit(t(3.0), 0).unwrap().kind, CellKind::Data);
        assert_eq!(s.emit(t(4.0), 0).unwrap().kind, CellKind::Frm);
    }

    #[test]
    fn rules_8_9_the_whole_ci_ni_table() {
        let start = 100_000.0;
        let inc = start + PCR / 16.0;
        let dec = start - start / 16.0;
        for (ni, ci, er, expect) in [
            (false, false, PCR, inc),
            (false, false, 120_000.0, 120_000.0),
            (false, true, PCR, dec),
            (true, false, PCR, start),
            (true, false, 90_000.0, 90_000.0),
            (true, true, PCR, dec),
            (true, true, 50_000.0, 50_000.0),
        ] {
            let mut s = source(params());
            s.on_brm(&brm(er, ci, ni));
            assert!(
                (s.acr - expect).abs() < 1e-9,
                "NI={ni} CI={ci} ER={er}: {} != {expect}",
                s.acr
            );
        }
    }

    #[test]
    fn rule_5_idle_source_falls_back_to_icr() {
        let mut s = source(params());
        s.emit(SimTime::ZERO, 0);
        s.emit(SimTime(1), 0);
        s.emit(SimTime(2), 0);
        s.on_brm(&brm(PCR, false, false));
        assert!(s.acr > 100_000.0);
        // Mrm cells have gone and Trm has passed, so the next cell, 600 ms
        // later, is an FRM — and that is longer than ADTF = 500 ms.
        assert_eq!(s.emit(SimTime::from_ms(600.0), 0).unwrap().kind, CellKind::Frm);
        assert_eq!(s.acr, 100_000.0);
    }

    #[test]
    fn rule_6_missing_brms_cut_acr_by_cdf_each_frm() {
        let p = AbrParams { tbe: 64.0, nrm: 32, frtt: SimTime::ZERO, ..params() }; // CRM = 2
        let mut s = source(p);
        let mut t = 0;
        let mut frm_acrs = vec![];
        while frm_acrs.len() < 4 {
            let c = s.emit(SimTime(t), 0).unwrap();
            if c.kind == CellKind::Frm {
                frm_acrs.push(s.acr);
            }
            t += 1;
        }
        let a = 100_000.0;
        let cut = |x: f64| x - x / 16.0;
        assert_eq!(frm_acrs, vec![a, a, cut(a), cut(cut(a))]);
        // Once per CRM FRMs instead (Fahmy et al. Figure 10's source).
        let mut periodic = source(AbrParams { cdf_every_crm: true, ..p });
        let mut acrs = vec![];
        let mut t = 0;
        while acrs.len() < 6 {
            if periodic.emit(SimTime(t), 0).unwrap().kind == CellKind::Frm {
                acrs.push(periodic.acr);
            }
            t += 1;
        }
        assert_eq!(acrs, vec![a, a, cut(a), cut(a), cut(cut(a)), cut(cut(a))]);
        // CDF = 0 disables it.
        let mut off = source(AbrParams { cdf: 0.0, ..p });
        for i in 0..200 {
            off.emit(SimTime(i), 0);
        }
        assert_eq!(off.acr, a);
    }

    #[test]
    fn rescheduling_moves_the_next_cell_earlier_after_an_increase() {
        let mut s = source(AbrParams { icr: 1_000.0, rif: 1.0, ..params() });
        s.emit(SimTime::ZERO, 0);
        let planned = s.interval_at(SimTime::ZERO); // 1 ms at 1000 cells/s
        s.next_send = Some(planned);
        s.on_brm(&brm(PCR, false, false));
        let now = SimTime::from_us(10.0);
        let moved = s.reschedule(now).unwrap();
        assert_eq!(moved, now);
        assert_eq!(s.generation, 1);
        // No further move when nothing changed.
        assert_eq!(s.reschedule(now), None);
    }

    fn brm_cell() -> Cell {
        Cell { kind: CellKind::Brm, ..Cell::data(9) }
    }

    #[test]
    fn rule_3_a_waiting_brm_goes_once_per_frm_unless_there_is_no_data() {
        let mut s = source(AbrParams { nrm: 4, ..params() });
        let mut kinds = vec![];
        for i in 0..8 {
            s.give_brm(brm_cell());
            kinds.push(s.emit(SimTime(i), 0).unwrap().kind);
        }
        use CellKind::*;
        // FRM, then the BRM has priority over data once per FRM interval.
        assert_eq!(kinds, vec![Frm, Brm, Data, Data, Frm, Brm, Data, Data]);
        // BRMs count among the Nrm−1 other cells; each newer BRM replaced the
        // one waiting: 8 given = 2 sent + 5 replaced + 1 still waiting.
        assert_eq!((s.brm_sent, s.brm_replaced, s.waiting_brm.is_some()), (2, 5, true));
        // With no data, waiting BRMs go anyway.
        let stopped = Traffic::Persistent { start: SimTime::ZERO, stop: Some(SimTime(10)) };
        let mut idle = AbrSource::new(params(), stopped);
        idle.start();
        idle.give_brm(brm_cell());
        // (The first in-rate cell is an FRM all the same: rule 3a.)
        assert_eq!(idle.emit(SimTime(20), 0).unwrap().kind, Frm);
        assert_eq!(idle.emit(SimTime(21), 0).unwrap().kind, Brm);
        assert!(idle.emit(SimTime(22), 0).is_none());
    }

    #[test]
    fn rule_3_a_due_frm_goes_before_a_waiting_brm_even_without_data() {
        // TM 4.0 rule 3a: the in-rate FRM goes when due whatever waits; the
        // BRM follows at the next opportunity. (The old reading needed data
        // waiting for the FRM and sent the BRM first.)
        let stops = Traffic::Persistent { start: SimTime::ZERO, stop: Some(SimTime(3)) };
        let mut s = AbrSource::new(AbrParams { nrm: 4, ..params() }, stops);
        s.start();
        let kinds: Vec<CellKind> = (0..3).map(|i| s.emit(SimTime(i), 0).unwrap().kind).collect();
        assert_eq!(kinds, vec![CellKind::Frm, CellKind::Data, CellKind::Data]);
        s.emit(SimTime(2), 0);
        // Data has stopped; three cells went since the FRM, so one is due.
        s.give_brm(brm_cell());
        assert_eq!(s.emit(SimTime(10), 0).unwrap().kind, CellKind::Frm);
        assert_eq!(s.emit(SimTime(11), 0).unwrap().kind, CellKind::Brm);
        assert!(s.emit(SimTime(12), 0).is_none());
    }

    #[test]
    fn rule_11_below_tcr_data_goes_at_acr_and_out_of_rate_frms_fill_to_tcr() {
        // ACR 4 cells/s below TCR 10 cells/s: in-rate cells (the first an FRM,
        // then data) go at ACR, out-of-rate FRMs in between, all at most TCR.
        let mut s = source(AbrParams { icr: 4.0, ..params() });
        let mut t = SimTime::ZERO;
        let mut sent = 0;
        while t < SimTime::from_ms(1000.0) {
            s.emit(t, 0).expect("persistent source");
            sent += 1;
            let gap = s.interval_at(t);
            assert!(gap >= cell_interval(10.0), "gap {gap} shorter than 1/TCR");
            t = t + gap;
        }
        // Four in-rate cells at 0, 250, 500 and 750 ms; the last is an FRM
        // again as Trm (100 ms) has passed and Mrm (2) cells have gone.
        assert_eq!((s.frm_sent, s.data_sent), (2, 2), "in-rate cells at ACR over 1 s");
        // One out-of-rate FRM in each 250 ms gap: 100 ms after the in-rate
        // cell, the next in-rate cell 150 ms later.
        assert_eq!((s.oor_frm_sent, sent), (4, 8));
    }

    #[test]
    fn a_bottlenecked_source_sends_no_faster_than_its_cap() {
        let t = Traffic::Bottlenecked {
            start: SimTime::ZERO,
            stop: None,
            rate_cps: 1000.0,
            until: SimTime::from_ms(100.0),
        };
        let mut s = AbrSource::new(params(), t);
        s.start();
        assert_eq!(s.interval_at(SimTime::from_ms(1.0)), SimTime::from_ms(1.0));
        // ACR itself is untouched: the source still advertises it as CCR.
        assert_eq!(s.emit(SimTime::ZERO, 0).unwrap().rm.ccr, 100_000.0);
        assert_eq!(s.interval_at(SimTime::from_ms(100.0)), cell_interval(100_000.0));
    }

    #[test]
    fn message_traffic_sends_only_its_backlog() {
        let mut s =
            AbrSource::new(params(), Traffic::Messages { start: SimTime::ZERO, stop: None });
        s.start();
        assert!(s.emit(SimTime(0), 0).is_none());
        s.backlog = 3;
        let kinds: Vec<CellKind> =
            std::iter::from_fn(|| s.emit(SimTime(1), 0).map(|c| c.kind)).collect();
        // The first cell is an FRM (rule 2), then three data cells drain the backlog.
        assert_eq!(kinds, vec![CellKind::Frm, CellKind::Data, CellKind::Data, CellKind::Data]);
    }

    #[test]
    fn no_cells_outside_the_traffic_window() {
        let t = Traffic::Persistent {
            start: SimTime::from_ms(100.0),
            stop: Some(SimTime::from_ms(200.0)),
        };
        let mut s = AbrSource::new(params(), t);
        assert!(s.emit(SimTime::from_ms(50.0), 0).is_none());
        assert!(s.emit(SimTime::from_ms(150.0), 0).is_some());
        assert!(s.emit(SimTime::from_ms(200.0), 0).is_none());
    }
}
