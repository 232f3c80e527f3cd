//! What the page sees of a cell-model run besides the sample rows: the live
//! frame, the cells (and set-up messages) on the wires and in one port for
//! the animation and the magnifier, and the conservation check's counts.

use super::*;

impl Simulation {
    /// The live state for drawing: `[now_ms, acr Mbit/s per loop…, queue cells per port…]`.
    pub fn frame(&self) -> Vec<f64> {
        let mut f = Vec::with_capacity(1 + self.vcs.len() + self.ports.len());
        f.push(self.now().as_ms());
        f.extend(self.vcs.iter().map(|v| cells_per_s_to_mbps(v.source.reported_acr())));
        f.extend(self.ports.iter().map(|p| p.queue_len() as f64));
        f
    }

    /// Cells on the links now, for animation: rows of `[port index, progress
    /// 0..1 from leaving the transmitter to arriving, kind (0 data, 1 FRM,
    /// 2 BRM, 3 background, 7 set-up, 8 connect), VC (or background) index,
    /// ER Mbit/s, CI, CCR Mbit/s]` (ER and CCR NaN for non-RM cells). Set-up
    /// and connect messages come first, at progress 0 of the port they will
    /// leave by while a switch processes them, and carry the rate offered
    /// so far as ER. At most `max` rows, cells taken evenly across the links
    /// when there are more.
    pub fn cells_in_flight(&self, max: usize) -> Vec<f64> {
        let now = self.now();
        let mut out = self.signals_in_flight(now, max);
        let room = max - out.len() / 7;
        let total: usize = self.ports.iter().map(|p| p.wire.len()).sum();
        let stride = total.div_ceil(room.max(1)).max(1);
        out.reserve(7 * total.min(room));
        let mut k = 0usize;
        for (pi, p) in self.ports.iter().enumerate() {
            let span = (p.delay.0 + p.cell_time.0).max(1) as f64;
            let cells = p.wire.iter().map(|(arrive, c)| {
                (SimTime(arrive.0.saturating_sub(p.delay.0 + p.cell_time.0)), c)
            });
            for (start, c) in cells {
                k += 1;
                if !k.is_multiple_of(stride) || out.len() >= max.saturating_mul(7) {
                    continue;
                }
                let progress = ((now.0.saturating_sub(start.0)) as f64 / span).clamp(0.0, 1.0);
                cell_row(&mut out, pi, progress, &c);
            }
        }
        out
    }

    /// The set-up and connect messages on their way, as `cells_in_flight` rows.
    pub(super) fn signals_in_flight(&self, now: SimTime, max: usize) -> Vec<f64> {
        let mut out = Vec::new();
        for (i, v) in self.vcs.iter().enumerate() {
            let Some(sig) = v.signal else { continue };
            if out.len() >= max.saturating_mul(7) {
                break;
            }
            let route = if sig.connect { &v.rev_ports } else { &v.fwd_ports };
            let progress = if sig.on_wire {
                let span = (sig.until.0 - sig.since.0).max(1) as f64;
                (now.0.saturating_sub(sig.since.0) as f64 / span).clamp(0.0, 1.0)
            } else {
                0.0
            };
            out.extend_from_slice(&[
                route[sig.hop as usize] as f64,
                progress,
                if sig.connect { 8.0 } else { 7.0 },
                i as f64,
                cells_per_s_to_mbps(sig.setup.er),
                0.0,
                f64::NAN,
            ]);
        }
        out
    }

    /// One port's cells, every one up to `max` on its wire and `max` in its
    /// queue, for the magnifier: rows of `cells_in_flight`, those on the wire
    /// with their progress 0..1, the k-th waiting cell (0: next to be sent)
    /// with progress `-(k + 1)`. Empty for a port that does not exist.
    pub fn port_cells(&self, port: usize, max: usize) -> Vec<f64> {
        let Some(p) = self.ports.get(port) else { return Vec::new() };
        let now = self.now();
        let span = (p.delay.0 + p.cell_time.0).max(1) as f64;
        let mut out = Vec::new();
        for (arrive, c) in p.wire.iter().take(max) {
            let start = arrive.0.saturating_sub(p.delay.0 + p.cell_time.0);
            let progress = (now.0.saturating_sub(start) as f64 / span).clamp(0.0, 1.0);
            cell_row(&mut out, port, progress, &c);
        }
        for (k, c) in p.waiting().take(max).enumerate() {
            cell_row(&mut out, port, -(k as f64 + 1.0), &c);
        }
        out
    }

    /// Cells in the network now: queued, being sent, or on a wire.
    pub fn cells_in_network(&self) -> u64 {
        self.ports.iter().map(Port::cells_held).sum()
    }

    /// Checks that every cell created is accounted for: received, in the
    /// network, lost, waiting at a source or replaced there (an invariant).
    pub fn conservation_gap(&self) -> i64 {
        let created: u64 =
            self.vcs.iter().map(|v| v.source.cells_sent() + v.brm_direct).sum::<u64>()
                + self.background.iter().map(|b| b.sent).sum::<u64>();
        let accounted: u64 = self
            .vcs
            .iter()
            .map(|v| v.dest.data_received + v.dest.rm_received + v.source.brm_received)
            .sum::<u64>()
            + self.background.iter().map(|b| b.received).sum::<u64>()
            + self.cells_in_network()
            + self.ports.iter().map(|p| p.stats.lost_total).sum::<u64>();
        // BRMs handed to a partner are created by its destination and either
        // sent (counted in cells_sent), still waiting, or replaced.
        let handed: u64 =
            self.vcs.iter().filter(|v| v.partner.is_some()).map(|v| v.dest.rm_received).sum();
        let settled: u64 = self
            .vcs
            .iter()
            .map(|v| {
                v.source.brm_sent + v.source.brm_replaced + v.source.waiting_brm.is_some() as u64
            })
            .sum();
        (created + handed) as i64 - (accounted + settled) as i64
    }
}

/// One row of `cells_in_flight`: `[port index, progress, kind (0 data, 1 FRM,
/// 2 BRM, 3 background), VC index, ER Mbit/s, CI, CCR Mbit/s]` (NaN fields for
/// cells that are not RM cells).
pub(super) fn cell_row(out: &mut Vec<f64>, port: usize, progress: f64, c: &Cell) {
    let (kind, rm) = match c.kind {
        CellKind::Data => (0.0, false),
        CellKind::Frm => (1.0, true),
        CellKind::Brm => (2.0, true),
        CellKind::Background => (3.0, false),
    };
    let nan = f64::NAN;
    out.extend_from_slice(&[
        port as f64,
        progress,
        kind,
        c.vc as f64,
        if rm { cells_per_s_to_mbps(c.rm.er) } else { nan },
        c.rm.ci as u8 as f64,
        if rm { cells_per_s_to_mbps(c.rm.ccr) } else { nan },
    ]);
}
