//! BAT, the Bandwidth Allocation Technology rate-based AQM (Bowen et al.,
//! Pletka et al.'s reference \[10\], as Pletka et al. §III-A states it).
//! Every arriving packet of flow i is admitted with probability T_i and
//! dropped otherwise; every Δt = 4 ms the probabilities move by equation 1:
//!
//! ```text
//!               ⎧ min(1, T_i + w)          if f_i ≤ f_i,min
//! T_i(t + Δt) = ⎨ T_i (1 − w)              else if f_i > f_i,max
//!               ⎪ min(1, T_i + C_i · B̄)    else if B(t) = 1
//!               ⎩ T_i (1 − D_i · O_i)      otherwise
//! ```
//!
//! with O_i the rate flow i offered over the last Δt, f_i = T_i·O_i its
//! serviced rate, B(t) the excess-bandwidth signal and B̄ its exponentially
//! weighted moving average. Because the decrease is proportional to O_i and
//! the increase is not, flows with equal parameters settle at equal serviced
//! rates — max-min fairness, approximated.
//!
//! Pletka et al. leave three details to their reference \[10\], whose text this
//! project does not have; this model fixes them and says so:
//! - O_i in the decrease term is a fraction of the link rate (so D_i·O_i is a
//!   dimensionless fraction below 1); f_i is compared with f_min and f_max in
//!   bit/s.
//! - B(t) = 1 when the queue holds at most `excess_queue_pkts` packets at the
//!   update (150, half the default buffer), or when it is shorter than at the
//!   previous update (`excess_on_drain`): Bowen et al. \[10\] describe BAT as
//!   sensing "not only queue levels but also rates of queue level changes".
//!   A level alone (50 packets, this model's first reading) kept B = 0 while
//!   the queue drained after TCP had already backed off; BAT then went on
//!   cutting T_TCP for tens of milliseconds, TCP connections timed out and
//!   the link idled 12–22 % with 100 greedy connections. With the trend the
//!   link stays 97–100 % busy in every library run.
//! - B̄(t) = (1 − k)·B̄(t − Δt) + k·B(t), with k = `ewma_weight`.
//!
//! Flows are grouped as Pletka et al. §III-C does: "Traffic is divided into two
//! flows: … a non-responsive CBR flow, and … responsive TCP connections" —
//! one BAT flow per class (`grouping: "class"`), or one per IP flow
//! (`grouping: "flow"`, Pletka et al. §III-B's two CBR flows with their own
//! f_min). TCP acknowledgements are never dropped by BAT.

use super::clcc::{Clcc, ClccConfig, ClccStep};
use crate::kernel::Rng;
use crate::scenario::reader::{describe, Errors, Obj};
use crate::scenario::registry::{self, Kind::*, ParamSpec, Scope, Scope::Bat as S};
use crate::scenario::ScenarioError;
use crate::time::SimTime;
use serde_json::Value;

/// BAT's knobs in the parameter registry. `c`, `d`, `f_min_mbps` and
/// `f_max_mbps` appear per class (`tcp`, `udp`) and per flow (`flows.<id>`).
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "interval_ms", scope: S, label: "Δt", unit: "ms", default: 4.0, min: 0.1, max: 1000.0, kind: Real, live: false,
      doc: "BAT updates the transmit probabilities every Δt (Pletka et al. §III-B: 4 ms)." },
    ParamSpec { key: "w", scope: S, label: "w", unit: "", default: 0.05, min: 0.0001, max: 0.9999, kind: Real, live: true,
      doc: "Constant of the coarse AIMD level that brings f_i within [f_min, f_max] (equation 1, 0 < w < 1)." },
    ParamSpec { key: "ewma_weight", scope: S, label: "B̄ weight", unit: "", default: 1.0 / 16.0, min: 0.0001, max: 1.0, kind: Real, live: true,
      doc: "Weight k of the newest excess-bandwidth signal in its moving average B̄ = (1−k)B̄ + kB (chosen: Pletka et al. leave it to Bowen et al.'s description, which this project does not have)." },
    ParamSpec { key: "excess_queue_pkts", scope: S, label: "B queue threshold", unit: "packets", default: 150.0, min: 0.0, max: 100_000.0, kind: Integer, live: true,
      doc: "The excess-bandwidth signal B(t) is 1 while the queue holds at most this many packets (chosen: half the default 300-packet buffer; Bowen et al.'s definition is not in the paper)." },
    ParamSpec { key: "excess_on_drain", scope: S, label: "B on a draining queue", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "B(t) is also 1 while the queue is shorter than at the previous update, even above the threshold: BAT senses the queue's rate of change as well as its level (Bowen et al., IZS 2002)." },
    ParamSpec { key: "c", scope: S, label: "C_i", unit: "", default: 0.01, min: 0.0, max: 1.0, kind: Real, live: true,
      doc: "Fine-grained increase constant: T_i += C_i·B̄ when bandwidth is in excess (equation 1)." },
    ParamSpec { key: "d", scope: S, label: "D_i", unit: "", default: 0.05, min: 0.0, max: 1.0, kind: Real, live: true,
      doc: "Fine-grained decrease constant: T_i ·= 1 − D_i·O_i otherwise, O_i as a fraction of the link rate (equation 1). CLCC adapts the UDP class's D." },
    ParamSpec { key: "f_min_mbps", scope: S, label: "f_min", unit: "Mbit/s", default: 0.0, min: 0.0, max: 100_000.0, kind: Real, live: true,
      doc: "Minimum bandwidth guarantee: below it T_i rises by w every Δt (equation 1)." },
    ParamSpec { key: "f_max_mbps", scope: S, label: "f_max", unit: "Mbit/s", default: f64::INFINITY, min: 0.0, max: 100_000.0, kind: Real, live: true,
      doc: "Maximum bandwidth: above it T_i falls by the factor 1 − w every Δt (equation 1). Absent: no maximum." },
];

/// The spec of one of BAT's knobs.
fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    registry::find(PARAMS, scope, key)
}

/// How IP flows map to BAT flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// One BAT flow per class: all TCP (responsive) and all UDP (non-responsive).
    Class,
    /// One BAT flow per IP flow.
    Flow,
}

/// The equation-1 constants of one BAT flow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatFlowParams {
    pub c: f64,
    pub d: f64,
    pub f_min_mbps: f64,
    pub f_max_mbps: f64,
}

impl BatFlowParams {
    fn defaults() -> BatFlowParams {
        let d = |k| spec(S, k).default;
        BatFlowParams {
            c: d("c"),
            d: d("d"),
            f_min_mbps: d("f_min_mbps"),
            f_max_mbps: d("f_max_mbps"),
        }
    }

    /// Reads `c`, `d`, `f_min_mbps`, `f_max_mbps` over `self`.
    fn read_over(mut self, value: &Value, path: &str, errors: &mut Errors) -> BatFlowParams {
        let Some(mut obj) = Obj::new(value, path, errors) else { return self };
        if let Some(x) = obj.param(spec(S, "c"), errors) {
            self.c = x;
        }
        if let Some(x) = obj.param(spec(S, "d"), errors) {
            self.d = x;
        }
        if let Some(x) = obj.param(spec(S, "f_min_mbps"), errors) {
            self.f_min_mbps = x;
        }
        if let Some(x) = obj.param(spec(S, "f_max_mbps"), errors) {
            self.f_max_mbps = x;
        }
        if self.f_min_mbps > self.f_max_mbps {
            errors.push(ScenarioError::new(
                obj.at("f_min_mbps"),
                format!("{} Mbit/s exceeds f_max_mbps {}", self.f_min_mbps, self.f_max_mbps),
            ));
        }
        obj.finish(errors);
        self
    }
}

/// Per-flow settings given under `flows.<id>` (a flow id or a flow group id).
#[derive(Clone, Debug, PartialEq)]
pub struct BatOverride {
    pub key: String,
    /// Where it was written, for error messages.
    pub path: String,
    pub value: Value,
}

/// A BAT port's configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct BatConfig {
    pub interval: SimTime,
    pub w: f64,
    pub ewma_weight: f64,
    pub excess_queue_pkts: u32,
    /// B(t) = 1 also while the queue is draining (see `excess_on_drain`).
    pub excess_on_drain: bool,
    pub grouping: Grouping,
    /// The responsive (TCP) class's constants.
    pub tcp: BatFlowParams,
    /// The non-responsive (UDP) class's constants.
    pub udp: BatFlowParams,
    pub overrides: Vec<BatOverride>,
    pub clcc: Option<ClccConfig>,
}

impl BatConfig {
    /// Reads BAT's keys from an `aqm` object whose `kind` is `"bat"`.
    pub(crate) fn read(obj: &mut Obj<'_>, errors: &mut Errors) -> BatConfig {
        let d = |k| spec(S, k).default;
        let interval_ms = obj.param(spec(S, "interval_ms"), errors).unwrap_or(d("interval_ms"));
        let grouping = match obj.get("grouping").map(|v| v.as_str()) {
            None | Some(Some("class")) => Grouping::Class,
            Some(Some("flow")) => Grouping::Flow,
            Some(_) => {
                errors.push(ScenarioError::new(
                    obj.at("grouping"),
                    "must be \"class\" (one BAT flow per class) or \"flow\" (one per IP flow)",
                ));
                Grouping::Class
            }
        };
        let base = BatFlowParams::defaults();
        let tcp = obj.get("tcp").map_or(base, |v| base.read_over(v, &obj.at("tcp"), errors));
        let udp = obj.get("udp").map_or(base, |v| base.read_over(v, &obj.at("udp"), errors));
        let mut overrides = Vec::new();
        match obj.get("flows") {
            None => {}
            Some(Value::Object(map)) => {
                if grouping == Grouping::Class && !map.is_empty() {
                    errors.push(ScenarioError::new(
                        obj.at("flows"),
                        "per-flow settings need \"grouping\": \"flow\"",
                    ));
                }
                let at = obj.at("flows");
                for (key, value) in map {
                    overrides.push(BatOverride {
                        key: key.clone(),
                        path: format!("{at}.{key}"),
                        value: value.clone(),
                    });
                }
            }
            Some(other) => errors.push(ScenarioError::new(
                obj.at("flows"),
                format!("expected an object keyed by flow id, found {}", describe(other)),
            )),
        }
        let clcc = obj.get("clcc").and_then(|v| {
            let mut c = Obj::new(v, &obj.at("clcc"), errors)?;
            let config = ClccConfig::read(&mut c, errors);
            c.finish(errors);
            Some(config)
        });
        BatConfig {
            interval: SimTime::from_ms(interval_ms),
            w: obj.param(spec(S, "w"), errors).unwrap_or(d("w")),
            ewma_weight: obj.param(spec(S, "ewma_weight"), errors).unwrap_or(d("ewma_weight")),
            excess_queue_pkts: obj
                .param(spec(S, "excess_queue_pkts"), errors)
                .unwrap_or(d("excess_queue_pkts")) as u32,
            excess_on_drain: obj
                .param(spec(S, "excess_on_drain"), errors)
                .unwrap_or(d("excess_on_drain"))
                != 0.0,
            grouping,
            tcp,
            udp,
            overrides,
            clcc,
        }
    }
}

/// Checks the values of a per-flow setting (`flows.<id>`).
pub(crate) fn validate_override(o: &BatOverride, errors: &mut Errors) {
    let _ = BatFlowParams::defaults().read_over(&o.value, &o.path, errors);
}

/// An IP flow crossing a BAT port, as the builder describes it.
#[derive(Clone, Debug)]
pub struct BatMember {
    /// Index of the IP flow in the simulation.
    pub flow: u32,
    pub id: String,
    /// The scenario entry it was expanded from (its own id when alone).
    pub group: String,
    pub responsive: bool,
}

/// One BAT flow's state.
#[derive(Clone, Debug)]
pub struct BatFlow {
    /// `tcp` / `udp` for class grouping, the IP flow's id otherwise.
    pub id: String,
    pub responsive: bool,
    pub params: BatFlowParams,
    /// Transmit probability T_i.
    pub t: f64,
    /// O_i over the last completed Δt, bit/s.
    pub offered_bps: f64,
    offered_dt: u64,
    /// Bytes offered and admitted since the probe last looked.
    pub sample_offered: u64,
    pub sample_serviced: u64,
    clcc_serviced: u64,
    clcc_offered: u64,
}

const NOT_MEMBER: u32 = u32::MAX;

/// A BAT AQM with its optional CLCC controller.
#[derive(Clone, Debug)]
pub struct Bat {
    pub config: BatConfig,
    pub flows: Vec<BatFlow>,
    /// IP flow index → BAT flow index.
    of_flow: Vec<u32>,
    capacity_bps: f64,
    /// The excess-bandwidth signal B at the last update.
    pub excess: bool,
    /// Its moving average B̄.
    pub excess_avg: f64,
    /// The queue at the previous update, for `excess_on_drain`.
    last_queue_pkts: u32,
    pub clcc: Option<Clcc>,
    clcc_samples: u32,
    rng: Rng,
    /// Packets BAT dropped.
    pub drops: u64,
}

impl Bat {
    /// BAT for a port of `capacity_bps` crossed by `members` (out of
    /// `flow_count` IP flows). Overrides must already be validated.
    pub fn new(
        config: BatConfig,
        capacity_bps: f64,
        members: &[BatMember],
        flow_count: usize,
        rng: Rng,
    ) -> Bat {
        let mut flows: Vec<BatFlow> = Vec::new();
        let mut of_flow = vec![NOT_MEMBER; flow_count];
        let new_flow = |id: String, responsive: bool, params: BatFlowParams| BatFlow {
            id,
            responsive,
            params,
            t: 1.0, // Pletka et al. §III-A: T_i(0) = 1
            offered_bps: 0.0,
            offered_dt: 0,
            sample_offered: 0,
            sample_serviced: 0,
            clcc_serviced: 0,
            clcc_offered: 0,
        };
        for responsive in [true, false] {
            let class_params = if responsive { config.tcp } else { config.udp };
            for m in members.iter().filter(|m| m.responsive == responsive) {
                let index = match config.grouping {
                    Grouping::Class => {
                        let name = if responsive { "tcp" } else { "udp" };
                        match flows.iter().position(|f| f.id == name) {
                            Some(i) => i,
                            None => {
                                flows.push(new_flow(name.to_string(), responsive, class_params));
                                flows.len() - 1
                            }
                        }
                    }
                    Grouping::Flow => {
                        let mut params = class_params;
                        // Group-wide settings first, then the flow's own.
                        for o in
                            config.overrides.iter().filter(|o| o.key == m.group && o.key != m.id)
                        {
                            params = params.read_over(&o.value, &o.path, &mut Vec::new());
                        }
                        for o in config.overrides.iter().filter(|o| o.key == m.id) {
                            params = params.read_over(&o.value, &o.path, &mut Vec::new());
                        }
                        flows.push(new_flow(m.id.clone(), responsive, params));
                        flows.len() - 1
                    }
                };
                of_flow[m.flow as usize] = index as u32;
            }
        }
        let clcc = config.clcc.map(|c| Clcc::new(c, config.udp.d));
        let mut bat = Bat {
            config,
            flows,
            of_flow,
            capacity_bps,
            excess: true,
            excess_avg: 1.0,
            last_queue_pkts: 0,
            clcc,
            clcc_samples: 0,
            rng,
            drops: 0,
        };
        bat.apply_d_udp();
        bat
    }

    /// The BAT flow an IP flow belongs to, if it crosses this port.
    pub fn member(&self, flow: u32) -> Option<usize> {
        self.of_flow.get(flow as usize).copied().filter(|&i| i != NOT_MEMBER).map(|i| i as usize)
    }

    /// A data packet of `flow` arrives: admit it with probability T_i.
    pub fn admit(&mut self, flow: u32, bytes: u32) -> bool {
        let Some(i) = self.member(flow) else { return true };
        let f = &mut self.flows[i];
        f.offered_dt += bytes as u64;
        f.sample_offered += bytes as u64;
        f.clcc_offered += bytes as u64;
        let t = f.t;
        let admitted = t >= 1.0 || self.rng.next_f64() < t;
        if !admitted {
            self.drops += 1;
        }
        admitted
    }

    /// An admitted packet found room in the queue: it will be serviced.
    pub fn on_enqueued(&mut self, flow: u32, bytes: u32) {
        if let Some(i) = self.member(flow) {
            let f = &mut self.flows[i];
            f.sample_serviced += bytes as u64;
            f.clcc_serviced += bytes as u64;
        }
    }

    /// The periodic update of equation 1, given the queue length now.
    pub fn update(&mut self, queue_pkts: u32) {
        let dt = self.config.interval.as_secs();
        let c_link = self.capacity_bps;
        let draining = self.config.excess_on_drain && queue_pkts < self.last_queue_pkts;
        self.last_queue_pkts = queue_pkts;
        self.excess = queue_pkts <= self.config.excess_queue_pkts || draining;
        let k = self.config.ewma_weight;
        self.excess_avg = (1.0 - k) * self.excess_avg + k * if self.excess { 1.0 } else { 0.0 };
        let w = self.config.w;
        for f in &mut self.flows {
            let offered = f.offered_dt as f64 * 8.0 / dt;
            f.offered_dt = 0;
            f.offered_bps = offered;
            let serviced = f.t * offered; // f_i = T_i · O_i
            let p = &f.params;
            f.t = if serviced <= p.f_min_mbps * 1e6 {
                (f.t + w).min(1.0)
            } else if serviced > p.f_max_mbps * 1e6 {
                f.t * (1.0 - w)
            } else if self.excess {
                (f.t + p.c * self.excess_avg).min(1.0)
            } else {
                f.t * (1.0 - p.d * offered / c_link).max(0.0)
            };
        }
    }

    /// A CLCC ratio sample is due; every `samples_per_step` samples the
    /// controller steps and D_UDP is written into the UDP flows.
    pub fn clcc_sample(&mut self) -> Option<ClccStep> {
        let clcc = self.clcc.as_mut()?;
        let (mut udp, mut tcp) = (0u64, 0u64);
        for f in &mut self.flows {
            if f.responsive {
                tcp += f.clcc_serviced
            } else {
                udp += f.clcc_serviced
            }
            f.clcc_serviced = 0;
        }
        clcc.on_sample(udp, tcp);
        self.clcc_samples += 1;
        if self.clcc_samples < clcc.config.samples_per_step() {
            return None;
        }
        self.clcc_samples = 0;
        let span = clcc.config.interval.as_secs();
        let mut udp_offered = 0u64;
        for f in self.flows.iter_mut() {
            if !f.responsive {
                udp_offered += f.clcc_offered;
            }
            f.clcc_offered = 0;
        }
        let step = clcc.step(udp_offered as f64 * 8.0 / span, self.capacity_bps);
        self.apply_d_udp();
        Some(step)
    }

    fn apply_d_udp(&mut self) {
        if let Some(c) = &self.clcc {
            for f in self.flows.iter_mut().filter(|f| !f.responsive) {
                f.params.d = c.d_udp;
            }
        }
    }

    /// Takes the knobs of `other` (built from an edited scenario) while
    /// keeping the transmit probabilities, B̄ and CLCC's state; false when the
    /// change needs a rebuild (Δt, the grouping or the set of BAT flows
    /// changed). A new UDP-class D becomes CLCC's current D_UDP.
    pub fn reconfigure_from(&mut self, other: &Bat) -> bool {
        let same_flows = self.flows.len() == other.flows.len()
            && self.flows.iter().zip(&other.flows).all(|(a, b)| a.id == b.id);
        if self.config.interval != other.config.interval
            || self.config.grouping != other.config.grouping
            || !same_flows
        {
            return false;
        }
        let udp_d_changed = self.config.udp.d != other.config.udp.d;
        self.config = other.config.clone();
        for (mine, theirs) in self.flows.iter_mut().zip(&other.flows) {
            mine.params = theirs.params;
        }
        match (&mut self.clcc, &other.clcc) {
            (Some(mine), Some(theirs)) => {
                mine.config = theirs.config;
                if udp_d_changed {
                    mine.d_udp = theirs.d_udp;
                }
                mine.d_udp = mine.d_udp.clamp(mine.config.d_min, mine.config.d_max);
            }
            (mine, theirs) => *mine = theirs.clone(),
        }
        self.apply_d_udp();
        true
    }

    /// D of the non-responsive class now (CLCC's manipulated variable).
    pub fn d_udp(&self) -> Option<f64> {
        self.flows.iter().find(|f| !f.responsive).map(|f| f.params.d)
    }

    /// The link rate BAT allocates, bit/s.
    pub fn capacity_bps(&self) -> f64 {
        self.capacity_bps
    }
}

#[cfg(test)]
mod tests;
