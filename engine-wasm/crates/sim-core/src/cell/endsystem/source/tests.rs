use super::*;

const PCR: f64 = 366_792.45;

fn params() -> AbrParams {
    AbrParams { icr: 100_000.0, ..super::super::params::tests::oc3() }
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
        let stop = (pick(&mut rng, 2) == 0).then(|| SimTime::from_ms(pick(&mut rng, 40) as f64));
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
    let frms: Vec<usize> =
        kinds.iter().enumerate().filter(|(_, k)| **k == CellKind::Frm).map(|(i, _)| i).collect();
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
        assert!((s.acr - expect).abs() < 1e-9, "NI={ni} CI={ci} ER={er}: {} != {expect}", s.acr);
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
    let mut s = AbrSource::new(params(), Traffic::Messages { start: SimTime::ZERO, stop: None });
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
    let t =
        Traffic::Persistent { start: SimTime::from_ms(100.0), stop: Some(SimTime::from_ms(200.0)) };
    let mut s = AbrSource::new(params(), t);
    assert!(s.emit(SimTime::from_ms(50.0), 0).is_none());
    assert!(s.emit(SimTime::from_ms(150.0), 0).is_some());
    assert!(s.emit(SimTime::from_ms(200.0), 0).is_none());
}
