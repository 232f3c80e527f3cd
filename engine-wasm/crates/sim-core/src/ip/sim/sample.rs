//! The packet model's sample rows: the column names and, every sample
//! interval, a row of them — per class, the UDP/TCP ratio, D_UDP, the
//! fairness index (Pletka et al. equation 2), per BAT flow, per port, per flow.

use super::{FlowClass, IpEvent, IpSimulation};
use crate::ip::bat::Bat;
use crate::ip::clcc::ClccConfig;
use crate::ip::fairness::{reference_allocation, weighted_fairness_index, Claim};
use crate::time::SimTime;

/// Columns recorded per BAT flow of the first BAT port, after `aqm.<id>.`.
pub const AQM_COLUMNS: [&str; 4] = ["t", "offered_mbps", "serviced_mbps", "reference_mbps"];
/// Columns recorded per port, after `port.<id>.` (the cell model's).
pub use crate::probe::PORT_COLUMNS;
/// Columns recorded per flow, after `flow.<id>.`.
pub const FLOW_COLUMNS: [&str; 2] = ["throughput_mbps", "cwnd"];

impl IpSimulation {
    pub(super) fn column_names(&self) -> Vec<String> {
        let mut names: Vec<String> = [
            "t_ms",
            "class.tcp.throughput_mbps",
            "class.udp.throughput_mbps",
            "ratio",
            "d_udp",
            "fairness",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if let Some(b) = self.bat_port.and_then(|p| self.ports[p].aqm.bat()) {
            for f in &b.flows {
                names.extend(AQM_COLUMNS.iter().map(|c| format!("aqm.{}.{c}", f.id)));
            }
        }
        for p in &self.ports {
            names.extend(PORT_COLUMNS.iter().map(|c| format!("port.{}.{c}", p.id)));
        }
        for f in &self.flows {
            names.extend(FLOW_COLUMNS.iter().map(|c| format!("flow.{}.{c}", f.id)));
        }
        names
    }

    /// The reference allocation (bit/s) of the BAT flows at `bat`, given the
    /// bytes each offered over `span_s` (Pletka et al. §III-B, §IV).
    pub fn reference_bps(bat: &Bat, offered_bytes: &[u64], span_s: f64) -> Vec<f64> {
        let clcc: Option<&ClccConfig> = bat.config.clcc.as_ref();
        let n_tcp = bat.flows.iter().filter(|f| f.responsive).count().max(1) as f64;
        let n_udp = bat.flows.iter().filter(|f| !f.responsive).count().max(1) as f64;
        let claims: Vec<Claim> = bat
            .flows
            .iter()
            .zip(offered_bytes)
            .map(|(f, &bytes)| {
                let offered = bytes as f64 * 8.0 / span_s.max(1e-12);
                let demand = if bytes == 0 {
                    0.0
                } else if f.responsive {
                    f64::INFINITY
                } else {
                    offered
                };
                let weight = match clcc {
                    Some(_) if f.responsive => 1.0 / n_tcp,
                    Some(c) => c.r_ref / n_udp,
                    None => 1.0,
                };
                Claim {
                    min: f.params.f_min_mbps * 1e6,
                    max: f.params.f_max_mbps * 1e6,
                    demand,
                    weight,
                }
            })
            .collect();
        reference_allocation(bat.capacity_bps(), &claims)
    }

    pub(super) fn on_sample(&mut self, now: SimTime) {
        let last_sample = self.rec.last();
        let span_s = (now.0 - last_sample.0).max(1) as f64 / crate::time::PS_PER_S;
        let mbps = |bytes: u64| bytes as f64 * 8.0 / span_s / 1e6;
        let rows = self.rec.begin_row(now);
        let (mut tcp_bytes, mut udp_bytes) = (0u64, 0u64);
        for f in &self.flows {
            match f.class {
                FlowClass::Tcp => tcp_bytes += f.interval_bytes,
                FlowClass::Udp => udp_bytes += f.interval_bytes,
            }
        }
        rows.push(mbps(tcp_bytes));
        rows.push(mbps(udp_bytes));
        rows.push(if tcp_bytes > 0 { udp_bytes as f64 / tcp_bytes as f64 } else { f64::NAN });
        let bat_index = self.bat_port;
        let mut aqm_values = Vec::new();
        let (d_udp, fairness) = match bat_index.and_then(|p| self.ports[p].aqm.bat_mut()) {
            Some(bat) => {
                let offered: Vec<u64> = bat.flows.iter().map(|f| f.sample_offered).collect();
                let serviced: Vec<f64> =
                    bat.flows.iter().map(|f| f.sample_serviced as f64 * 8.0 / span_s).collect();
                let reference = Self::reference_bps(bat, &offered, span_s);
                for (i, f) in bat.flows.iter_mut().enumerate() {
                    aqm_values.extend_from_slice(&[
                        f.t,
                        mbps(f.sample_offered),
                        serviced[i] / 1e6,
                        reference[i] / 1e6,
                    ]);
                    f.sample_offered = 0;
                    f.sample_serviced = 0;
                }
                (
                    bat.d_udp().unwrap_or(f64::NAN),
                    weighted_fairness_index(&serviced, &reference).unwrap_or(f64::NAN),
                )
            }
            None => {
                // No BAT port: Jain's index of the active flows' throughputs.
                let x: Vec<f64> = self
                    .flows
                    .iter()
                    .filter(|f| now > f.start && last_sample < f.stop)
                    .map(|f| f.interval_bytes as f64)
                    .collect();
                let w = vec![1.0; x.len()];
                (f64::NAN, weighted_fairness_index(&x, &w).unwrap_or(f64::NAN))
            }
        };
        let rows = self.rec.row();
        rows.push(d_udp);
        rows.push(fairness);
        rows.extend_from_slice(&aqm_values);
        for p in &mut self.ports {
            let s = p.take_interval(now);
            rows.extend_from_slice(&s.row(p.queue_len() as f64, p.stats.lost_total() as f64));
        }
        for f in &mut self.flows {
            rows.push(f.interval_bytes as f64 * 8.0 / span_s / 1e6);
            rows.push(f.cwnd());
            f.interval_bytes = 0;
        }
        let next = self.rec.end_row(now);
        self.queue.schedule(next, IpEvent::Sample);
    }
}
