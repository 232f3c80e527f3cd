//! The oracle's max-min shares, batched. A change to what the loops send (a
//! connection, a start or stop, an on/off switch, a whole message, a
//! background source's edge) takes the oracle's inputs as they are at that
//! moment, a pass over the ports and loops; the water-filling, whose cost
//! grows with the square of the active loops, runs once on the latest inputs
//! when a sample reads the shares. So the changes of one instant, or of one
//! sample interval, cost one water-filling, and every share read is the one
//! recomputing at the last change would have given.

use super::*;

/// The oracle's inputs as the last change left them.
#[derive(Default)]
pub(super) struct OracleInputs {
    /// Whether the shares are not yet water-filled from these inputs.
    dirty: bool,
    /// Each port's ABR capacity less the background sending then, cells/s.
    capacity: Vec<f64>,
    /// The loops sending data then, each with its demand, cells/s.
    active: Vec<(u32, f64)>,
}

impl Simulation {
    /// Takes the oracle's inputs for the loops sending data at `now`: each
    /// port's ABR capacity less the background sending now, and each loop's
    /// demand (its PCR, or its traffic's cap if lower).
    pub(super) fn update_maxmin(&mut self, now: SimTime) {
        // Whether a loop has data can hang on the cells it sent (a message's).
        self.catch_up_sources(now);
        let o = &mut self.oracle;
        o.capacity.clear();
        o.capacity.extend(self.ports.iter().map(|p| p.algorithm.abr_capacity_cps(p.rate_cps)));
        let mut looked_at = self.ports.len() + self.vcs.len();
        for b in self.background.iter().filter(|b| b.is_on) {
            for &p in &b.ports {
                o.capacity[p as usize] = (o.capacity[p as usize] - b.rate_cps).max(0.0);
            }
            looked_at += b.ports.len();
        }
        // A loop counts once connected: before that it sends nothing.
        o.active.clear();
        o.active.extend(self.vcs.iter().enumerate().filter_map(|(i, v)| {
            let s = &v.source;
            (s.started && s.has_data(now)).then(|| {
                let demand = s.traffic.rate_cap(now).map_or(s.params.pcr, |c| c.min(s.params.pcr));
                (i as u32, demand)
            })
        }));
        o.dirty = true;
        probe::count_oracle_steps(looked_at as u64);
    }

    /// Water-fills the shares from the inputs the last change took, if it
    /// has not yet: before anything reads [`Simulation::maxmin_cps`].
    pub(super) fn settle_maxmin(&mut self) {
        if !std::mem::take(&mut self.oracle.dirty) {
            return;
        }
        let o = &self.oracle;
        let flows: Vec<Flow> = o
            .active
            .iter()
            .map(|&(i, demand)| Flow { resources: self.vcs[i as usize].fwd_ports.clone(), demand })
            .collect();
        let rates = max_min_fair(&o.capacity, &flows);
        self.maxmin_cps.iter_mut().for_each(|r| *r = 0.0);
        for (&(i, _), rate) in o.active.iter().zip(rates) {
            self.maxmin_cps[i as usize] = rate;
        }
    }
}
