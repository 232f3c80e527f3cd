use super::*;
use crate::cell::atm::RmFields;

const LINK: f64 = 366_792.45;

fn view(ms: f64, queue: u32) -> PortView {
    PortView {
        now: SimTime::from_ms(ms),
        link_cps: LINK,
        queue_len: queue,
        buffer_cells: 1_000_000,
    }
}

fn frm(vc: u32, er: f64, ccr: f64) -> Cell {
    Cell { kind: CellKind::Frm, rm: RmFields { er, ccr, ..RmFields::EMPTY }, ..Cell::data(vc) }
}

fn send(a: &mut ExplicitMaxMin, ms: f64, queue: u32, vc: u32, er: f64, ccr: f64) -> f64 {
    let mut c = frm(vc, er, ccr);
    a.on_arrival(&view(ms, queue), &mut c);
    c.rm.er
}

fn plain() -> ExplicitMaxMin {
    ExplicitMaxMin::new(ExplicitMaxMinConfig { queue_management: false, ..Default::default() })
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn reduction_passes_through_the_three_points_and_is_capped() {
    let (s, m) = (600.0, 1000.0);
    assert_eq!(reduction(0.0, s, m), 0.0);
    assert_eq!(reduction(s, s, m), 0.0);
    assert!(close(reduction(2.0 * s, s, m), m / 4.0));
    assert!(close(reduction(3.0 * s, s, m), m));
    assert_eq!(reduction(10.0 * s, s, m), m);
    // Smooth near S, steeper further up (Figure 8).
    assert!(reduction(1.5 * s, s, m) < reduction(2.5 * s, s, m) - reduction(2.0 * s, s, m));
}

#[test]
fn one_vc_gets_the_whole_link() {
    let mut a = plain();
    assert!(close(send(&mut a, 0.0, 0, 0, LINK, LINK), LINK));
    assert_eq!(a.table.class(0), Class::Bottlenecked);
}

#[test]
fn equation_1_divides_what_the_satisfied_vcs_leave() {
    let mut a = plain();
    // VC 0 is held at 50,000 elsewhere (ER already lowered upstream).
    send(&mut a, 0.0, 0, 0, 50_000.0, LINK);
    send(&mut a, 0.1, 0, 1, LINK, LINK);
    let er2 = send(&mut a, 0.2, 0, 2, LINK, LINK);
    assert_eq!(a.table.class(0), Class::Satisfied);
    // VC 1 counts as bottlenecked, so VC 2 is offered half of what VC 0 leaves.
    assert!(close(er2, (LINK - 50_000.0) / 2.0), "{er2}");
    // Once every VC has been seen: (C − 50,000)/2 each for VCs 1 and 2.
    let e1 = send(&mut a, 0.3, 0, 1, LINK, LINK);
    let e2 = send(&mut a, 0.4, 0, 2, LINK, LINK);
    let fair = (LINK - 50_000.0) / 2.0;
    assert!(close(e1, fair) && close(e2, fair), "{e1} {e2} {fair}");
    assert_eq!(a.table.bottlenecked(), 2);
}

#[test]
fn a_vc_ramping_from_icr_is_satisfied_at_its_ccr() {
    // §3.1.1: a short VC starting at a small ICR is allocated its CCR; the
    // long VC is left C − CCR and gives up only what the short one took.
    let mut a = plain();
    send(&mut a, 0.0, 0, 0, LINK, LINK);
    let short = send(&mut a, 1.0, 0, 1, LINK, 500.0);
    // It may climb to the equal share, but is recorded at the 500 cells/s it sends.
    assert!(close(short, LINK / 2.0), "{short}");
    assert_eq!(a.table.class(1), Class::Satisfied);
    assert_eq!(a.table.allocation(1), 500.0);
    let long = send(&mut a, 2.0, 0, 0, LINK, LINK);
    assert!(close(long, LINK - 500.0), "{long}");
}

#[test]
fn the_iteration_drops_satisfied_vcs_at_or_above_the_share() {
    let mut t = MaxMinTable::default();
    // Three VCs recorded as satisfied at 100, 40, 10 on a link of 150,
    // plus one bottlenecked VC.
    t.attach(0, Class::Satisfied, 100.0);
    t.attach(1, Class::Satisfied, 40.0);
    t.attach(2, Class::Satisfied, 10.0);
    t.attach(3, Class::Bottlenecked, 0.0);
    // Counting one more: (150 − 150)/2 = 0 < 100 → drop 100: (150 − 50)/3 ≈ 33 < 40
    // → drop 40: (150 − 10)/4 = 35 > 10 → stop.
    assert!(close(t.share(150.0, 1), 35.0));
    // Global water-filling of {100, 40, 10, ∞, ∞} over 150 gives the same.
    let oracle = crate::probe::max_min_fair(
        &[150.0],
        &[100.0, 40.0, 10.0, 1e9, 1e9]
            .map(|d| crate::probe::Flow { resources: vec![0], demand: d }),
    );
    assert!(close(oracle[3], 35.0));
    // The table was not changed by computing.
    assert_eq!(t.class(0), Class::Satisfied);
    assert_eq!(t.active(), 4);
}

#[test]
fn every_vc_satisfied_leaves_the_rest_to_a_newcomer() {
    let mut t = MaxMinTable::default();
    t.attach(0, Class::Satisfied, 30.0);
    assert!(close(t.share(100.0, 0), 70.0));
    assert!(close(t.share(100.0, 1), 70.0));
}

#[test]
fn the_satisfied_sum_survives_many_changes() {
    let mut t = MaxMinTable::default();
    for i in 0..20_000u32 {
        let vc = i % 7;
        t.detach(vc);
        t.attach(vc, Class::Satisfied, 1.0 + (i as f64 * 0.37) % 1000.0);
    }
    let exact: f64 = (0..7).map(|vc| t.allocation(vc)).sum();
    assert!((t.satisfied_sum - exact).abs() < 1e-6);
}

#[test]
fn above_the_set_point_bottlenecked_vcs_share_a_reduced_capacity() {
    let mut a = ExplicitMaxMin::new(ExplicitMaxMinConfig::default());
    let half = LINK / 2.0;
    for vc in 0..2 {
        send(&mut a, 0.0, 0, vc, LINK, LINK);
    }
    for vc in 0..2 {
        assert!(close(send(&mut a, 1.0, 0, vc, LINK, half), half));
    }
    // The queue jumps to 3S: the first RM cell above S opens a cycle
    // (the virtual queue starts at the real one), and from then on the
    // capacity shrinks by M = 10 %.
    send(&mut a, 2.0, 1800, 0, LINK, half);
    send(&mut a, 2.1, 1800, 1, LINK, half);
    let e0 = send(&mut a, 2.2, 1800, 0, LINK, half);
    let m = 0.1 * LINK;
    assert!(close(a.control.reducing_cap, m), "{}", a.control.reducing_cap);
    assert!(close(e0, (LINK - m) / 2.0), "{e0}");
    // Max-min is kept while draining: both bottlenecked VCs get an equal
    // share of what is left (VC 1's RM cell 0.2 ms later finds the
    // virtual queue 3.7 cells lower, so the reduction is 0.6 % smaller).
    let e1 = send(&mut a, 2.3, 1800, 1, LINK, half);
    assert!(close(e1, (LINK - a.control.reducing_cap) / 2.0), "{e1}");
    assert!((e0 - e1).abs() < 0.005 * e0, "{e0} {e1}");
}

#[test]
fn the_virtual_queue_counts_down_what_the_reduction_removed() {
    let mut a = ExplicitMaxMin::new(ExplicitMaxMinConfig::default());
    let half = LINK / 2.0;
    for (ms, vc) in [(0.0, 0), (0.0, 1), (1.0, 0), (1.0, 1)] {
        send(&mut a, ms, 0, vc, LINK, half);
    }
    // Open a cycle at a real queue of 1800 cells (3S) and let it reduce.
    send(&mut a, 2.0, 1800, 0, LINK, half);
    send(&mut a, 2.0, 1800, 1, LINK, half);
    send(&mut a, 2.0, 1800, 0, LINK, half);
    let vc_r = a.table.vcs[0].reducing_cap;
    assert!(close(vc_r, 0.1 * LINK / 2.0));
    // 10 ms later VC 0's next RM cell: it reduced 10 ms × vc_r cells.
    send(&mut a, 12.0, 1800, 0, LINK, half);
    let removed = 0.010 * vc_r;
    assert!(
        close(a.control.virtual_queue, 1800.0 - removed),
        "{} vs {}",
        a.control.virtual_queue,
        1800.0 - removed
    );
    // The virtual queue, not the real one, drives the reduction.
    assert!(close(a.control.reducing_cap, reduction(1800.0 - removed, 600.0, 0.1 * LINK)));
}

#[test]
fn the_real_queue_outgrowing_the_virtual_one_starts_a_new_cycle() {
    let mut a = ExplicitMaxMin::new(ExplicitMaxMinConfig::default());
    for (ms, vc) in [(0.0, 0), (1.0, 0)] {
        send(&mut a, ms, 0, vc, LINK, LINK);
    }
    send(&mut a, 2.0, 1000, 0, LINK, LINK);
    send(&mut a, 3.0, 1000, 0, LINK, LINK);
    assert_eq!(a.control.max_queue, 1000.0);
    // Lines 24–26: the queue grew by 1000 cells, far more than the
    // reduction removed; the cycle restarts at the real queue.
    send(&mut a, 4.0, 2000, 0, LINK, LINK);
    assert_eq!(a.control.max_queue, 2000.0);
    assert_eq!(a.control.reduced_q, 0.0);
}

#[test]
fn not_bottlenecked_vcs_see_the_reduced_capacity_but_are_not_charged() {
    let mut a = ExplicitMaxMin::new(ExplicitMaxMinConfig::default());
    send(&mut a, 0.0, 0, 0, LINK, LINK);
    send(&mut a, 0.0, 0, 1, 10_000.0, 10_000.0); // satisfied elsewhere
    send(&mut a, 1.0, 0, 0, LINK, LINK);
    for ms in [2.0, 3.0, 4.0] {
        send(&mut a, ms, 1800, 0, LINK, LINK);
    }
    let before = a.control;
    send(&mut a, 5.0, 1800, 1, 10_000.0, 10_000.0);
    // Lines 16–17 leave the port's books alone.
    assert_eq!(a.control.reduced_q, before.reduced_q);
    assert_eq!(a.table.vcs[1].reducing_cap, 0.0);
}

#[test]
fn slow_recovery_then_full_share_after_one_max_rtt() {
    let cfg = ExplicitMaxMinConfig { max_rtt: SimTime::from_ms(10.0), ..Default::default() };
    let mut a = ExplicitMaxMin::new(cfg);
    // One VC sending RM cells every 1 ms: n = 10 steps per max RTT.
    let mut ms = 0.0;
    let mut step = |a: &mut ExplicitMaxMin, q: u32| {
        ms += 1.0;
        send(a, ms, q, 0, LINK, LINK)
    };
    step(&mut a, 0);
    step(&mut a, 0);
    for _ in 0..3 {
        step(&mut a, 5000);
    }
    let reduced = step(&mut a, 5000);
    let m = 0.1 * LINK;
    assert!(close(reduced, LINK - m), "{reduced}");
    // The queue drains: the ER climbs back by at most
    // min(vc.reducing_cap, M/(num_b·n)) = M/10 per RM cell.
    let mut last = reduced;
    for _ in 0..5 {
        let er = step(&mut a, 0);
        assert!(er - last <= m / 10.0 + 1e-6, "{er} - {last}");
        assert!(er > last);
        last = er;
    }
    // After one max RTT below S the VC's reduction is cleared: full share.
    for _ in 0..12 {
        last = step(&mut a, 0);
    }
    assert!(close(last, LINK), "{last}");
    assert_eq!(a.control.rtt_clock, RttClock::Since(SimTime::from_ms(7.0)));
    // Out of the cycle, nothing bounds the ER: a VC leaving frees its share at once.
}

#[test]
fn while_reducing_a_vc_that_took_no_part_climbs_by_inc2_and_is_booked_at_its_er() {
    let mut a = ExplicitMaxMin::new(ExplicitMaxMinConfig::default());
    // VC 0 is held at 300,000 cells/s elsewhere; VC 1 is ramping up from ICR.
    send(&mut a, 0.0, 0, 0, 300_000.0, 300_000.0);
    for ms in [1.0, 2.0] {
        send(&mut a, ms, 5000, 0, 300_000.0, 300_000.0);
    }
    let first = send(&mut a, 3.0, 5000, 1, LINK, 500.0);
    assert_eq!(a.table.class(1), Class::Satisfied);
    // VC 0's demand falls to 10,000: a large share opens up for VC 1, but
    // the port is reducing, so VC 1's ER may rise by inc2 = M/(num_b·n) only.
    send(&mut a, 4.0, 5000, 0, 10_000.0, 10_000.0);
    let second = send(&mut a, 4.5, 5000, 1, LINK, 600.0);
    let n = (0.020_f64 / 0.0015).max(1.0);
    let inc2 = 0.1 * LINK / (1.0 * n);
    assert!(close(second, first + inc2), "{first} → {second}, inc2 {inc2}");
    // It is booked at the ER it may now use, not at its 600 cells/s.
    assert!(close(a.table.allocation(1), second));
}

#[test]
fn switched_off_it_never_reduces() {
    let mut a = plain();
    send(&mut a, 0.0, 0, 0, LINK, LINK);
    for ms in 1..10 {
        assert!(close(send(&mut a, ms as f64, 100_000, 0, LINK, LINK), LINK));
    }
    assert_eq!(a.control, QueueControl::default());
}

#[test]
fn background_traffic_is_taken_out_of_the_abr_capacity() {
    let mut a = plain();
    // 1 ms with half the link's cells being CBR.
    let n = (LINK / 2.0 / 1000.0) as u32;
    for i in 0..n {
        let mut c = Cell { kind: CellKind::Background, ..Cell::data(0) };
        a.on_arrival(&view(i as f64 / n as f64, 0), &mut c);
    }
    let er = send(&mut a, 1.0, 0, 0, LINK, LINK);
    assert!((er - LINK / 2.0).abs() < 0.01 * LINK, "{er}");
}

#[test]
fn set_up_rate_computes_rm_allocates() {
    let mut a = plain();
    send(&mut a, 0.0, 0, 0, LINK, LINK);
    let setup = |allocate| Setup { er: LINK, ccr: LINK, pcr: LINK, mcr: 0.0, allocate };
    // RATE: the newcomer is offered C/2 but nothing is recorded.
    let mut s = setup(false);
    a.on_setup(&view(1.0, 0), 1, &mut s);
    assert!(close(s.er, LINK / 2.0));
    assert_eq!(a.table.active(), 1);
    assert!(close(send(&mut a, 1.1, 0, 0, LINK, LINK), LINK));
    // RM: the allocation is made at set-up, so VC 0's next RM cell is
    // told C/2 at once: the "early warning".
    let mut s = setup(true);
    a.on_setup(&view(2.0, 0), 1, &mut s);
    assert!(close(s.er, LINK / 2.0));
    assert_eq!(a.table.active(), 2);
    assert!(close(send(&mut a, 2.1, 0, 0, LINK, LINK), LINK / 2.0));
}

#[test]
fn idle_vcs_are_forgotten_after_the_timeout() {
    let mut a = plain();
    send(&mut a, 0.0, 0, 0, LINK, LINK);
    send(&mut a, 0.0, 0, 1, LINK, LINK);
    assert_eq!(a.first_tick(SimTime::ZERO), Some(SimTime::from_ms(500.0)));
    send(&mut a, 900.0, 0, 0, LINK, LINK);
    a.on_tick(&view(1500.0, 0));
    assert_eq!(a.table.active(), 1);
    assert!(close(send(&mut a, 1501.0, 0, 0, LINK, LINK), LINK));
}

#[test]
fn the_table_spans_the_vcs_seen_from_the_ports_first_member() {
    let mut t = MaxMinTable::default();
    t.start_at(1999);
    t.attach(1999, Class::Satisfied, 30.0);
    assert_eq!(t.vcs.len(), 1, "a destination's own port: one state");
    assert_eq!(t.class(5), Class::Idle);
    // A VC below the first member still gets a state, the others kept.
    t.attach(1990, Class::Bottlenecked, 0.0);
    assert_eq!((t.base, t.vcs.len()), (1990, 10));
    assert_eq!(t.allocation(1999), 30.0);
    assert_eq!(t.class(1990), Class::Bottlenecked);
    assert_eq!(t.active(), 2);
}

#[test]
fn the_reduction_is_split_over_the_vcs_this_port_limits_whatever_their_ccr() {
    // Three VCs want the whole link; a fourth is held at 20,000 upstream.
    let mut a = ExplicitMaxMin::new(ExplicitMaxMinConfig::default());
    let third = (LINK - 20_000.0) / 3.0;
    send(&mut a, 0.0, 0, 3, 20_000.0, 20_000.0);
    for vc in 0..3 {
        send(&mut a, 0.0, 0, vc, LINK, LINK);
    }
    for vc in 0..3 {
        send(&mut a, 1.0, 0, vc, LINK, third);
    }
    assert_eq!(a.table.limited_here(), 3);
    // VC 0's CCR lags a hair under the share: §2.2 books it satisfied at
    // that CCR, but this port is still what limits it.
    send(&mut a, 2.0, 0, 0, LINK, 0.999 * third);
    assert_eq!(a.table.class(0), Class::Satisfied);
    assert_eq!((a.table.bottlenecked(), a.table.limited_here()), (2, 3));
    // Above 3S the reduction M is split over the three (Figure 14 line 35),
    // not over the two left booked as bottlenecked.
    send(&mut a, 3.0, 1800, 1, LINK, third);
    send(&mut a, 3.1, 1800, 2, LINK, third);
    let m = 0.1 * LINK;
    assert!(close(a.control.reducing_cap, m), "{}", a.control.reducing_cap);
    assert!(close(a.table.state(2).reducing_cap, m / 3.0), "{}", a.table.state(2).reducing_cap);
    // A VC that leaves is no longer counted.
    a.table.remove(1);
    assert_eq!(a.table.limited_here(), 2);
}
