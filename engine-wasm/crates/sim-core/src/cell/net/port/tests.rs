use super::super::wire::OnWire;
use super::*;
use crate::cell::atm::CellKind;
use crate::time::mbps_to_cells_per_s;
use std::collections::VecDeque;

fn port(buffer: u32) -> Port {
    let [ends, _] = PortEnds::of_link("p", 0, 0, 1);
    Port::new(
        ends,
        true,
        mbps_to_cells_per_s(155.52),
        SimTime::from_ms(5.0),
        buffer,
        Discipline::Fifo,
        AnyAlgorithm::None,
    )
}

#[test]
fn what_a_passing_cell_touches_lies_in_the_ports_first_two_cache_lines() {
    use std::mem::{align_of, offset_of};
    assert_eq!(align_of::<Port>(), 64);
    assert!(offset_of!(Port, sent_total) + 8 <= 64, "the first line ends after the counters");
    let wire = offset_of!(Port, wire);
    assert!(offset_of!(Port, busy) >= 64);
    assert!(wire + offset_of!(Wire, lazy) < 128, "the link's FIFO and its flag in the second");
    assert!(wire + offset_of!(Wire, cells) + size_of::<VecDeque<OnWire>>() <= 128);
}

/// A port of ten cells' buffer whose link is lazy, its waiting cells
/// starting as `starts` says; and its cell time at 155.52 Mbit/s.
fn lazy_port(starts: Starts) -> (Port, SimTime) {
    let mut p = port(10);
    p.wire.set_lazy(true);
    p.starts = starts;
    (p, SimTime(2_726_337))
}

#[test]
fn an_idle_port_sends_at_once_and_a_busy_one_queues() {
    // A link that ends at a host: queued cells start by timer events.
    let (mut p, ct) = lazy_port(Starts::Timed);
    assert_eq!(p.offer(SimTime(0), &mut Cell::data(1)), Offer::Sent { first_due: false });
    assert_eq!(p.wire.back_time().unwrap(), ct + SimTime::from_ms(5.0));
    assert_eq!(p.offer(SimTime(10), &mut Cell::data(2)), Offer::Queued { timer: Some(ct) });
    assert_eq!(p.offer(SimTime(20), &mut Cell::data(3)), Offer::Queued { timer: None });
    assert_eq!(p.queue_len(), 2);
    assert_eq!(p.on_timer(ct), (false, Some(ct + ct)));
    assert_eq!(p.on_timer(ct + ct), (false, None));
    assert_eq!(p.cells_held(), 3);
}

#[test]
fn a_timed_port_looked_at_as_its_transmitter_frees_starts_the_next_cell_first() {
    let (mut p, ct) = lazy_port(Starts::Timed);
    p.offer(SimTime(0), &mut Cell::data(1));
    assert_eq!(p.offer(SimTime(10), &mut Cell::data(2)), Offer::Queued { timer: Some(ct) });
    // A cell arrives at `ct`, before the timer's turn at the same instant:
    // the waiting cell starts first, and the new one waits behind it.
    assert!(!p.catch_up(ct));
    assert_eq!((p.queue_len(), p.wire.len()), (0, 2));
    assert_eq!(p.offer(ct, &mut Cell::data(3)), Offer::Queued { timer: None });
    // The timer comes all the same, finds the port busy and waits for the cell's end.
    assert_eq!(p.on_timer(ct), (false, Some(ct + ct)));
    assert_eq!(p.on_timer(ct + ct), (false, None));
    let order: Vec<_> = p.wire.iter().map(|(_, c)| c.vc).collect();
    assert_eq!(order, vec![1, 2, 3]);
}

#[test]
fn a_port_to_a_switch_starts_its_waiting_cells_without_timers() {
    let mut p = port(10);
    let ct = SimTime(2_726_337);
    let prop = SimTime::from_ms(5.0);
    assert_eq!(p.offer(SimTime(0), &mut Cell::data(1)), Offer::Sent { first_due: true });
    assert_eq!(p.offer(SimTime(10), &mut Cell::data(2)), Offer::Queued { timer: None });
    assert_eq!(p.offer(SimTime(20), &mut Cell::data(3)), Offer::Queued { timer: None });
    // Nothing starts before its turn; each starts exactly when the one before ends.
    assert!(!p.catch_up(SimTime(ct.0 - 1)));
    assert_eq!((p.queue_len(), p.wire.len()), (2, 1));
    assert!(!p.catch_up(ct + ct));
    assert_eq!((p.queue_len(), p.wire.len()), (0, 3));
    let arrivals: Vec<_> = p.wire.iter().map(|(at, c)| (at, c.vc)).collect();
    assert_eq!(arrivals, vec![(ct + prop, 1), (ct + ct + prop, 2), (SimTime(3 * ct.0) + prop, 3)]);
    // The queue integral counts each wait up to its cell's start: 2 cells
    // for the first cell time (less the 10 and 20 ps before they came),
    // then 1.
    let s = p.take_interval(SimTime(3 * ct.0));
    let area = (ct.0 - 10) + (ct.0 - 20) + ct.0;
    assert_eq!(s.queue_mean, area as f64 / (3 * ct.0) as f64);
    assert_eq!((s.utilization, p.sent_total), (1.0, 3));
}

#[test]
fn a_guarded_port_catches_up_within_a_propagation_delay_of_each_start() {
    // A last trunk whose data cells land without events: its waiting
    // cells start by catch-up, and while an RM cell waits a guard event
    // 1 ps before it could reach the far end makes sure its arrival is
    // scheduled before it gets there.
    let (mut p, ct) = lazy_port(Starts::Guarded);
    let prop = SimTime::from_ms(5.0);
    let guard = SimTime(ct.0 + prop.0 - 1);
    let frm = Cell { kind: CellKind::Frm, ..Cell::data(3) };
    assert_eq!(p.offer(SimTime(0), &mut Cell::data(1)), Offer::Sent { first_due: false });
    assert_eq!(p.offer(SimTime(1), &mut Cell::data(2)), Offer::Queued { timer: None });
    // The FRM starts after data(2), at 2 cell times at the earliest.
    let at = SimTime(2 * ct.0) + guard;
    assert_eq!(p.offer(SimTime(2), &mut frm.clone()), Offer::Queued { timer: Some(at) });
    assert_eq!(p.offer(SimTime(3), &mut Cell::data(4)), Offer::Queued { timer: None });
    // One guard at a time: a later RM cell can start no earlier.
    assert_eq!(p.offer(SimTime(4), &mut frm.clone()), Offer::Queued { timer: None });
    // The guard starts every cell whose turn came, the FRMs among them.
    let (first_due, next) = p.on_timer(at);
    assert!(first_due);
    assert_eq!(p.wire.next_due(), Some(SimTime(3 * ct.0) + prop));
    assert_eq!((p.queue_len(), next, p.wire.len()), (0, None, 5));
    // An RM cell queued later arms a new guard; a catch-up before it
    // does its work (the FRM before is still on the wire, the first due).
    let now = at;
    assert_eq!(p.offer(now, &mut Cell::data(5)), Offer::Sent { first_due: false });
    assert_eq!(p.offer(now, &mut Cell::data(6)), Offer::Queued { timer: None });
    let at = now + SimTime(2 * ct.0) + guard;
    assert_eq!(p.offer(now, &mut frm.clone()), Offer::Queued { timer: Some(at) });
    assert!(!p.catch_up(now + SimTime(2 * ct.0)));
    assert_eq!(p.on_timer(at), (false, None));
    assert_eq!(p.wire.len(), 8);
}

#[test]
fn buffer_limit_drops_and_counts() {
    let mut p = port(2);
    p.offer(SimTime(0), &mut Cell::data(0)); // on the wire
    assert!(matches!(p.offer(SimTime(0), &mut Cell::data(0)), Offer::Queued { .. }));
    assert!(matches!(p.offer(SimTime(0), &mut Cell::data(0)), Offer::Queued { .. }));
    assert_eq!(p.offer(SimTime(0), &mut Cell::data(0)), Offer::Lost);
    assert_eq!(p.stats.lost_total, 1);
    assert_eq!(p.queue_len(), 2);
}

#[test]
fn background_cells_go_first() {
    let mut p = port(10);
    p.offer(SimTime(0), &mut Cell::data(9));
    p.offer(SimTime(0), &mut Cell::data(1));
    p.offer(SimTime(0), &mut Cell { kind: Background, ..Cell::data(0) });
    p.offer(SimTime(0), &mut Cell::data(2));
    let mut t = p.cell_time;
    while let (_, Some(next)) = p.on_timer(t) {
        t = next;
    }
    let order: Vec<_> = p.wire.iter().map(|(_, c)| c.kind).collect();
    assert_eq!(p.wire.iter().map(|(_, c)| c.vc).collect::<Vec<_>>(), vec![9, 0, 1, 2]);
    use crate::cell::net::CellKind::*;
    assert_eq!(order, vec![Data, Background, Data, Data]);
}

#[test]
fn rm_cells_skip_the_data_queue_when_the_algorithm_asks() {
    use crate::cell::net::CellKind::*;
    use crate::cell::switch_alg::{Erica, EricaConfig};
    let frm = |vc| Cell { kind: Frm, ..Cell::data(vc) };
    for (config, order) in [
        (EricaConfig::default(), vec![(9, Data), (0, Background), (5, Frm), (1, Data), (2, Data)]),
        (EricaConfig::basic(), vec![(9, Data), (0, Background), (1, Data), (5, Frm), (2, Data)]),
    ] {
        let mut p = port(10);
        p.algorithm = AnyAlgorithm::Erica(Box::new(Erica::new(config, vec![1, 2, 5, 9])));
        p.offer(SimTime(0), &mut Cell::data(9));
        p.offer(SimTime(0), &mut Cell::data(1));
        p.offer(SimTime(0), &mut frm(5));
        p.offer(SimTime(0), &mut Cell { kind: Background, ..Cell::data(0) });
        p.offer(SimTime(0), &mut Cell::data(2));
        assert_eq!((p.queue_len(), p.abr_queue_len(), p.waiting().count()), (4, 3, 4));
        let mut t = p.cell_time;
        while let (_, Some(next)) = p.on_timer(t) {
            t = next;
        }
        let sent: Vec<_> = p.wire.iter().map(|(_, c)| (c.vc, c.kind)).collect();
        assert_eq!(sent, order);
    }
}

#[test]
fn interval_statistics_integrate_the_queue_and_split_busy_time() {
    let mut p = port(10);
    let ct = p.cell_time;
    p.offer(SimTime(0), &mut Cell::data(0));
    p.offer(SimTime(0), &mut Cell::data(0));
    p.offer(SimTime(0), &mut Cell::data(0));
    // Two cells wait for the whole first cell time; the transmitter is busy throughout.
    let s = p.take_interval(ct);
    assert_eq!((s.queue_mean, s.queue_max, s.utilization), (2.0, 2, 1.0));
    p.on_timer(ct);
    // Half-way through the second cell: busy all along, the rest carried over.
    let half = SimTime(ct.0 + ct.0 / 2);
    assert_eq!(p.take_interval(half).utilization, 1.0);
    assert_eq!(p.busy, ct.0 - ct.0 / 2);
}
