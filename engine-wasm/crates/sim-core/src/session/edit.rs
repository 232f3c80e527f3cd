//! The `set_param` pipeline, once for both models: a change by the `--set`
//! path grammar is applied to a copy of the scenario, validated, committed
//! only when valid, and then taken into the running simulation where the
//! model allows it. A refusal is the validation's first error (or the path's,
//! when the path itself is wrong). What a model decides is asked through
//! [`Editable`]: how far a change reaches (so that a change it can check in
//! part is not checked whole) and what it takes live.

use super::Applied;
use crate::scenario::{apply_set, ScenarioError};
use serde_json::Value;

/// What the `set_param` pipeline asks of a model's running simulation.
pub trait Editable {
    /// What a validation of the edited scenario yields for [`Editable::take`].
    type Checked;

    /// Whether the model's reader reads the envelope's `"model"` key; when it
    /// does not, the key is set aside while the model checks the edit.
    const READS_MODEL_KEY: bool;

    /// Validates the edited scenario as far as a change at `segments` (the
    /// path, split at its dots) reaches: the whole scenario, unless the model
    /// knows a narrower reach that stays valid on its own.
    fn check(&self, edited: &Value, segments: &[&str])
        -> Result<Self::Checked, Vec<ScenarioError>>;

    /// Takes a validated change at `segments` into the running simulation,
    /// or says that it needs a restart.
    fn take(&mut self, segments: &[&str], checked: Self::Checked) -> Applied;
}

/// Changes one parameter, by the `--set` path grammar, in `scenario` (the JSON
/// `sim` was built from) and, where the model allows it, in `sim`. On an error
/// `scenario` is left as it was.
pub fn set_param<M: Editable>(
    sim: &mut M,
    scenario: &mut Value,
    path: &str,
    raw: &str,
) -> Result<Applied, ScenarioError> {
    let mut edited = scenario.clone();
    let tag = if M::READS_MODEL_KEY {
        None
    } else {
        edited.as_object_mut().and_then(|m| m.remove("model"))
    };
    apply_set(&mut edited, path, raw)?;
    let segments: Vec<&str> = path.split('.').collect();
    let checked = sim.check(&edited, &segments).map_err(|errors| first(errors, path))?;
    if let (Some(tag), Some(map)) = (tag, edited.as_object_mut()) {
        map.insert("model".into(), tag);
    }
    *scenario = edited;
    Ok(sim.take(&segments, checked))
}

/// The first of a validation's errors (there is at least one).
fn first(errors: Vec<ScenarioError>, path: &str) -> ScenarioError {
    errors.into_iter().next().unwrap_or_else(|| ScenarioError::new(path, "invalid value"))
}
