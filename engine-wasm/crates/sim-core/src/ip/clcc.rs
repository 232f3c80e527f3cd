//! CLCC, the closed-loop congestion control of Pletka et al. §IV: an integral
//! controller on top of BAT that adapts only the non-responsive class's
//! decrease constant D_UDP.
//!
//! ```text
//! r_k      = serviced UDP rate / serviced TCP rate, sampled every 100 ms,
//!            averaged over the last 1 s                       (§IV)
//! x_d,k    = (r_ref − r_k) / r_ref                            (equation 5)
//! D^k      = D^{k−1} + b_0 · x_d,k,   b_0 = β · D^{k−1}, β < 0  (equations 4, 6)
//!          = D^{k−1} · (1 + β · x_d,k)
//! ```
//!
//! invoked once a second, with D bounded to [D_min, D_max] and the loop
//! suspended ("control pre-emption") while the offered UDP load is below
//! f_UDP,ref = C · r_ref / (1 + r_ref), the UDP rate r_ref stands for.
//!
//! Equation 6 reads D^{k−1} + b_0·(r_ref − r_k − 1)/r_ref in our copy of the
//! paper, most likely a text-extraction artefact: the subscript of r_{k−1}
//! (the ratio of the previous interval, the one the step answers) flattened
//! into "r_k − 1". Read so, equation 6 is D^{k−1} + b_0·x_d with equation 5's
//! control error, which is what this follows (with r_k the mean of the
//! samples since the last step, i.e. the interval that just closed).
//!
//! Figure 5, which held the three β cases and the bounds, did not survive.
//! The values here are this model's choice: β = −0.2 while |x_d| ≤ 0.2
//! (close to the reference: small steps, little ringing), −0.4 up to
//! |x_d| ≤ 1, and −0.6 beyond (only reachable when UDP gets more than twice
//! its reference, where D must grow fast: with r_k = 9 and r_ref = 0.43 one
//! step multiplies D by 13). Lowering D is at most a factor 1 − 0.4 per step,
//! since x_d ≤ 1. D stays within [10⁻⁴, 0.8]; 0.8 keeps
//! D·O_UDP below 1 in BAT's decrease term even for 120 Mbit/s offered on a
//! 100 Mbit/s link. The pletka-clcc-* scenarios show these values bring the
//! long-run ratio to r_ref.

use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{self, Kind::*, ParamSpec, Scope, Scope::Clcc as S};
use crate::scenario::ScenarioError;
use crate::time::SimTime;

/// CLCC's knobs in the parameter registry.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec { key: "enabled", scope: S, label: "CLCC on", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: false,
      doc: "Run the controller. Off, r_ref still sets the reference the fairness index is measured against (BAT alone, Pletka et al. Fig. 6a)." },
    ParamSpec { key: "r_ref", scope: S, label: "r_ref", unit: "", default: 30.0 / 70.0, min: 0.001, max: 1000.0, kind: Real, live: true,
      doc: "Desired ratio of serviced UDP to TCP rate (Pletka et al. §IV; 30/70 in §V)." },
    ParamSpec { key: "sample_ms", scope: S, label: "Ratio sample", unit: "ms", default: 100.0, min: 1.0, max: 10_000.0, kind: Real, live: false,
      doc: "How often the UDP/TCP ratio r_k is measured (Pletka et al. §IV: 100 ms)." },
    ParamSpec { key: "interval_ms", scope: S, label: "Control interval", unit: "ms", default: 1000.0, min: 1.0, max: 100_000.0, kind: Real, live: false,
      doc: "How often D_UDP is adapted, from the mean of the ratio samples since the last time (Pletka et al. §IV: 1 s)." },
    ParamSpec { key: "d_min", scope: S, label: "D_UDP min", unit: "", default: 1e-4, min: 1e-6, max: 1.0, kind: Real, live: true,
      doc: "Lower bound of D_UDP (Pletka et al. Fig. 5, lost; chosen)." },
    ParamSpec { key: "d_max", scope: S, label: "D_UDP max", unit: "", default: 0.8, min: 1e-6, max: 1.0, kind: Real, live: true,
      doc: "Upper bound of D_UDP (Pletka et al. Fig. 5, lost; chosen so D·O_UDP < 1 up to 1.25× the link rate)." },
    ParamSpec { key: "beta_small", scope: S, label: "β small", unit: "", default: -0.2, min: -0.999, max: -0.0001, kind: Real, live: true,
      doc: "β while |x_d| ≤ x_small (Pletka et al. Fig. 5, lost; chosen)." },
    ParamSpec { key: "beta_medium", scope: S, label: "β medium", unit: "", default: -0.4, min: -0.999, max: -0.0001, kind: Real, live: true,
      doc: "β while x_small < |x_d| ≤ x_large (chosen)." },
    ParamSpec { key: "beta_large", scope: S, label: "β large", unit: "", default: -0.6, min: -0.999, max: -0.0001, kind: Real, live: true,
      doc: "β when |x_d| > x_large (chosen)." },
    ParamSpec { key: "x_small", scope: S, label: "|x_d| small", unit: "", default: 0.2, min: 0.0, max: 100.0, kind: Real, live: true,
      doc: "Boundary between the small and medium β cases." },
    ParamSpec { key: "x_large", scope: S, label: "|x_d| large", unit: "", default: 1.0, min: 0.0, max: 100.0, kind: Real, live: true,
      doc: "Boundary between the medium and large β cases." },
    ParamSpec { key: "preemption", scope: S, label: "Control pre-emption", unit: "", default: 1.0, min: 0.0, max: 1.0, kind: Bool, live: true,
      doc: "Hold D_UDP while the offered UDP load is below f_UDP,ref = C·r_ref/(1+r_ref) (Pletka et al. §IV)." },
];

/// The spec of one of CLCC's knobs.
fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    registry::find(PARAMS, scope, key)
}

/// CLCC's configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClccConfig {
    pub enabled: bool,
    pub r_ref: f64,
    pub sample: SimTime,
    pub interval: SimTime,
    pub d_min: f64,
    pub d_max: f64,
    /// β for the small, medium and large |x_d| cases.
    pub beta: [f64; 3],
    pub x_small: f64,
    pub x_large: f64,
    pub preemption: bool,
}

impl ClccConfig {
    /// Reads a `clcc` object; absent keys take their defaults.
    pub(crate) fn read(obj: &mut Obj<'_>, errors: &mut Errors) -> ClccConfig {
        let d = |k| spec(S, k).default;
        let mut num =
            |k: &'static str, obj: &mut Obj<'_>| obj.param(spec(S, k), errors).unwrap_or(d(k));
        let sample_ms = num("sample_ms", obj);
        let interval_ms = num("interval_ms", obj);
        let config = ClccConfig {
            r_ref: num("r_ref", obj),
            sample: SimTime::from_ms(sample_ms),
            interval: SimTime::from_ms(interval_ms),
            d_min: num("d_min", obj),
            d_max: num("d_max", obj),
            beta: [num("beta_small", obj), num("beta_medium", obj), num("beta_large", obj)],
            x_small: num("x_small", obj),
            x_large: num("x_large", obj),
            enabled: obj.flag("enabled", errors).unwrap_or(d("enabled") != 0.0),
            preemption: obj.flag("preemption", errors).unwrap_or(d("preemption") != 0.0),
        };
        if interval_ms < sample_ms {
            errors.push(ScenarioError::new(
                obj.at("interval_ms"),
                format!("{interval_ms} ms is shorter than sample_ms {sample_ms} ms"),
            ));
        }
        if config.d_min > config.d_max {
            errors.push(ScenarioError::new(
                obj.at("d_min"),
                format!("{} exceeds d_max {}", config.d_min, config.d_max),
            ));
        }
        if config.x_small > config.x_large {
            errors.push(ScenarioError::new(
                obj.at("x_small"),
                format!("{} exceeds x_large {}", config.x_small, config.x_large),
            ));
        }
        config
    }

    /// Ratio samples per control step (at least one).
    pub fn samples_per_step(&self) -> u32 {
        ((self.interval.0 as f64 / self.sample.0.max(1) as f64).round() as u32).max(1)
    }

    /// The UDP rate r_ref stands for on a link of `capacity_bps`: f_UDP,ref.
    pub fn udp_reference_bps(&self, capacity_bps: f64) -> f64 {
        capacity_bps * self.r_ref / (1.0 + self.r_ref)
    }

    /// β for a control error `x` (the three cases of Pletka et al. Fig. 5).
    pub fn beta_for(&self, x: f64) -> f64 {
        let a = x.abs();
        if a <= self.x_small {
            self.beta[0]
        } else if a <= self.x_large {
            self.beta[1]
        } else {
            self.beta[2]
        }
    }
}

/// A ratio sample taken when TCP got nothing at all stands for "far too much
/// UDP": this value, rather than infinity.
pub const RATIO_CEILING: f64 = 1000.0;

/// What one control step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClccStep {
    /// D_UDP moved (or stayed at a bound) under control.
    Adapted,
    /// Control pre-emption: the offered UDP load is below f_UDP,ref; D held.
    Preempted,
    /// No ratio samples in the interval (no traffic): D held.
    NoSamples,
    /// The controller is switched off (BAT alone): D held.
    Off,
}

/// The controller's state.
#[derive(Clone, Debug)]
pub struct Clcc {
    pub config: ClccConfig,
    /// The manipulated variable, D_UDP.
    pub d_udp: f64,
    samples: Vec<f64>,
    /// r_k of the last step.
    pub last_ratio: f64,
    pub last_step: Option<ClccStep>,
    pub steps: u64,
}

impl Clcc {
    pub fn new(config: ClccConfig, d_initial: f64) -> Clcc {
        Clcc {
            config,
            d_udp: d_initial.clamp(config.d_min, config.d_max),
            samples: Vec::with_capacity(config.samples_per_step() as usize),
            last_ratio: 0.0,
            last_step: None,
            steps: 0,
        }
    }

    /// One 100 ms sample: bytes of UDP and TCP serviced since the last one.
    pub fn on_sample(&mut self, udp_bytes: u64, tcp_bytes: u64) {
        if udp_bytes == 0 && tcp_bytes == 0 {
            return;
        }
        let r = if tcp_bytes == 0 {
            RATIO_CEILING
        } else {
            (udp_bytes as f64 / tcp_bytes as f64).min(RATIO_CEILING)
        };
        self.samples.push(r);
    }

    /// The once-a-second step (equations 5 and 6). `udp_offered_bps` is the UDP
    /// load offered over the interval, for control pre-emption.
    pub fn step(&mut self, udp_offered_bps: f64, capacity_bps: f64) -> ClccStep {
        self.steps += 1;
        let outcome = if self.samples.is_empty() {
            ClccStep::NoSamples
        } else {
            let r_k = self.samples.iter().sum::<f64>() / self.samples.len() as f64;
            self.last_ratio = r_k;
            if !self.config.enabled {
                ClccStep::Off
            } else if self.config.preemption
                && udp_offered_bps < self.config.udp_reference_bps(capacity_bps)
            {
                ClccStep::Preempted
            } else {
                let c = &self.config;
                let x = (c.r_ref - r_k) / c.r_ref; // equation 5
                let b0 = c.beta_for(x) * self.d_udp; // b_0 = β·D^{k−1}
                self.d_udp = (self.d_udp + b0 * x).clamp(c.d_min, c.d_max); // equation 6
                ClccStep::Adapted
            }
        };
        self.samples.clear();
        self.last_step = Some(outcome);
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ClccConfig {
        ClccConfig {
            enabled: true,
            r_ref: 0.5,
            sample: SimTime::from_ms(100.0),
            interval: SimTime::from_ms(1000.0),
            d_min: 1e-4,
            d_max: 0.8,
            beta: [-0.1, -0.3, -0.5],
            x_small: 0.2,
            x_large: 1.0,
            preemption: true,
        }
    }

    #[test]
    fn too_much_udp_raises_d_and_too_little_lowers_it() {
        let mut c = Clcc::new(config(), 0.01);
        // r = 2 against r_ref 0.5: x = −3, large case: D · (1 + 0.5·3) = 2.5 D.
        for _ in 0..10 {
            c.on_sample(200, 100);
        }
        assert_eq!(c.step(60e6, 100e6), ClccStep::Adapted);
        assert!((c.d_udp - 0.025).abs() < 1e-12, "{}", c.d_udp);
        // r = 0.25: x = 0.5, medium case: D · (1 − 0.3·0.5) = 0.85 D.
        for _ in 0..10 {
            c.on_sample(25, 100);
        }
        c.step(60e6, 100e6);
        assert!((c.d_udp - 0.02125).abs() < 1e-12, "{}", c.d_udp);
        // At the reference, D stays.
        c.on_sample(50, 100);
        let before = c.d_udp;
        c.step(60e6, 100e6);
        assert_eq!(c.d_udp, before);
    }

    #[test]
    fn bounds_and_preemption_hold_d() {
        let mut c = Clcc::new(config(), 0.5);
        c.on_sample(100, 0); // TCP starved: the ratio ceiling
        c.step(90e6, 100e6);
        assert_eq!(c.d_udp, 0.8, "clamped to d_max");
        // Offered UDP 20 Mbit/s < f_UDP,ref = 100·0.5/1.5 = 33.3 Mbit/s: pre-empted.
        c.on_sample(1, 100);
        assert_eq!(c.step(20e6, 100e6), ClccStep::Preempted);
        assert_eq!(c.d_udp, 0.8);
        assert_eq!(c.step(90e6, 100e6), ClccStep::NoSamples);
    }

    #[test]
    fn beta_cases() {
        let c = config();
        assert_eq!(c.beta_for(0.1), -0.1);
        assert_eq!(c.beta_for(-0.5), -0.3);
        assert_eq!(c.beta_for(-20.0), -0.5);
        assert_eq!(c.samples_per_step(), 10);
        assert!((c.udp_reference_bps(100e6) - 100e6 / 3.0).abs() < 1e-6);
    }
}
