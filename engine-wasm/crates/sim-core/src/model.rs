//! One face for the two models a scenario may ask for with its `"model"` key:
//! the ATM cell model (`"cell"`, the default) and the IP packet model
//! (`"ip"`, Pletka et al.). The wasm layer holds a [`Model`]; the runner
//! dispatches on [`ModelKind`].

use crate::cell::sim::Simulation;
use crate::ip::IpSimulation;
use crate::kernel::RunOutcome;
use crate::scenario::{self, ScenarioError};
use crate::session::{edit, Applied};
use crate::time::SimTime;
use serde_json::Value;

/// Which model a scenario is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelKind {
    Cell,
    Packet,
}

/// Reads the `"model"` key: absent or `"cell"` is the cell model (the key is
/// then removed, as the cell parser does not know it), `"ip"` the packet model.
pub fn split_model(mut value: Value) -> Result<(ModelKind, Value), Vec<ScenarioError>> {
    let kind = match value.get("model") {
        None => ModelKind::Cell,
        Some(Value::String(s)) if s == "cell" => ModelKind::Cell,
        Some(Value::String(s)) if s == crate::ip::scenario::MODEL => ModelKind::Packet,
        Some(other) => {
            return Err(vec![ScenarioError::new(
                "model",
                format!(
                    "unknown model {} (expected \"cell\" or \"ip\")",
                    scenario::reader::describe(other)
                ),
            )])
        }
    };
    if kind == ModelKind::Cell {
        if let Some(map) = value.as_object_mut() {
            map.remove("model");
        }
    }
    Ok((kind, value))
}

fn parse_json(text: &str) -> Result<Value, Vec<ScenarioError>> {
    scenario::strict_json::parse(text, scenario::Limits::default().max_input_bytes)
}

/// Runs `$body` on whichever simulation `$model` holds, bound to `$sim`: both
/// models answer the same methods, so each of [`Model`]'s forwarding methods is
/// one line. Where the packet model names a method after packets, the arm for
/// each model is given (`cell => …, packet => …`).
macro_rules! either {
    ($model:expr, $sim:ident => $body:expr) => {
        match $model {
            Model::Cell($sim) => $body,
            Model::Packet($sim) => $body,
        }
    };
    ($model:expr, $sim:ident => cell: $cell:expr, packet: $packet:expr) => {
        match $model {
            Model::Cell($sim) => $cell,
            Model::Packet($sim) => $packet,
        }
    };
}

/// A built simulation of either model.
pub enum Model {
    Cell(Simulation),
    Packet(IpSimulation),
}

impl Model {
    /// Parses, validates and builds scenario text of either model.
    pub fn from_json(text: &str) -> Result<Model, Vec<ScenarioError>> {
        match split_model(parse_json(text)?)? {
            (ModelKind::Cell, v) => {
                Ok(Model::Cell(Simulation::build(&crate::cell::scenario::scenario_from_value(&v)?)))
            }
            (ModelKind::Packet, v) => Ok(Model::Packet(IpSimulation::build(
                &crate::ip::scenario::ip_scenario_from_value(&v)?,
            ))),
        }
    }

    /// Validates scenario text of either model; `Ok` carries the warnings.
    pub fn validate(text: &str) -> Result<Vec<ScenarioError>, Vec<ScenarioError>> {
        match split_model(parse_json(text)?)? {
            (ModelKind::Cell, v) => Ok(crate::cell::scenario::scenario_from_value(&v)?.warnings),
            (ModelKind::Packet, v) => Ok(crate::ip::scenario::ip_scenario_from_value(&v)?.warnings),
        }
    }

    /// Validates scenario text that differs from a valid scenario only at
    /// `path`, with [`Model::validate`]'s verdict: a live VC parameter of the
    /// cell model is checked only as far as the change reaches (see
    /// [`crate::cell::sim::check_edit`]; its warnings are not recomputed),
    /// anything else whole.
    pub fn validate_edit(text: &str, path: &str) -> Result<Vec<ScenarioError>, Vec<ScenarioError>> {
        if let (ModelKind::Cell, v) = split_model(parse_json(text)?)? {
            if let Some(verdict) = crate::cell::sim::check_edit(&v, path) {
                return verdict.map(|()| Vec::new());
            }
        }
        Model::validate(text)
    }

    pub fn kind(&self) -> ModelKind {
        match self {
            Model::Cell(_) => ModelKind::Cell,
            Model::Packet(_) => ModelKind::Packet,
        }
    }

    /// Topology, ids and columns as JSON (the packet model's carries `"model": "ip"`).
    pub fn layout(&self) -> Value {
        either!(self, s => s.layout())
    }

    /// Runs events up to `deadline`, handling at most `max_events`.
    pub fn run_until(&mut self, deadline: SimTime, max_events: u64) -> RunOutcome {
        either!(self, s => s.run_until(deadline, max_events))
    }

    pub fn now(&self) -> SimTime {
        either!(self, s => s.now())
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        either!(self, s => s.events())
    }

    /// Sample rows since the last call, flat and row-major.
    pub fn take_samples(&mut self) -> Vec<f64> {
        either!(self, s => s.take_samples())
    }

    /// Names of the sample columns.
    pub fn columns(&self) -> &[String] {
        either!(self, s => s.columns())
    }

    /// The live state for drawing (see each model's `frame`).
    pub fn frame(&self) -> Vec<f64> {
        either!(self, s => s.frame())
    }

    /// Cells (packet model: packets) on the links now, for animation, in rows of 7.
    pub fn cells_in_flight(&self, max: usize) -> Vec<f64> {
        either!(self, s => cell: s.cells_in_flight(max), packet: s.packets_in_flight(max))
    }

    /// One port's cells (packets) on its wire and in its queue, for the
    /// magnifier (see `Simulation::port_cells`).
    pub fn port_cells(&self, port: usize, max: usize) -> Vec<f64> {
        either!(self, s => cell: s.port_cells(port, max), packet: s.port_packets(port, max))
    }

    /// Changes one parameter by path in `scenario` and, where the model
    /// allows, in the running simulation (see [`edit::set_param`]).
    pub fn set_param(
        &mut self,
        scenario: &mut Value,
        at: &str,
        raw: &str,
    ) -> Result<Applied, ScenarioError> {
        either!(self, s => edit::set_param(s, scenario, at, raw))
    }

    /// Hash of every sample value so far ([`crate::session::SeriesHash`]).
    pub fn series_hash(&self) -> String {
        either!(self, s => s.series_hash())
    }

    /// Units the sources have emitted: cells (cell model) or data packets (packet model).
    pub fn source_cells(&self) -> u64 {
        either!(self, s => cell: s.source_cells, packet: s.packets_sent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_model_key_selects_and_is_checked() {
        assert_eq!(split_model(json!({})).unwrap().0, ModelKind::Cell);
        let (kind, v) = split_model(json!({"model": "cell", "id": "x"})).unwrap();
        assert_eq!(kind, ModelKind::Cell);
        assert!(v.get("model").is_none());
        assert_eq!(split_model(json!({"model": "ip"})).unwrap().0, ModelKind::Packet);
        let e = split_model(json!({"model": "atm"})).unwrap_err();
        assert_eq!(e[0].to_string(), "model: unknown model \"atm\" (expected \"cell\" or \"ip\")");
        assert!(Model::from_json("{").is_err());
    }
}
