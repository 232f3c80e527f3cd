//! Cells through the network: offering a cell to a port, its transmitter
//! and wire, landing lazy feeders and trunks, and delivering each cell where
//! its link ends (the next switch port, a destination, or an end system
//! turning an RM cell around).

use super::*;

impl Simulation {
    /// Offers `cell` to `port`: the algorithm sees it, the port queues or drops
    /// it, and an idle transmitter starts at once.
    pub(super) fn enqueue(&mut self, now: SimTime, port: u32, cell: &mut Cell) {
        self.catch_up_port(now, port);
        let p = &mut self.ports[port as usize];
        if let Some(view) = p.algorithm_view(now) {
            p.algorithm.on_arrival(&view, cell);
        }
        match p.offer(now, cell) {
            Offer::Sent { first_due: true } => {
                let arrival = p.wire.back_time().expect("just sent");
                self.schedule_arrival(arrival, port);
            }
            Offer::Queued { timer: Some(at) } => self.schedule_timer(at, port),
            Offer::Sent { first_due: false } | Offer::Queued { timer: None } | Offer::Lost => {}
        }
    }

    /// The arrival of the head of `port`'s wire: one pending at a time per port.
    pub(super) fn schedule_arrival(&mut self, at: SimTime, port: u32) {
        self.queue.schedule(at, Event::LinkArrive { port });
    }

    /// `port`'s transmitter timer: also one at a time per port.
    pub(super) fn schedule_timer(&mut self, at: SimTime, port: u32) {
        self.queue.schedule(at, Event::PortTxDone { port });
    }

    pub(super) fn on_tx_done(&mut self, now: SimTime, port: u32) {
        self.land_feeder(now, port);
        let p = &mut self.ports[port as usize];
        let (first_due, next) = p.on_timer(now);
        if first_due {
            let arrival = p.wire.next_due().expect("just sent");
            self.schedule_arrival(arrival, port);
        }
        if let Some(at) = next {
            self.schedule_timer(at, port);
        }
    }

    /// Starts the waiting cells of `port` whose turn came by `now`
    /// ([`Port::catch_up`]), scheduling the wire's first pending arrival if
    /// one of them is it (a [`Starts::Guarded`] port's RM cell).
    #[inline]
    pub(super) fn catch_up_port(&mut self, now: SimTime, port: u32) {
        if self.ports[port as usize].catch_up(now) {
            self.schedule_first_due(port);
        }
    }

    #[inline(never)]
    pub(super) fn schedule_first_due(&mut self, port: u32) {
        let at = self.ports[port as usize].wire.next_due().expect("a cell just started is due");
        self.schedule_arrival(at, port);
    }

    /// Before anything reads or changes `port` at `now`: if its cells come
    /// from links whose data cells land without events, lands them.
    #[inline]
    pub(super) fn land_feeder(&mut self, now: SimTime, port: u32) {
        let p = &self.ports[port as usize];
        if let Some(m) = p.merge {
            self.land_sources(now, m);
            return;
        }
        match p.feeders[..] {
            [] => {}
            [trunk] => self.land_trunk(now, trunk),
            _ => self.land_merged(now, port),
        }
    }

    /// Lands, each at its own time and in order, every data and background
    /// cell on lazy link `trunk` that has reached its far switch by `now`,
    /// which sends it on as its arrival event would have (build.rs): a last
    /// trunk's into ports that no other link feeds, with no queue, ending at
    /// hosts, so that nothing it does schedules an event and nothing else
    /// saw those ports since; or a host link's into the last trunk it alone
    /// feeds. The link's own feeders land first: its cells up to `now` are
    /// then all on it.
    #[inline(never)]
    pub(super) fn land_trunk(&mut self, now: SimTime, trunk: u32) {
        self.land_feeder(now, trunk);
        self.catch_up_port(now, trunk);
        self.land_arrived(now, trunk);
    }

    /// Lands the cells of `port`'s several lazy feeders (host links into a
    /// last trunk, build.rs) that have arrived by `now`, merged: each in
    /// turn, the one that arrived first, as their arrival events would have
    /// come (at equal times, the feeder listed first).
    #[inline(never)]
    pub(super) fn land_merged(&mut self, now: SimTime, port: u32) {
        let count = self.ports[port as usize].feeders.len();
        for k in 0..count {
            let link = self.ports[port as usize].feeders[k];
            self.catch_up_port(now, link);
        }
        loop {
            let mut first: Option<(SimTime, u32)> = None;
            for &link in &self.ports[port as usize].feeders {
                if let Some(at) = self.ports[link as usize].wire.landed_head(now) {
                    if first.is_none_or(|(t, _)| at < t) {
                        first = Some((at, link));
                    }
                }
            }
            let Some((_, link)) = first else { return };
            let (at, mut cell, _) = self.ports[link as usize].wire.pop_front().expect("its head");
            self.land(at, link, &mut cell);
        }
    }

    /// Lands, in order, the cells on `port`'s link that have arrived by
    /// `now` without events of their own ([`Simulation::land`]).
    pub(super) fn land_arrived(&mut self, now: SimTime, port: u32) {
        while let Some((at, mut cell)) = self.ports[port as usize].wire.pop_landed(now) {
            self.land(at, port, &mut cell);
        }
    }

    /// The cell at the head of `port`'s link arrives. The caller has caught
    /// the port up: the cells that started since the link's last arrival
    /// went onto it first, and the next to arrive may be one of them. The
    /// link's next arrival is scheduled, or for a sole sender's host link
    /// (`sole`, the loop) armed.
    pub(super) fn on_link_arrive(&mut self, now: SimTime, port: u32, sole: Option<u32>) {
        loop {
            let p = &mut self.ports[port as usize];
            let (at, mut cell, due) =
                p.wire.pop_front().expect("an arrival event has a cell on the wire");
            if !due {
                // Landed before this event's cell, in the order they came.
                self.land(at, port, &mut cell);
                continue;
            }
            debug_assert_eq!(at, now);
            match sole {
                None => {
                    if let Some(next) = p.wire.next_due() {
                        self.schedule_arrival(next, port);
                    }
                }
                Some(vc) => self.arm(vc),
            }
            self.deliver(now, port, &mut cell);
            return;
        }
    }

    /// A cell that arrived at `at` over `from`'s link without an event of
    /// its own (`Wire::lazy`). Over a last trunk or a host link into one
    /// (both [`Starts::Guarded`]) the far switch sends it on, as the event
    /// would have. At the host at the end of its route: a data cell of a loop
    /// without messages, which the destination only counts (and whose EFCI
    /// it keeps for the next FRM, which comes after it on the same link), or
    /// a background cell — the same books as [`Simulation::deliver`] keeps.
    pub(super) fn land(&mut self, at: SimTime, from: u32, cell: &mut Cell) {
        if self.ports[from as usize].starts == Starts::Guarded {
            self.deliver(at, from, cell);
            return;
        }
        match cell.kind {
            CellKind::Data => {
                let landed = self.vcs[cell.vc as usize].dest.receive(cell);
                debug_assert!(landed.is_none());
            }
            CellKind::Background => self.background[cell.vc as usize].received += 1,
            CellKind::Frm | CellKind::Brm => unreachable!("RM cells arrive as events"),
        }
    }

    /// Brings every source and port up to `now` — sends the cells of sole
    /// senders whose time came, starts the waiting cells whose turn came
    /// ([`Port::catch_up`]) and lands every cell that has reached its far
    /// switch or host without an event of its own — so that what the run
    /// reports, draws or edits sees the network as it is at `now`.
    pub(super) fn settle(&mut self, now: SimTime) {
        // Sources first: their cells go into their host ports at their
        // times; then the ports, each after the links whose cells land in
        // it; then the last trunks, whose cells go on to links that end at
        // hosts; then those links.
        self.catch_up_sources(now);
        let ports = 0..self.ports.len() as u32;
        for p in ports.clone() {
            if self.ports[p as usize].starts != Starts::Timed {
                self.land_feeder(now, p);
                self.catch_up_port(now, p);
            }
        }
        for p in ports.clone() {
            let port = &self.ports[p as usize];
            if port.starts == Starts::Guarded && port.lands_into.is_none() {
                self.land_trunk(now, p);
            }
        }
        for p in ports {
            if self.ports[p as usize].starts == Starts::Timed {
                self.catch_up_port(now, p);
            }
            let port = &self.ports[p as usize];
            if !matches!(port.starts, Starts::Guarded | Starts::BySource) && port.wire.is_lazy() {
                self.land_arrived(now, p);
            }
        }
    }

    /// A cell reaches the far end of `from`, the next node of its route.
    /// Routes never visit a node twice, so where `from` is on the cell's
    /// route says how far along it the cell is; where `from` names the port
    /// its cells go on by ([`Port::next_hop`]), the route is not read.
    ///
    /// The cell comes by reference, as into [`Simulation::enqueue`] and
    /// [`Port::offer`]: moved by value, its copy read the fields its maker
    /// had just written one by one with a wider load, a failed store
    /// forwarding per cell and hop (3–4 % of the run).
    pub(super) fn deliver(&mut self, now: SimTime, from: u32, cell: &mut Cell) {
        let next = match cell.kind {
            CellKind::Data | CellKind::Frm => self.ports[from as usize].next_hop.of(cell.vc),
            CellKind::Background => match self.ports[from as usize].next_hop {
                NextHop::One(port) => Some(port),
                _ => None,
            },
            CellKind::Brm => None,
        };
        if let Some(port) = next {
            self.enqueue(now, port, cell);
            return;
        }
        let after = |ports: &[u32]| {
            1 + ports
                .iter()
                .position(|&p| p == from)
                .expect("a cell arrives from a port of its route")
        };
        if cell.kind == CellKind::Background {
            let b = &mut self.background[cell.vc as usize];
            let hop = after(&b.ports);
            if hop == b.ports.len() {
                b.received += 1;
            } else {
                let port = b.ports[hop];
                self.enqueue(now, port, cell);
            }
            return;
        }
        let vc = cell.vc as usize;
        let hops = self.vcs[vc].fwd_ports.len();
        match cell.kind {
            CellKind::Data | CellKind::Frm => {
                let hop = after(&self.vcs[vc].fwd_ports);
                if hop < hops {
                    let port = self.vcs[vc].fwd_ports[hop];
                    self.enqueue(now, port, cell);
                    return;
                }
                let is_data = cell.kind == CellKind::Data;
                if let Some(mut brm) = self.vcs[vc].dest.receive(cell) {
                    match self.vcs[vc].partner {
                        Some(partner) => {
                            self.catch_up_source(now, partner);
                            self.vcs[partner as usize].source.give_brm(brm);
                            self.wake_source(now, partner);
                        }
                        None => {
                            self.vcs[vc].brm_direct += 1;
                            let port = self.vcs[vc].rev_ports[0];
                            self.enqueue(now, port, &mut brm);
                        }
                    }
                }
                if is_data {
                    self.message_cell_arrived(now, vc);
                }
            }
            CellKind::Brm => {
                let hop = after(&self.vcs[vc].rev_ports);
                if hop == hops {
                    self.catch_up_source(now, vc as u32);
                    let v = &mut self.vcs[vc];
                    v.account_acr(now);
                    v.source.on_brm(&cell.rm);
                    let rescheduled = v.source.reschedule(now);
                    if v.lazy.is_some() {
                        // ACR changed: so may the times of its coming cells.
                        if rescheduled.is_some() {
                            v.armed = None;
                        }
                        self.requeue(now, vc as u32, true);
                    } else if let Some(t) = rescheduled {
                        if v.sole_sender {
                            // The pending arrival went with the old generation.
                            v.armed = None;
                            self.arm(vc as u32);
                        } else {
                            let generation = v.source.generation;
                            self.queue.schedule(t, Event::SourceSend { vc: vc as u32, generation });
                        }
                    }
                } else {
                    // The switch this BRM is at feeds back on the loop's forward port there.
                    let fwd = self.vcs[vc].fwd_ports[hops - hop];
                    self.land_feeder(now, fwd);
                    self.catch_up_port(now, fwd);
                    let p = &mut self.ports[fwd as usize];
                    let view = p.view(now);
                    p.algorithm.on_backward_rm(&view, cell);
                    let port = self.vcs[vc].rev_ports[hop];
                    self.enqueue(now, port, cell);
                }
            }
            CellKind::Background => unreachable!("handled above"),
        }
    }

    /// Request–response: a whole message at this loop's destination makes the
    /// other end send its reply (or, at the client, its next request).
    pub(super) fn message_cell_arrived(&mut self, now: SimTime, vc: usize) {
        let v = &mut self.vcs[vc];
        let (Some(size), Some(partner)) = (v.message_cells, v.partner) else { return };
        v.message_progress += 1;
        if v.message_progress < size {
            return;
        }
        v.message_progress = 0;
        v.messages_done += 1;
        self.catch_up_source(now, partner);
        let other = &mut self.vcs[partner as usize];
        if other.source.traffic.active(now) {
            other.source.backlog += other.message_cells.unwrap_or(0);
            self.wake_source(now, partner);
            self.update_maxmin(now);
        }
    }
}
