//! The parameter registry: every tunable value's name, unit, default, range,
//! step kind and meaning, in one place. Validation reads it; the UI builds its
//! sliders from it (exported as JSON through the wasm layer). Ranges follow
//! Fahmy et al. Table 1 where the parameter is an ABR one.

use super::reader::{describe, Errors, Obj};
use super::ScenarioError;
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
    /// The explicit-rate max-min switch's knobs (`kind: "explicit_maxmin"`, Ma & Ramakrishnan).
    #[cfg_attr(test, ts(rename = "explicit_maxmin"))]
    ExplicitMaxMin,
    /// A link (`links[i]`).
    Link,
    /// The run (`run`).
    Run,
    /// An IP flow (`flows[i]`, `defaults.tcp`, `defaults.udp`; packet model, Pletka et al.).
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

    /// Whether the scope belongs to the packet model (Pletka et al.) rather than the cell model.
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
pub const MAX_RATE_MBPS: f64 = 16_777_215.0 * 424.0 / 1e6;

use Kind::*;
use Scope::*;

/// The parameters every model shares: a link's and the run's. Each model
/// lists its own beside its code and registers them (see [`Registration`]).
pub static SHARED_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "rate_mbps",
        scope: Link,
        label: "Rate",
        unit: "Mbit/s",
        default: 155.52,
        min: 0.001,
        max: 10_000.0,
        kind: Real,
        live: false,
        doc: "Link bandwidth; a cell occupies the link for 424 bits / rate.",
    },
    ParamSpec {
        key: "length_km",
        scope: Link,
        label: "Length",
        unit: "km",
        default: 1000.0,
        min: 0.0,
        max: 1_000_000.0,
        kind: Real,
        live: false,
        doc: "Link length: a cell takes 5 µs per km to cross it.",
    },
    ParamSpec {
        key: "delay_ms",
        scope: Link,
        label: "Delay",
        unit: "ms",
        default: 5.0,
        min: 0.0,
        max: 10_000.0,
        kind: Real,
        live: false,
        doc: "Propagation delay, given instead of a length.",
    },
    ParamSpec {
        key: "until_ms",
        scope: Run,
        label: "Run length",
        unit: "ms",
        default: 300.0,
        min: 0.001,
        max: 36_000_000.0,
        kind: Real,
        live: false,
        doc: "Simulated time the run covers.",
    },
    ParamSpec {
        key: "seed",
        scope: Run,
        label: "Seed",
        unit: "",
        default: 1.0,
        min: 0.0,
        max: 9_007_199_254_740_991.0,
        kind: Integer,
        live: false,
        doc: "Seed of the run's random streams: the same seed gives the same run.",
    },
    ParamSpec {
        key: "sample_interval_ms",
        scope: Run,
        label: "Sample interval",
        unit: "ms",
        default: 0.5,
        min: 0.01,
        max: 1000.0,
        kind: Real,
        live: false,
        doc: "How often the probe records a row of samples.",
    },
];

/// The spec of `key` in `scope` among `params` (a model's registry).
pub fn find<'a>(
    params: impl IntoIterator<Item = &'a ParamSpec>,
    scope: Scope,
    key: &str,
) -> &'a ParamSpec {
    params
        .into_iter()
        .find(|p| p.scope == scope && p.key == key)
        .unwrap_or_else(|| panic!("no parameter {key} in scope {}", scope.as_str()))
}

/// The spec of a shared parameter (`Link`, `Run`).
pub fn shared(scope: Scope, key: &str) -> &'static ParamSpec {
    find(SHARED_PARAMS, scope, key)
}

/// A part a model plugs in by name — a switch algorithm of the cell model,
/// an AQM of the packet model — as its own file declares it: the `kind`
/// names it answers to, its parameters, and how it reads its keys. The model
/// lists each in one registration line ([`Registered::of`]); the registry,
/// the `kind` menu and the reader all follow from that list.
pub trait Registration {
    /// What reading produces: the model's configuration of the part.
    type Config;
    /// The names `kind` may take for it.
    const KINDS: &'static [&'static str];
    /// Its registry entries.
    const PARAMS: &'static [ParamSpec];
    /// Reads its keys from `obj` (the `kind` key is already read; `kind` is
    /// one of [`Registration::KINDS`]).
    fn read(kind: &str, obj: &mut Obj<'_>, errors: &mut Errors) -> Self::Config;
}

/// One registration line: a [`Registration`] as data.
pub struct Registered<C: 'static> {
    pub kinds: &'static [&'static str],
    pub params: &'static [ParamSpec],
    pub read: fn(&str, &mut Obj<'_>, &mut Errors) -> C,
}

impl<C> Registered<C> {
    pub const fn of<R: Registration<Config = C>>() -> Registered<C> {
        Registered { kinds: R::KINDS, params: R::PARAMS, read: R::read }
    }
}

/// Every `kind` name the registrations answer to, in order.
pub fn kinds<C>(parts: &[Registered<C>]) -> Vec<&'static str> {
    parts.iter().flat_map(|r| r.kinds.iter().copied()).collect()
}

/// Reads an object `{"kind": …, …}` with the registration its kind names;
/// `what` names the part in messages ("algorithm", "AQM").
pub fn read_kind<C>(
    value: &Value,
    path: &str,
    what: &str,
    parts: &[Registered<C>],
    errors: &mut Errors,
) -> Option<C> {
    let mut obj = Obj::new(value, path, errors)?;
    let config = match obj.get("kind").map(|v| v.as_str()) {
        Some(Some(kind)) if parts.iter().any(|r| r.kinds.contains(&kind)) => {
            parts.iter().find(|r| r.kinds.contains(&kind)).map(|r| (r.read)(kind, &mut obj, errors))
        }
        Some(other) => {
            let given = other.map_or_else(
                || describe(obj.map.get("kind").unwrap_or(&Value::Null)),
                |s| format!("\"{s}\""),
            );
            let expected: Vec<String> = kinds(parts).iter().map(|k| format!("\"{k}\"")).collect();
            errors.push(ScenarioError::new(
                obj.at("kind"),
                format!("unknown {what} {given} (expected one of: {})", expected.join(", ")),
            ));
            None
        }
        None => {
            errors.push(ScenarioError::new(
                obj.at("kind"),
                format!("is required (one of: {})", kinds(parts).join(", ")),
            ));
            None
        }
    };
    obj.finish(errors);
    config
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

impl Obj<'_> {
    /// A registry parameter: checked against its range and kind. (Here rather than
    /// with the reader's other keys, so that the reader does not import the registry.)
    pub fn param(&mut self, spec: &ParamSpec, errors: &mut Errors) -> Option<f64> {
        let x = self.plain_number(spec.key, errors)?;
        match spec.check(x) {
            Ok(x) => Some(x),
            Err(msg) => {
                errors.push(ScenarioError::new(self.at(spec.key), msg));
                None
            }
        }
    }
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
