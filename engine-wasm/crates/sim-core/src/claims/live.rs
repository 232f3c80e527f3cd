//! Claims judged on a run that is playing (the page's About tab): which of a
//! scenario's claims the current settings answer, the few sample columns they
//! read, and their outcomes so far — pending until a claim's windows have passed.

use super::{outcome_json, Claim, Outcome, Status, Tracker};
use crate::scenario::{apply_variant, ScenarioError};
use serde_json::{json, Value};

/// A scenario's claims against one run.
pub struct LiveCheck {
    scenario: String,
    claims: Vec<Claim>,
    /// Whether the run's settings are the ones each claim is about.
    applies: Vec<bool>,
    until_ms: f64,
    /// `t_ms` and the columns the applicable claims read, in the order rows must give them.
    columns: Vec<String>,
}

/// The scenario without the keys that describe it rather than set it up.
fn settings(value: &Value) -> Value {
    let mut v = value.clone();
    if let Some(map) = v.as_object_mut() {
        for key in ["variants", "claims", "view", "explanation", "things_to_try", "title"] {
            map.remove(key);
        }
    }
    v
}

/// Whether applying variant `id` to `value` leaves its settings as they are.
fn in_effect(value: &Value, id: &str) -> bool {
    let mut applied = value.clone();
    apply_variant(&mut applied, id).is_ok() && settings(&applied) == settings(value)
}

/// The sample interval of flat rows `width` wide, read off their times (`t_ms` first), so rows
/// merged to a coarser interval are judged at that interval.
pub(crate) fn sample_interval(rows: &[f64], width: usize) -> f64 {
    match rows.len() / width {
        0 => 0.5,
        1 => rows[0],
        _ => rows[width] - rows[0],
    }
}

impl LiveCheck {
    /// Reads the claims of `scenario_text` (the scenario as it now runs) and
    /// finds the columns they read among the run's `columns`.
    pub fn new(scenario_text: &str, columns: &[String]) -> Result<LiveCheck, Vec<ScenarioError>> {
        let file = super::file_claims(scenario_text)?;
        let value: Value = serde_json::from_str(scenario_text).expect("file_claims parsed it");
        let variants: Vec<(String, bool)> = value
            .get("variants")
            .and_then(Value::as_array)
            .map(|vs| {
                vs.iter()
                    .filter_map(|v| {
                        let id = v.get("id")?.as_str()?;
                        let empty = v.get("set")?.as_object()?.is_empty();
                        Some((id.to_string(), empty))
                    })
                    .collect()
            })
            .unwrap_or_default();
        // The base settings hold unless a variant that changes something is in effect.
        let base = !variants.iter().any(|(id, empty)| !empty && in_effect(&value, id));
        let applies: Vec<bool> = file
            .claims
            .iter()
            .map(|c| match &c.variant {
                None => base,
                Some(id) => in_effect(&value, id),
            })
            .collect();
        let live: Vec<Claim> =
            file.claims.iter().zip(&applies).filter(|(_, a)| **a).map(|(c, _)| c.clone()).collect();
        let probe = Tracker::new(&live, columns)?;
        let mut names = vec!["t_ms".to_string()];
        names.extend(probe.columns_read().iter().map(|&i| columns[i].clone()));
        Ok(LiveCheck {
            scenario: file.scenario,
            claims: file.claims,
            applies,
            until_ms: file.until_ms,
            columns: names,
        })
    }

    /// The columns `evaluate` takes, `t_ms` first.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// Every claim's outcome given the run's rows so far (flat, row-major,
    /// [`LiveCheck::columns`] per row) at simulated time `now_ms`. The sample
    /// interval is read off the rows' times, so rows merged to a coarser
    /// interval are judged at that interval.
    pub fn evaluate(&self, rows: &[f64], now_ms: f64) -> Value {
        let sample_ms = sample_interval(rows, self.columns.len());
        let live: Vec<Claim> = self
            .claims
            .iter()
            .zip(&self.applies)
            .filter(|(_, a)| **a)
            .map(|(c, _)| c.clone())
            .collect();
        let mut tracker =
            Tracker::new(&live, &self.columns).expect("the columns were found in new");
        tracker.feed(rows, sample_ms);
        let mut judged = tracker.evaluate(sample_ms, now_ms, self.until_ms).into_iter();
        let list: Vec<Value> = self
            .claims
            .iter()
            .zip(&self.applies)
            .map(|(c, &applies)| {
                let due = c.due_ms(self.until_ms);
                if applies {
                    outcome_json(&self.scenario, c, &judged.next().expect("one per claim"), due)
                } else {
                    let mut v = outcome_json(
                        &self.scenario,
                        c,
                        &Outcome { value: None, status: Status::Pending },
                        due,
                    );
                    v["status"] = json!("other_variant");
                    v
                }
            })
            .collect();
        Value::Array(list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_claims_apply_only_when_the_variant_is_in_effect() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../scenarios/fahmy-rif.json"
        ))
        .unwrap();
        let columns: Vec<String> =
            ["t_ms", "vc.vc1.acr_mean", "vc.vc1.acr"].iter().map(|s| s.to_string()).collect();
        let check = LiveCheck::new(&text, &columns).unwrap();
        // fahmy-rif's base is RIF 1/16: its rif-1-16 claims apply, rif-1's do not.
        let out = check.evaluate(&[], 0.0);
        for c in out.as_array().unwrap() {
            let other = c["status"] == "other_variant";
            assert_eq!(other, c["variant"] == "rif-1", "{c}");
        }
        let mut v: Value = serde_json::from_str(&text).unwrap();
        apply_variant(&mut v, "rif-1").unwrap();
        let check = LiveCheck::new(&v.to_string(), &columns).unwrap();
        let out = check.evaluate(&[], 0.0);
        for c in out.as_array().unwrap() {
            let other = c["status"] == "other_variant";
            assert_eq!(other, c["variant"] != "rif-1", "{c}");
        }
    }
}
