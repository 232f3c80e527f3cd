//! The AQMs an IP port can run, as a scenario configures them, and their
//! registrations: drop-tail, and BAT with CLCC on top (Pletka et al.). Each
//! AQM's knobs and reader are in its own file; this list makes the registry,
//! the `kind` menu and the reader follow from one line each.

use super::bat::BatConfig;
use crate::scenario::reader::{Errors, Obj};
use crate::scenario::registry::{ParamSpec, Registered, Registration};

/// An output port's active queue management, as configured.
#[allow(clippy::large_enum_variant, reason = "one per port, built once")]
#[derive(Clone, Debug, PartialEq)]
pub enum AqmConfig {
    /// Drop-tail: packets are lost only when the buffer is full.
    DropTail,
    /// BAT (Pletka et al. §III-A), optionally with CLCC (§IV).
    Bat(BatConfig),
}

impl AqmConfig {
    pub fn name(&self) -> &'static str {
        match self {
            AqmConfig::DropTail => "drop_tail",
            AqmConfig::Bat(c) if c.clcc.is_some_and(|c| c.enabled) => "bat+clcc",
            AqmConfig::Bat(_) => "bat",
        }
    }
}

/// Every AQM a port can run, one registration line each (the `kind` names,
/// parameters and reader are in each AQM's own file).
pub static AQMS: &[Registered<AqmConfig>] =
    &[Registered::of::<DropTail>(), Registered::of::<BatConfig>()];

/// The plain drop-tail queue, as a registration: no parameters.
pub struct DropTail;

impl Registration for DropTail {
    type Config = AqmConfig;
    const KINDS: &'static [&'static str] = &["drop_tail"];
    const PARAMS: &'static [ParamSpec] = &[];
    fn read(_kind: &str, _obj: &mut Obj<'_>, _errors: &mut Errors) -> AqmConfig {
        AqmConfig::DropTail
    }
}

impl Registration for BatConfig {
    type Config = AqmConfig;
    const KINDS: &'static [&'static str] = &["bat"];
    const PARAMS: &'static [ParamSpec] = super::bat::PARAMS;
    fn read(_kind: &str, obj: &mut Obj<'_>, errors: &mut Errors) -> AqmConfig {
        AqmConfig::Bat(BatConfig::read(obj, errors))
    }
}
