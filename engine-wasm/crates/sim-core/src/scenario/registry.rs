//! The parameter registry: every tunable value's name, unit, default, range,
//! step kind and meaning, in one place. Validation reads it; the UI builds its
//! sliders from it (exported as JSON through the wasm layer). Ranges follow
//! seed 001 Table 1 where the parameter is an ABR one.

use serde_json::{json, Value};

/// Where a parameter lives in a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum Scope {
    /// A VC's ABR parameters (`defaults.vc`, `vcs[i]`).
    Vc,
    /// A VC's traffic model (`vcs[i].traffic`, `vcs[i].reverse_traffic`).
    Traffic,
    /// A CBR/VBR background source (`background[i]`).
    Background,
    /// A port (`defaults.switch_port`, `defaults.host_port`, `links[i].a_to_b`, `links[i].b_to_a`).
    Port,
    /// ERICA's knobs (`…algorithm` with `kind: "erica"`).
    Erica,
    /// The EFCI binary switch's knobs (`…algorithm` with `kind: "efci"`).
    Efci,
    /// The explicit-rate max-min switch's knobs (`kind: "explicit_maxmin"`, seed 000).
    #[cfg_attr(test, ts(rename = "explicit_maxmin"))]
    ExplicitMaxMin,
    /// A link (`links[i]`).
    Link,
    /// The run (`run`).
    Run,
    /// An IP flow (`flows[i]`, `defaults.tcp`, `defaults.udp`; packet model, seed 002).
    IpFlow,
    /// A TCP connection's knobs (`flows[i]` of kind `tcp`, `defaults.tcp`).
    Tcp,
    /// An IP router or host port (`defaults.router_port`, `defaults.host_port`, `links[i].a_to_b`, …).
    IpPort,
    /// BAT's knobs (`…aqm` with `kind: "bat"`).
    Bat,
    /// CLCC's knobs (`…aqm.clcc`).
    Clcc,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Vc => "vc",
            Traffic => "traffic",
            Background => "background",
            Port => "port",
            Erica => "erica",
            Efci => "efci",
            ExplicitMaxMin => "explicit_maxmin",
            Link => "link",
            Run => "run",
            IpFlow => "ip_flow",
            Tcp => "tcp",
            IpPort => "ip_port",
            Bat => "bat",
            Clcc => "clcc",
        }
    }

    /// Whether the scope belongs to the packet model (seed 002) rather than the cell model.
    pub fn is_packet_model(self) -> bool {
        matches!(self, IpFlow | Tcp | IpPort | Bat | Clcc)
    }
}

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "snake_case"))]
pub enum Kind {
    Real,
    Integer,
    /// A power of two within the range.
    #[cfg_attr(test, ts(rename = "pow2"))]
    PowerOfTwo,
    /// Zero, or a power of two within the range (CDF).
    #[cfg_attr(test, ts(rename = "zero_or_pow2"))]
    ZeroOrPowerOfTwo,
    /// On or off: `true`/`false` in JSON, 1/0 in the registry's numbers.
    Bool,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Real => "real",
            Integer => "integer",
            PowerOfTwo => "pow2",
            ZeroOrPowerOfTwo => "zero_or_pow2",
            Bool => "bool",
        }
    }
}

/// One tunable number (`to_json` writes it as the generated TypeScript type says).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ParamSpec {
    pub key: &'static str,
    pub scope: Scope,
    pub label: &'static str,
    pub unit: &'static str,
    /// Null when the default is derived (ICR defaults to PCR) or means "absent" (no stop time).
    #[cfg_attr(test, ts(type = "number | null"))]
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub kind: Kind,
    /// Whether a change can be applied to a running simulation.
    pub live: bool,
    pub doc: &'static str,
}

/// 16,777,215 cells/s, Table 1's ceiling for rates, in Mbit/s.
const MAX_RATE_MBPS: f64 = 16_777_215.0 * 424.0 / 1e6;

#[allow(
    clippy::too_many_arguments,
    reason = "one positional row of the const parameter table per call"
)]
pub const fn p(
    key: &'static str,
    scope: Scope,
    label: &'static str,
    unit: &'static str,
    default: f64,
    min: f64,
    max: f64,
    kind: Kind,
    live: bool,
    doc: &'static str,
) -> ParamSpec {
    ParamSpec { key, scope, label, unit, default, min, max, kind, live, doc }
}

use Kind::*;
use Scope::*;

/// The parameters of the model itself; each switch algorithm lists its own
/// beside its code (see [`all`]).
pub static CORE_PARAMS: &[ParamSpec] = &[
    p("pcr_mbps", Vc, "PCR", "Mbit/s", 155.52, 0.001, MAX_RATE_MBPS, Real, true,
      "Peak cell rate: ACR never exceeds it (rule 1). Negotiated down to the slowest link on the path (seed 001 §3.2)."),
    p("mcr_mbps", Vc, "MCR", "Mbit/s", 0.0, 0.0, MAX_RATE_MBPS, Real, true,
      "Minimum cell rate: ACR never falls below it (rule 1)."),
    p("icr_mbps", Vc, "ICR", "Mbit/s", f64::NAN, 0.001, MAX_RATE_MBPS, Real, false,
      "Initial cell rate; defaults to PCR (Table 1). Rule 2 starts at min(ICR, TBE/FRTT)."),
    p("tcr_cps", Vc, "TCR", "cells/s", 10.0, 1.0, 1000.0, Real, true,
      "Tagged cell rate, the ceiling for out-of-rate RM cells (rule 11); 10 cells/s in TM 4.0."),
    p("nrm", Vc, "Nrm", "cells", 32.0, 2.0, 256.0, PowerOfTwo, true,
      "One cell in Nrm is a forward RM cell (rule 3). Power of two, 2..256, default 32."),
    p("mrm", Vc, "Mrm", "cells", 2.0, 1.0, 256.0, Integer, true,
      "At least Mrm other cells between FRMs triggered by Trm (rule 3); a constant 2 in TM 4.0."),
    p("trm_ms", Vc, "Trm", "ms", 100.0, 0.78125, 100.0, Real, true,
      "Upper bound on the time between FRMs (rule 3). TM 4.0 allows 100·2^k ms, k = −7..0; seed 001 §4.2.2's experiment also uses 1 and 10 ms, so any value in the range is accepted."),
    p("rif", Vc, "RIF", "", 1.0 / 16.0, 1.0 / 32768.0, 1.0, PowerOfTwo, true,
      "Rate increase factor: at most RIF·PCR more per BRM (rule 9). Power of two, 1/32768..1; 1/16 as in seed 001's experiments."),
    p("rdf", Vc, "RDF", "", 1.0 / 16.0, 1.0 / 32768.0, 1.0, PowerOfTwo, true,
      "Rate decrease factor: ACR·RDF less per BRM with CI = 1 (rule 8). Power of two, 1/32768..1."),
    p("adtf_s", Vc, "ADTF", "s", 0.5, 0.01, 10.23, Real, true,
      "ACR decrease time factor: after ADTF without an FRM, ACR falls back to ICR (rule 5)."),
    p("tbe_cells", Vc, "TBE", "cells", 16_777_215.0, 0.0, 16_777_215.0, Integer, false,
      "Transient buffer exposure: bounds ICR by TBE/FRTT (rule 2) and sets CRM = ⌈TBE/Nrm⌉ (rule 6)."),
    p("cdf", Vc, "CDF", "", 1.0 / 16.0, 1.0 / 64.0, 1.0, ZeroOrPowerOfTwo, true,
      "Cutoff decrease factor of rule 6; 0 disables the rule. Zero or a power of two, 1/64..1."),
    p("crm", Vc, "CRM", "FRMs", f64::NAN, 1.0, 16_777_215.0, Integer, true,
      "Missing-RM count of rule 6; absent means ⌈TBE/Nrm⌉ (Table 1). Set directly only to reproduce pre-TM 4.0 sources (seed 001 §6.2.1 sets CRM = 32 with ICR = 140 Mbit/s)."),
    p("cdf_every_crm", Vc, "Rule 6 once per CRM", "", 0.0, 0.0, 1.0, Bool, true,
      "Cut ACR by CDF once per CRM FRMs without a BRM, instead of at every FRM after the CRM-th as TM 4.0 says. Off by default; on reproduces seed 001 Figure 10's source."),
    p("start_ms", Traffic, "Start", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the source starts sending."),
    p("stop_ms", Traffic, "Stop", "ms", f64::INFINITY, 0.0, 36_000_000.0, Real, false,
      "When the source stops sending; absent means never."),
    p("rate_mbps", Traffic, "Source bottleneck", "Mbit/s", 10.0, 0.001, 10_000.0, Real, false,
      "Bottlenecked traffic: the application supplies at most this rate (seed 004 ACR retention)."),
    p("for_ms", Traffic, "Bottleneck lasts", "ms", 100.0, 0.0, 36_000_000.0, Real, false,
      "Bottlenecked traffic: how long after start the cap holds."),
    p("on_ms", Traffic, "On", "ms", 10.0, 0.001, 36_000_000.0, Real, false,
      "On/off traffic: length of each burst."),
    p("off_ms", Traffic, "Off", "ms", 10.0, 0.0, 36_000_000.0, Real, false,
      "On/off traffic: silence between bursts."),
    p("request_cells", Traffic, "Request", "cells", 16.0, 1.0, 100_000_000.0, Integer, false,
      "Request–response traffic: cells in each request (seed 004 bursty test: 16)."),
    p("response_cells", Traffic, "Response", "cells", 1024.0, 1.0, 100_000_000.0, Integer, false,
      "Request–response traffic: cells in each response (seed 004: 128, 1024 or 6144)."),
    p("rate_mbps", Background, "Rate", "Mbit/s", 10.0, 0.001, 10_000.0, Real, false,
      "CBR rate, or the VBR square wave's amplitude."),
    p("on_ms", Background, "On", "ms", f64::INFINITY, 0.001, 36_000_000.0, Real, false,
      "Square wave: how long the source sends; absent means always (constant CBR)."),
    p("off_ms", Background, "Off", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "Square wave: how long it is silent."),
    p("phase_ms", Background, "Phase", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the first pulse starts, after start_ms (seed 001 §6.2.1: the VBR pulse starts at 2 ms)."),
    p("start_ms", Background, "Start", "ms", 0.0, 0.0, 36_000_000.0, Real, false,
      "When the background source starts."),
    p("stop_ms", Background, "Stop", "ms", f64::INFINITY, 0.0, 36_000_000.0, Real, false,
      "When it stops; absent means never."),
    p("buffer_cells", Port, "Buffer", "cells", 100_000.0, 1.0, 4_000_000.0, Integer, false,
      "Queue limit of the port; cells beyond it are lost and counted."),
    p("rate_mbps", Link, "Rate", "Mbit/s", 155.52, 0.001, 10_000.0, Real, false,
      "Link bandwidth; a cell occupies the link for 424 bits / rate."),
    p("length_km", Link, "Length", "km", 1000.0, 0.0, 1_000_000.0, Real, false,
      "Link length; propagation takes 5 µs per km (SPEC §2)."),
    p("delay_ms", Link, "Delay", "ms", 5.0, 0.0, 10_000.0, Real, false,
      "Propagation delay, given instead of a length."),
    p("until_ms", Run, "Run length", "ms", 300.0, 0.001, 36_000_000.0, Real, false,
      "Simulated time the run covers."),
    p("seed", Run, "Seed", "", 1.0, 0.0, 9_007_199_254_740_991.0, Integer, false,
      "Seed of the run's random streams: the same seed gives the same run."),
    p("sample_interval_ms", Run, "Sample interval", "ms", 0.5, 0.01, 1000.0, Real, false,
      "How often the probe records a row of samples."),
];

/// Every parameter: the model's, every switch algorithm's and the packet model's.
pub fn all() -> impl Iterator<Item = &'static ParamSpec> {
    CORE_PARAMS
        .iter()
        .chain(crate::cell::switch_alg::ALGORITHM_PARAMS.iter().flat_map(|p| p.iter()))
        .chain(crate::ip::PARAMS.iter().flat_map(|p| p.iter()))
}

/// The spec of `key` in `scope`.
pub fn spec(scope: Scope, key: &str) -> &'static ParamSpec {
    all()
        .find(|p| p.scope == scope && p.key == key)
        .unwrap_or_else(|| panic!("no parameter {key} in scope {}", scope.as_str()))
}

/// The keys of a scope, for "expected one of" messages.
pub fn keys(scope: Scope) -> impl Iterator<Item = &'static str> {
    all().filter(move |p| p.scope == scope).map(|p| p.key)
}

fn fraction(x: f64) -> String {
    if x < 1.0 && x > 0.0 && (1.0 / x).fract() == 0.0 {
        format!("1/{}", 1.0 / x)
    } else {
        format!("{x}")
    }
}

fn is_power_of_two(x: f64) -> bool {
    x > 0.0 && x.is_finite() && x.log2().round().exp2() == x
}

impl ParamSpec {
    /// Checks `value` against the range and kind; the message names the rule broken.
    pub fn check(&self, value: f64) -> Result<f64, String> {
        let range = format!("between {} and {}", fraction(self.min), fraction(self.max));
        if !value.is_finite() {
            return Err(format!("{value} is not a finite number"));
        }
        match self.kind {
            PowerOfTwo if !is_power_of_two(value) || value < self.min || value > self.max => {
                Err(format!("{value} is not a power of two {range}"))
            }
            ZeroOrPowerOfTwo
                if value != 0.0
                    && (!is_power_of_two(value) || value < self.min || value > self.max) =>
            {
                Err(format!("{value} is neither 0 nor a power of two {range}"))
            }
            Integer if value.fract() != 0.0 => Err(format!("{value} is not a whole number")),
            _ if self.kind != ZeroOrPowerOfTwo && (value < self.min || value > self.max) => {
                Err(format!("{value} {} is out of range: must be {range}", self.unit)
                    .replace("  ", " "))
            }
            _ => Ok(value),
        }
    }

    pub fn to_json(&self) -> Value {
        let num = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
        json!({
            "key": self.key, "scope": self.scope.as_str(), "label": self.label, "unit": self.unit,
            "default": num(self.default), "min": self.min, "max": self.max,
            "kind": self.kind.as_str(), "live": self.live, "doc": self.doc,
        })
    }
}

/// The cell model's registry as JSON, for the UI (the packet model's is
/// [`crate::ip::registry_json`]).
pub fn registry_json() -> Value {
    Value::Array(all().filter(|p| !p.scope.is_packet_model()).map(ParamSpec::to_json).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_two_are_checked_with_a_clear_message() {
        let rif = spec(Vc, "rif");
        assert_eq!(rif.check(0.0625), Ok(0.0625));
        assert_eq!(rif.check(1.0 / 32768.0), Ok(1.0 / 32768.0));
        assert_eq!(rif.check(0.3).unwrap_err(), "0.3 is not a power of two between 1/32768 and 1");
        assert!(rif.check(2.0).is_err());
        assert!(spec(Vc, "nrm").check(48.0).is_err());
    }

    #[test]
    fn cdf_takes_zero_or_a_power_of_two() {
        let cdf = spec(Vc, "cdf");
        assert!(cdf.check(0.0).is_ok());
        assert!(cdf.check(1.0 / 64.0).is_ok());
        assert!(cdf.check(1.0 / 128.0).is_err());
    }

    #[test]
    fn ranges_and_integers() {
        assert!(spec(Link, "rate_mbps").check(0.0).unwrap_err().contains("out of range"));
        assert!(spec(Vc, "tbe_cells").check(12.5).unwrap_err().contains("whole number"));
        assert!(spec(Vc, "adtf_s").check(f64::NAN).is_err());
    }

    #[test]
    fn every_default_passes_its_own_check() {
        for p in all().filter(|p| p.default.is_finite()) {
            assert!(p.check(p.default).is_ok(), "{} default {}", p.key, p.default);
        }
    }
}
