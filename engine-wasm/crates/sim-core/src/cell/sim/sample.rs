//! The cell model's sample row, every sample interval: per VC its ACR, mean
//! ACR, max-min share, cells received and sent, and whether it is active; per
//! port its queue, mean and largest queue, utilisation and losses; and Jain's
//! fairness index of the active VCs' mean ACR over their max-min shares.

use super::*;

impl Simulation {
    pub(super) fn on_sample(&mut self, now: SimTime) {
        self.settle(now);
        self.settle_maxmin();
        let span = (now.0 - self.rec.last().0).max(1) as f64;
        let rows = self.rec.begin_row(now);
        let (mut means, mut shares) = (Vec::new(), Vec::new());
        for i in 0..self.vcs.len() {
            let v = &mut self.vcs[i];
            v.account_acr(now);
            let acr_mean = v.acr_area / span;
            v.acr_area = 0.0;
            let active = v.source.started && v.source.has_data(now);
            if active && self.maxmin_cps[i] > 0.0 {
                means.push(acr_mean);
                shares.push(self.maxmin_cps[i]);
            }
            rows.extend_from_slice(&[
                cells_per_s_to_mbps(v.source.reported_acr()),
                cells_per_s_to_mbps(acr_mean),
                cells_per_s_to_mbps(self.maxmin_cps[i]),
                v.dest.data_received as f64,
                v.source.cells_sent() as f64,
                active as u8 as f64,
            ]);
        }
        for p in &mut self.ports {
            let s = p.take_interval(now);
            rows.extend_from_slice(&s.row(p.queue_len() as f64, p.stats.lost_total as f64));
        }
        rows.push(probe::jain_index(&means, &shares));
        let next = self.rec.end_row(now);
        self.queue.schedule(next, Event::Sample);
    }
}
