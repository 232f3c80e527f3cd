//! Switched VCs (Ma & Ramakrishnan §3): the set-up crossing the
//! path hop by hop, each switch's processing and its algorithm's offer
//! (RATE and RM start-up), its wait behind the cells queued at each port
//! (in-band signalling), and the connect coming back.

use super::*;

impl Simulation {
    /// The set-up offer a loop starts from: its PCR; with the RM option the
    /// switches also allocate as it passes (Ma & Ramakrishnan §3).
    pub(super) fn setup_offer(&self, vc: usize) -> Setup {
        let v = &self.vcs[vc];
        let p = v.source.params;
        Setup { er: p.pcr, ccr: p.pcr, pcr: p.pcr, mcr: p.mcr, allocate: v.startup == Startup::Rm }
    }

    /// Connection set-up (rule 2): the set-up message leaves the
    /// source of forward loop `vc` now and crosses the path hop by hop; data
    /// waits for the connect (see [`Simulation::on_signal`]). Once per loop.
    pub(super) fn set_up(&mut self, now: SimTime, vc: u32) {
        let i = vc as usize;
        if self.vcs[i].setup_sent.is_some() {
            return;
        }
        let setup = self.setup_offer(i);
        let reverse_setup = self.vcs[i].partner.map(|p| self.setup_offer(p as usize));
        let first = self.vcs[i].host_port as usize;
        let until = now + self.ports[first].setup_delay;
        let v = &mut self.vcs[i];
        v.setup_sent = Some(now);
        v.signal = Some(Signal {
            connect: false,
            hop: 0,
            on_wire: false,
            since: now,
            until,
            setup,
            reverse_setup,
            frtt: SimTime::ZERO,
            queued: false,
        });
        self.queue.schedule(until, Event::Signal { vc });
    }

    /// The set-up or connect of forward loop `vc` ends a step. Processed at a
    /// node, it reaches the route's next port: the set-up passes that port's
    /// switch algorithm as it arrives there, as an RM cell would — RATE
    /// computes the loop's share, RM also allocates it, the "early warning"
    /// to the VCs already there (Ma & Ramakrishnan §3) — then, in band, waits
    /// behind the cells queued at the port, and crosses the link. Arrived at a
    /// node, it is processed there, turned round at the destination as the
    /// connect, or, back at the source, starts the loop (and its reverse).
    pub(super) fn on_signal(&mut self, now: SimTime, vc: u32) {
        let i = vc as usize;
        let Some(mut sig) = self.vcs[i].signal else { return };
        let route = if sig.connect { &self.vcs[i].rev_ports } else { &self.vcs[i].fwd_ports };
        let port = route[sig.hop as usize] as usize;
        let hops = route.len() as u32;
        if !sig.on_wire {
            if !sig.queued {
                // Processing done: the port's algorithm sees the message arrive.
                let (loop_index, offer) = if sig.connect {
                    (self.vcs[i].partner, sig.reverse_setup.as_mut())
                } else {
                    (Some(vc), Some(&mut sig.setup))
                };
                if let (Some(l), Some(offer)) = (loop_index, offer) {
                    if self.vcs[l as usize].startup != Startup::AtmForum {
                        self.settle_port(now, port);
                        let p = &mut self.ports[port];
                        let view = p.view(now);
                        p.algorithm.on_setup(&view, l, offer);
                    }
                }
                if self.ports[port].setup_in_band {
                    // In band: it waits its turn behind the cells queued here.
                    self.settle_port(now, port);
                    let wait = self.ports[port].queue_wait(now, vc);
                    if wait > SimTime::ZERO {
                        sig.queued = true;
                        sig.since = now;
                        sig.until = now + wait;
                        self.vcs[i].signal = Some(sig);
                        self.queue.schedule(sig.until, Event::Signal { vc });
                        return;
                    }
                }
            }
            sig.queued = false;
            let delay = self.ports[port].delay;
            sig.on_wire = true;
            sig.since = now;
            sig.until = now + delay;
            sig.frtt = sig.frtt + delay;
        } else if sig.hop + 1 < hops || !sig.connect {
            // At the next node: the next switch, or the destination, which
            // answers with the connect along the reverse ports.
            let (hop, route) = if sig.hop + 1 < hops {
                (sig.hop + 1, route)
            } else {
                sig.connect = true;
                (0, &self.vcs[i].rev_ports)
            };
            let next = route[hop as usize] as usize;
            sig.hop = hop;
            sig.on_wire = false;
            sig.since = now;
            sig.until = now + self.ports[next].setup_delay;
        } else {
            self.vcs[i].signal = None;
            self.connect(now, vc, &sig);
            return;
        }
        self.vcs[i].signal = Some(sig);
        self.queue.schedule(sig.until, Event::Signal { vc });
    }

    /// Brings `port` up to `now`: the cells that reached it and left it by then.
    fn settle_port(&mut self, now: SimTime, port: usize) {
        // A host port's own source goes first (its cells before now).
        if let Some(sender) =
            self.vcs.iter().position(|v| v.sole_sender && v.host_port as usize == port)
        {
            self.catch_up_source(now, sender as u32);
        }
        self.land_feeder(now, port as u32);
        self.catch_up_port(now, port as u32);
    }

    /// The connect reaches the source: rule 2 runs (ACR = ICR; with RATE and
    /// RM the ICR is the share the set-up brought back) and data may flow,
    /// in both directions of a bidirectional VC.
    pub(super) fn connect(&mut self, now: SimTime, vc: u32, sig: &Signal) {
        let loops =
            [(Some(vc), Some(sig.setup)), (self.vcs[vc as usize].partner, sig.reverse_setup)];
        for (l, offer) in loops {
            let (Some(l), Some(offer)) = (l, offer) else { continue };
            let v = &mut self.vcs[l as usize];
            v.account_acr(now);
            let p = v.source.params;
            if v.startup != Startup::AtmForum {
                v.source.params.icr = offer.er.min(p.pcr).max(p.mcr);
            }
            v.source.params.frtt = sig.frtt;
            v.source.start();
            v.connected_at = Some(now);
        }
        self.update_maxmin(now);
        self.wake_source(now, vc);
        if let Some(partner) = self.vcs[vc as usize].partner {
            self.wake_source(now, partner);
        }
    }
}
