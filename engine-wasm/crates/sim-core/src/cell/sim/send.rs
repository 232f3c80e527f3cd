//! Sending: a source's transmission opportunities (rule 2's first cell,
//! rule 3's schedule, catching a lazy source up), its traffic edges, the
//! background sources (each change marks the oracle's shares: `oracle.rs`).

use super::*;

impl Simulation {
    /// Makes sure `vc`'s source has a transmission opportunity scheduled if it
    /// has anything to send; before its connection is up, sets it up instead.
    pub(super) fn wake_source(&mut self, now: SimTime, vc: u32) {
        if !self.vcs[vc as usize].source.started {
            // A bidirectional VC is one connection, set up from the forward end.
            let forward = self.vcs[vc as usize].reverse_of.unwrap_or(vc);
            if self.vcs[forward as usize].switched {
                self.set_up(now, forward);
                return;
            }
            // A permanent VC is in place: rule 2 at once, with the static ICR.
            let v = &mut self.vcs[vc as usize];
            v.account_acr(now);
            v.source.start();
            v.connected_at = Some(now);
        }
        self.catch_up_source(now, vc);
        let v = &mut self.vcs[vc as usize];
        let s = &mut v.source;
        if s.next_send.is_some() || !s.has_work(now) {
            // A lazy source's coming cells may have changed (a partner's BRM).
            if v.lazy.is_some() {
                self.requeue(now, vc, true);
            } else if v.sole_sender && v.armed.is_none() {
                self.arm(vc);
            }
            return;
        }
        let t = s.earliest_send(now);
        s.next_send = Some(t);
        if v.lazy.is_some() {
            self.requeue(now, vc, true);
        } else if v.sole_sender {
            self.arm(vc);
        } else {
            s.generation = s.generation.wrapping_add(1);
            self.queue.schedule(t, Event::SourceSend { vc, generation: s.generation });
        }
    }

    /// Sends, each at its time, the cells of a sole sender's source whose
    /// time came by `now` (the work its `SourceSend` events would have done):
    /// call it before reading or changing the source, or its host port, at
    /// `now`. Its cells arrive at the switch by `Event::HostArrive`.
    #[inline]
    pub(super) fn catch_up_source(&mut self, now: SimTime, vc: u32) {
        let v = &self.vcs[vc as usize];
        if v.sole_sender && v.source.next_send.is_some_and(|t| t <= now) {
            self.send_due(now, vc);
        } else if v.sends_first {
            self.send_first(now, vc);
        }
    }

    /// Built without the shortcuts, [`Simulation::catch_up_source`] for a
    /// source that would be a sole sender: its cell due now goes first, as a
    /// sole sender's would, whatever the order of the events of this instant.
    #[cold]
    #[inline(never)]
    pub(super) fn send_first(&mut self, now: SimTime, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        if v.source.next_send == Some(now) {
            // Its pending `SourceSend` goes with the old generation.
            v.source.generation = v.source.generation.wrapping_add(1);
            let generation = v.source.generation;
            self.on_source_send(now, vc, generation);
        }
    }

    /// [`Simulation::catch_up_source`] for every loop.
    pub(super) fn catch_up_sources(&mut self, now: SimTime) {
        for vc in 0..self.vcs.len() as u32 {
            self.catch_up_source(now, vc);
        }
    }

    /// [`Simulation::catch_up_source`]'s work, out of its callers' way.
    #[inline(never)]
    pub(super) fn send_due(&mut self, now: SimTime, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        let p = &mut self.ports[v.host_port as usize];
        while let Some(t) = v.source.next_send.filter(|&t| t <= now) {
            let Some(mut cell) = v.send(t, vc) else { return };
            self.source_cells += 1;
            // The host port is the source's alone and its link ends at a
            // switch: no algorithm looks at it, no timer serves it and every
            // cell's arrival is an event (none is scheduled here).
            let _ = p.catch_up(t);
            let _ = p.offer(t, &mut cell);
        }
    }

    /// Makes sure a sole sender has its `HostArrive` pending: at its host
    /// link's first arrival, or while that link is empty, when the source's
    /// next cell would arrive if sent at its time (the port is then idle and
    /// nothing else enters it). An event already pending no later stays.
    pub(super) fn arm(&mut self, vc: u32) {
        let v = &mut self.vcs[vc as usize];
        let p = &self.ports[v.host_port as usize];
        let next = v.source.next_send.map(|t| t + p.cell_time + p.delay);
        let at = match (p.wire.next_due(), next) {
            (Some(head), Some(next)) => head.min(next),
            (head, next) => match head.or(next) {
                Some(at) => at,
                None => return,
            },
        };
        if v.armed.is_some_and(|a| a <= at) {
            return;
        }
        v.armed = Some(at);
        v.source.generation = v.source.generation.wrapping_add(1);
        self.queue.schedule(at, Event::HostArrive { vc, generation: v.source.generation });
    }

    /// A sole sender's host link: the cells whose time came go out, then
    /// the link's arrival as for any other (if one is due now).
    pub(super) fn on_host_arrive(&mut self, now: SimTime, vc: u32, generation: u32) {
        let v = &mut self.vcs[vc as usize];
        if generation != v.source.generation {
            return; // superseded by an earlier arrival
        }
        v.armed = None;
        if let Some(lazy) = v.lazy {
            self.on_lazy_arrive(now, vc, lazy.merge);
            return;
        }
        let port = v.host_port;
        self.catch_up_source(now, vc);
        let p = &mut self.ports[port as usize];
        let _ = p.catch_up(now); // a host port's: see `send_due`
        if p.wire.next_due() == Some(now) {
            self.on_link_arrive(now, port, Some(vc));
        } else {
            self.arm(vc);
        }
    }

    pub(super) fn on_source_send(&mut self, now: SimTime, vc: u32, generation: u32) {
        let v = &mut self.vcs[vc as usize];
        if generation != v.source.generation {
            return; // superseded by a reschedule
        }
        let Some(mut cell) = v.send(now, vc) else { return };
        self.source_cells += 1;
        // Whatever the source sends leaves by its own host's port: a BRM it
        // sends for its partner loop goes the way its own cells go, which is
        // the partner's way back.
        let port = v.host_port;
        if let Some(next) = v.source.next_send {
            self.queue.schedule(next, Event::SourceSend { vc, generation: v.source.generation });
        }
        self.enqueue(now, port, &mut cell);
    }

    pub(super) fn on_traffic_change(&mut self, now: SimTime, vc: u32) {
        let traffic = self.vcs[vc as usize].source.traffic;
        if traffic.active(now) || !self.vcs[vc as usize].source.started {
            self.wake_source(now, vc);
        }
        if let Some(next) = traffic.next_change(now) {
            self.queue.schedule(next, Event::TrafficChange { vc });
        }
        self.update_maxmin(now);
    }

    pub(super) fn on_background_edge(&mut self, now: SimTime, source: u32) {
        let b = &mut self.background[source as usize];
        let was_on = b.is_on;
        b.is_on = b.on_at(now);
        if b.is_on && !was_on && !b.sending {
            b.sending = true;
            self.queue.schedule(now, Event::BackgroundSend { source });
        }
        if let Some(next) = b.next_edge(now) {
            self.queue.schedule(next, Event::BackgroundEdge { source });
        }
        if b.is_on != was_on {
            self.update_maxmin(now);
        }
    }

    pub(super) fn on_background_send(&mut self, now: SimTime, source: u32) {
        let b = &mut self.background[source as usize];
        if !b.is_on {
            b.sending = false;
            return;
        }
        b.sent += 1;
        let next = now + b.interval;
        let port = b.ports[0];
        self.queue.schedule(next, Event::BackgroundSend { source });
        let mut cell =
            Cell { vc: source, kind: CellKind::Background, efci: false, rm: RmFields::EMPTY };
        self.enqueue(now, port, &mut cell);
    }
}
