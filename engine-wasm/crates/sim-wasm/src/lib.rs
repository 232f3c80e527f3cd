//! The wasm-bindgen layer over `sim-core`: one `Engine` handle with coarse
//! methods, flat `Vec<f64>` columns (a `Float64Array` on the JS side) and JSON
//! text for everything structured. No model logic lives here.
//!
//! A panic inside the engine poisons the handle: every later call reports the
//! poisoning instead of touching state that may be half-updated, and the
//! worker rebuilds from the last good scenario. Natively (tests) the panic is
//! caught here; on wasm32 a panic aborts, which JS sees as a `RuntimeError`
//! thrown from the call — the worker treats that exception the same way, and
//! the panic hook installed by [`start`] writes the panic's message to the
//! console first.

use sim_core::scenario::{self, set, ScenarioError};
use sim_core::sweep::WindowSummary;
use sim_core::time::SimTime;
use sim_core::{Applied, Model, RunOutcome};
use std::panic::{catch_unwind, AssertUnwindSafe};
use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated: a panic's message and location go to the browser
/// console (`console.error`) before the wasm aborts, so an internal error is never anonymous.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(target_arch = "wasm32")]
    console_error_panic_hook::set_once();
}

fn errors_json(errors: &[ScenarioError]) -> String {
    let list: Vec<_> =
        errors.iter().map(|e| serde_json::json!({"path": e.path, "message": e.message})).collect();
    serde_json::json!({"ok": false, "errors": list}).to_string()
}

/// A validation's verdict as the page reads it: `{"ok":true,"warnings":[…]}` or
/// `{"ok":false,"errors":[{path,message}]}`.
fn verdict_json(verdict: Result<Vec<ScenarioError>, Vec<ScenarioError>>) -> String {
    match verdict {
        Ok(warnings) => {
            let warnings: Vec<_> = warnings
                .iter()
                .map(|w| serde_json::json!({"path": w.path, "message": w.message}))
                .collect();
            serde_json::json!({"ok": true, "warnings": warnings}).to_string()
        }
        Err(errors) => errors_json(&errors),
    }
}

/// Validates scenario text of either model (`"model": "cell"` or `"ip"`).
#[wasm_bindgen]
pub fn validate_scenario(json: &str) -> String {
    verdict_json(Model::validate(json))
}

/// Validates scenario text that differs from a valid scenario only at `path`: a live VC
/// parameter is checked as `set_param` checks it rather than with the whole scenario and each of
/// its variants again (see `Model::validate_edit`), so that a slider stays quick with 500 VCs.
#[wasm_bindgen]
pub fn validate_edit(json: &str, path: &str) -> String {
    verdict_json(Model::validate_edit(json, path))
}

/// The parameter registry (name, unit, default, range, kind, doc) as JSON.
#[wasm_bindgen]
pub fn param_registry() -> String {
    sim_core::cell::scenario::params::registry_json().to_string()
}

/// The packet model's registry entries (scopes `ip_flow`, `tcp`, `ip_port`,
/// `bat`, `clcc`) as JSON, apart from the cell model's until the UI shows IP scenarios.
#[wasm_bindgen]
pub fn ip_param_registry() -> String {
    sim_core::ip::registry_json().to_string()
}

/// The enumerated choices a scenario can make (algorithms, queue disciplines,
/// traffic models with their keys, start-up options, background kinds; the
/// packet model's under `ip`) as JSON.
#[wasm_bindgen]
pub fn scenario_choices() -> String {
    let mut choices = sim_core::cell::scenario::choices_json();
    choices["ip"] = sim_core::ip::scenario::choices_json();
    choices.to_string()
}

/// The engine's limits as JSON, so that the page bounds what it
/// builds before the engine sees it (sweep grids, pasted text) with the same figures.
#[wasm_bindgen]
pub fn scenario_limits() -> String {
    scenario::Limits::default().to_json().to_string()
}

/// A scenario's paper claims judged on the run that is playing (scenarios/README.md, "Paper claims"), by
/// the same evaluator as `abrsim check`. Build it from the scenario as it now
/// runs and the run's sample columns; pass the rows of `columns()` so far.
#[wasm_bindgen]
pub struct ClaimCheck {
    inner: sim_core::claims::LiveCheck,
}

#[wasm_bindgen]
impl ClaimCheck {
    /// Throws the errors JSON of `validate_scenario` when the claims cannot be read.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str, columns_json: &str) -> Result<ClaimCheck, JsError> {
        let columns: Vec<String> = serde_json::from_str(columns_json).map_err(|e| {
            JsError::new(&errors_json(&[ScenarioError::new("", format!("columns: {e}"))]))
        })?;
        sim_core::claims::LiveCheck::new(scenario_json, &columns)
            .map(|inner| ClaimCheck { inner })
            .map_err(|errors| JsError::new(&errors_json(&errors)))
    }

    /// The columns `evaluate` takes, `t_ms` first, as a JSON array.
    pub fn columns(&self) -> String {
        serde_json::json!(self.inner.columns()).to_string()
    }

    /// Every claim with its outcome at `now_ms` as a JSON array (status
    /// `pending`, `held`, `failing`, `expected_fail`, `now_holds` or `other_variant`).
    pub fn evaluate(&self, rows: &[f64], now_ms: f64) -> String {
        self.inner.evaluate(rows, now_ms).to_string()
    }
}

/// The page's judge of a scenario's predict-then-play questions on the run that is playing: the
/// same tracker as `ClaimCheck`, fed the same rows.
#[wasm_bindgen]
pub struct QuestionCheck {
    inner: sim_core::claims::QuestionCheck,
}

#[wasm_bindgen]
impl QuestionCheck {
    /// Throws the errors JSON of `validate_scenario` when the questions cannot be read.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str, columns_json: &str) -> Result<QuestionCheck, JsError> {
        let columns: Vec<String> = serde_json::from_str(columns_json).map_err(|e| {
            JsError::new(&errors_json(&[ScenarioError::new("", format!("columns: {e}"))]))
        })?;
        sim_core::claims::QuestionCheck::new(scenario_json, &columns)
            .map(|inner| QuestionCheck { inner })
            .map_err(|errors| JsError::new(&errors_json(&errors)))
    }

    /// The columns `evaluate` takes, `t_ms` first, as a JSON array.
    pub fn columns(&self) -> String {
        serde_json::json!(self.inner.columns()).to_string()
    }

    /// Every question's standing at `now_ms` as a JSON array (`status` `pending` or `due`,
    /// `value`, `run_choice`, `agrees_with_paper`).
    pub fn evaluate(&self, rows: &[f64], now_ms: f64) -> String {
        self.inner.evaluate(rows, now_ms).to_string()
    }
}

fn error_json(e: &ScenarioError) -> serde_json::Value {
    serde_json::json!({"error": {"path": e.path, "message": e.message}})
}

/// Parses a `--set` value as the engine does (a fraction such as `1/16`, else JSON, else a bare
/// string); returns it as JSON text.
#[wasm_bindgen]
pub fn parse_set_value(raw: &str) -> String {
    set::parse_value(raw).to_string()
}

/// Expands `*` in a path (`vcs.*.rif`) into one path per array element:
/// `{"paths":[…]}` or `{"error":{path,message}}`.
#[wasm_bindgen]
pub fn expand_path(scenario_json: &str, path: &str) -> String {
    let result = serde_json::from_str::<serde_json::Value>(scenario_json)
        .map_err(|e| ScenarioError::new("", format!("the scenario is not JSON: {e}")))
        .and_then(|root| set::expand_path(&root, path));
    match result {
        Ok(paths) => serde_json::json!({ "paths": paths }),
        Err(e) => error_json(&e),
    }
    .to_string()
}

/// Applies overrides (`[{"path","raw"}]`, paths maybe with `*`, values as typed) to scenario text:
/// `{"json": text}` or `{"error":{path,message}}`. The engine validates the result when it loads it.
#[wasm_bindgen]
pub fn apply_overrides(scenario_json: &str, overrides_json: &str) -> String {
    let result = (|| {
        let mut root: serde_json::Value = serde_json::from_str(scenario_json)
            .map_err(|e| ScenarioError::new("", format!("the scenario is not JSON: {e}")))?;
        let list: Vec<serde_json::Value> = serde_json::from_str(overrides_json)
            .map_err(|e| ScenarioError::new("", format!("the overrides are not JSON: {e}")))?;
        let overrides: Vec<(String, String)> = list
            .iter()
            .map(|o| {
                let text = |k: &str| o[k].as_str().unwrap_or_default().to_string();
                (text("path"), text("raw"))
            })
            .collect();
        set::apply_overrides(&mut root, &overrides)?;
        Ok::<_, ScenarioError>(root)
    })();
    match result {
        Ok(root) => serde_json::json!({
            "json": serde_json::to_string_pretty(&root).expect("JSON serialises")
        }),
        Err(e) => error_json(&e),
    }
    .to_string()
}

/// Sets one path (no `*`) to a JSON value in scenario text: `{"json": text}` or
/// `{"error":{path,message}}` naming the first segment that does not exist.
#[wasm_bindgen]
pub fn set_path(scenario_json: &str, path: &str, value_json: &str) -> String {
    let result = serde_json::from_str::<serde_json::Value>(scenario_json)
        .map_err(|e| ScenarioError::new("", format!("the scenario is not JSON: {e}")))
        .and_then(|mut root| set::apply_set(&mut root, path, value_json).map(|()| root));
    match result {
        Ok(root) => serde_json::json!({ "json": root.to_string() }),
        Err(e) => error_json(&e),
    }
    .to_string()
}

/// The four figures of a sweep point over a window, folded from the sample rows as they come
/// (`sim_core::sweep`, the same code as `abrsim sweep`).
#[wasm_bindgen]
pub struct SweepWindow(WindowSummary);

#[wasm_bindgen]
impl SweepWindow {
    /// Over [from_ms, to_ms] of the run `layout_json` (`Engine.layout()`) describes.
    #[wasm_bindgen(constructor)]
    pub fn new(layout_json: &str, from_ms: f64, to_ms: f64) -> Result<SweepWindow, JsError> {
        let layout: serde_json::Value =
            serde_json::from_str(layout_json).map_err(|e| JsError::new(&e.to_string()))?;
        WindowSummary::from_layout(&layout, (from_ms, to_ms))
            .map(SweepWindow)
            .map_err(|e| JsError::new(&e))
    }

    /// Folds in flat row-major sample rows (`Engine.take_samples()`), in time order.
    pub fn add(&mut self, rows: &[f64]) {
        self.0.add(rows);
    }

    /// `{"max_queue","utilization","fairness","cells_lost"}` (the generated `SweepSummary` type).
    pub fn summary(&self) -> String {
        self.0.summary().to_json().to_string()
    }
}

/// A sweep's grid, enumerated lazily (`sim_core::sweep::Grid`, the same code as `abrsim sweep`):
/// its size is checked against `limits.max_sweep_points` from the axes' lengths before any point
/// is made, and point `i` is made when asked for, so the page never holds more than the axes.
#[wasm_bindgen]
pub struct SweepGrid(sim_core::sweep::Grid);

#[wasm_bindgen]
impl SweepGrid {
    /// From `[{"path": "vcs.*.rif", "values": ["1/16", "1"]}, …]`, the first axis varying
    /// slowest; an error naming the axes and the limit when the grid is too large.
    #[wasm_bindgen(constructor)]
    pub fn new(axes_json: &str) -> Result<SweepGrid, JsError> {
        let axes: Vec<serde_json::Value> =
            serde_json::from_str(axes_json).map_err(|e| JsError::new(&e.to_string()))?;
        let mut parsed = Vec::with_capacity(axes.len());
        for a in &axes {
            let path = a["path"].as_str().ok_or_else(|| JsError::new("an axis without a path"))?;
            let values = a["values"]
                .as_array()
                .ok_or_else(|| JsError::new("an axis without values"))?
                .iter()
                .map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()))
                .collect();
            parsed.push(sim_core::sweep::Axis { path: path.to_string(), values });
        }
        let limit = scenario::Limits::default().max_sweep_points;
        sim_core::sweep::Grid::new(parsed, limit).map(SweepGrid).map_err(|e| JsError::new(&e))
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the grid has no point.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Point `index` as `[[path, value], …]` in axis order; `null` past the end.
    pub fn point(&self, index: usize) -> String {
        serde_json::json!(self.0.point(index)).to_string()
    }
}

/// A running simulation of either model.
#[wasm_bindgen]
pub struct Engine {
    sim: Model,
    /// The scenario JSON the simulation was built from, kept current by `set_param`.
    scenario: serde_json::Value,
    poisoned: bool,
    /// Sample rows taken by `stash_samples`, until `copy_samples` copies them out.
    stash: Vec<f64>,
}

impl Engine {
    fn guarded<T>(&mut self, f: impl FnOnce(&mut Model) -> T) -> Result<T, JsError> {
        if self.poisoned {
            return Err(JsError::new(
                "engine poisoned by an earlier internal error; reload the scenario",
            ));
        }
        match catch_unwind(AssertUnwindSafe(|| f(&mut self.sim))) {
            Ok(v) => Ok(v),
            Err(cause) => {
                self.poisoned = true;
                let msg = cause
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| cause.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                Err(JsError::new(&format!("internal engine error: {msg}")))
            }
        }
    }
}

#[wasm_bindgen]
impl Engine {
    /// Builds a simulation; throws the errors JSON of `validate_scenario` when invalid.
    #[wasm_bindgen(constructor)]
    pub fn new(json: &str) -> Result<Engine, JsError> {
        match catch_unwind(|| Model::from_json(json)) {
            Ok(Ok(sim)) => {
                let scenario = serde_json::from_str(json).expect("text that validated is JSON");
                Ok(Engine { sim, scenario, poisoned: false, stash: Vec::new() })
            }
            Ok(Err(errors)) => Err(JsError::new(&errors_json(&errors))),
            Err(_) => Err(JsError::new(&errors_json(&[ScenarioError::new(
                "",
                "internal error while building the scenario",
            )]))),
        }
    }

    /// Topology, ids, columns and scenario text as JSON.
    pub fn layout(&self) -> String {
        self.sim.layout().to_string()
    }

    /// Advances to `t_ms` handling at most `max_events`; true when `t_ms` was reached.
    pub fn run_until(&mut self, t_ms: f64, max_events: f64) -> Result<bool, JsError> {
        let deadline = SimTime::from_ms(if t_ms.is_finite() { t_ms } else { 0.0 });
        let budget = if max_events.is_finite() && max_events > 0.0 { max_events as u64 } else { 0 };
        self.guarded(|sim| sim.run_until(deadline, budget) == RunOutcome::Reached)
    }

    pub fn now_ms(&self) -> f64 {
        self.sim.now().as_ms()
    }

    /// Total events handled.
    pub fn events(&self) -> f64 {
        self.sim.events() as f64
    }

    /// Hash of every sample value so far (compare with `abrsim`'s `stats.series_hash`).
    pub fn series_hash(&self) -> String {
        self.sim.series_hash()
    }

    /// Cells the ABR sources have emitted (packet model: data packets the sources sent).
    pub fn source_cells(&self) -> f64 {
        self.sim.source_cells() as f64
    }

    /// Sample rows completed since the last call, flat and row-major.
    pub fn take_samples(&mut self) -> Vec<f64> {
        self.sim.take_samples()
    }

    /// Takes the sample rows completed since the last call, as `take_samples`, but keeps them
    /// until `copy_samples` copies them into a buffer the caller reuses; returns how many values
    /// they are. A new buffer per post of samples was garbage for the page to collect: tens of MB
    /// with 200 sources.
    pub fn stash_samples(&mut self) -> f64 {
        self.stash = self.sim.take_samples();
        self.stash.len() as f64
    }

    /// Copies the stashed rows into the start of `out` (as many values as fit).
    pub fn copy_samples(&self, out: &mut [f64]) {
        let n = self.stash.len().min(out.len());
        out[..n].copy_from_slice(&self.stash[..n]);
    }

    /// Live state: `[now_ms, acr per VC…, queue per port…]` (the packet model
    /// has no VCs: `[now_ms, queue packets per port…]`).
    pub fn frame(&self) -> Vec<f64> {
        self.sim.frame()
    }

    /// Cells (packet model: packets) on the links, rows of 7 (see
    /// `Simulation::cells_in_flight`, `IpSimulation::packets_in_flight`).
    pub fn cells_in_flight(&self, max: f64) -> Vec<f64> {
        let max = if max.is_finite() && max > 0.0 { max.min(1e6) as usize } else { 0 };
        self.sim.cells_in_flight(max)
    }

    /// One port's cells (packets) on its wire and in its queue, rows of 7
    /// (see `Simulation::port_cells`); empty for a port index out of range.
    pub fn port_cells(&self, port: f64, max: f64) -> Vec<f64> {
        let max = if max.is_finite() && max > 0.0 { max.min(1e5) as usize } else { 0 };
        if !(port.is_finite() && port >= 0.0) {
            return Vec::new();
        }
        self.sim.port_cells(port as usize, max)
    }

    /// Changes a parameter by path: `{"applied":"live"|"restart"}` or `{"error":{path,message}}`.
    pub fn set_param(&mut self, path: &str, value_json: &str) -> Result<String, JsError> {
        let Engine { sim, scenario, poisoned, .. } = self;
        if *poisoned {
            return Err(JsError::new(
                "engine poisoned by an earlier internal error; reload the scenario",
            ));
        }
        let result = sim.set_param(scenario, path, value_json);
        Ok(match result {
            Ok(Applied::Live) => serde_json::json!({"applied": "live"}),
            Ok(Applied::Restart) => serde_json::json!({"applied": "restart"}),
            Err(e) => serde_json::json!({"error": {"path": e.path, "message": e.message}}),
        }
        .to_string())
    }

    /// The scenario as edited so far (the text to rebuild from on restart).
    pub fn scenario_json(&self) -> String {
        self.scenario.to_string()
    }
}
