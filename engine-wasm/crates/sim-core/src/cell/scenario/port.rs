//! A cell-model port as a scenario states it: buffer, set-up signalling, queue
//! discipline and switch algorithm, over the defaults for switch and host
//! ports (the links around it are read by `crate::scenario::topology`).

use super::params::spec;
use super::PortSpec;
use crate::cell::net::Discipline;
use crate::cell::switch_alg::AlgorithmConfig;
use crate::scenario::reader::{describe, Errors, Obj};
use crate::scenario::registry::Scope;
use crate::scenario::topology::PortRead;
use crate::scenario::ScenarioError;

impl PortRead for PortSpec {
    const DEFAULT_KEYS: [&'static str; 2] = ["switch_port", "host_port"];

    fn builtin() -> [PortSpec; 2] {
        let switch = PortSpec {
            buffer_cells: spec(Scope::Port, "buffer_cells").default as u32,
            setup_ms: spec(Scope::Port, "setup_ms").default,
            setup_in_band: spec(Scope::Port, "setup_in_band").default != 0.0,
            discipline: Discipline::Fifo,
            algorithm: AlgorithmConfig::None,
        };
        let host = PortSpec { buffer_cells: 4_000_000, setup_ms: 0.0, ..switch.clone() };
        [switch, host]
    }

    fn read_keys(&mut self, obj: &mut Obj<'_>, errors: &mut Errors) {
        if let Some(x) = obj.param(spec(Scope::Port, "buffer_cells"), errors) {
            self.buffer_cells = x as u32;
        }
        if let Some(x) = obj.param(spec(Scope::Port, "setup_ms"), errors) {
            self.setup_ms = x;
        }
        if let Some(x) = obj.flag("setup_in_band", errors) {
            self.setup_in_band = x;
        }
        if let Some(v) = obj.get("queue") {
            match v.as_str().and_then(Discipline::from_name) {
                Some(d) => self.discipline = d,
                None => {
                    let names: Vec<String> =
                        Discipline::ALL.iter().map(|d| format!("\"{}\"", d.as_str())).collect();
                    errors.push(ScenarioError::new(
                        obj.at("queue"),
                        format!(
                            "unknown queue discipline {} (expected one of: {})",
                            describe(v),
                            names.join(", ")
                        ),
                    ));
                }
            }
        }
        if let Some(a) = obj.get("algorithm") {
            if let Some(alg) = AlgorithmConfig::read(a, &obj.at("algorithm"), errors) {
                self.algorithm = alg;
            }
        }
    }
}
