//! A thing to try's checks (scenarios/README.md, "Things to try"): what its
//! sentence predicts, stated in the claims' grammar beside the sentence, and
//! judged on the run with the thing's change applied. A figure prefixed
//! `base.` is read from the run without the change (the file as it stands, or
//! the variant named by `base`), so "the spike is several times smaller" is
//! `window.ports.l3.queue_max / base.window.ports.l3.queue_max` at most 0.33.
//! `"checks": null` marks a sentence that predicts nothing.

use super::{expr, read_compare, read_metric, read_tolerance, read_windows, Claim};
use crate::scenario::reader::{describe, Errors, Obj};
use crate::scenario::ScenarioError;
use serde_json::Value;

/// Most checks one thing to try may carry.
pub const MAX_CHECKS: usize = 8;

/// One prediction of a thing to try's sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The prediction as a claim: `paper` is the check's `value`, `quote` the
    /// sentence, `id` its path (`things_to_try[1].checks[0]`).
    pub claim: Claim,
    /// How long both runs last for this check (absent: the file's run).
    pub until_ms: Option<f64>,
    /// The variant the `base.` figures are read from (absent: the file as it stands).
    pub base: Option<String>,
}

/// What a thing to try says of its checks.
#[derive(Clone, Debug, PartialEq)]
pub enum ThingChecks {
    /// No `checks` key: nothing said (the library's test refuses this).
    Unmarked,
    /// `"checks": null`: the sentence predicts nothing a run could show.
    PredictsNothing,
    Checks(Vec<Check>),
}

/// Reads `checks` of the thing to try at `at` (`things_to_try[i]`). `sentence`
/// is its text, `variants` the file's variant ids, `until_ms` its run length
/// when known: a window must end within the check's run.
pub fn read_checks(
    value: Option<&Value>,
    at: &str,
    sentence: &str,
    variants: &[String],
    until_ms: Option<f64>,
    errors: &mut Errors,
) -> ThingChecks {
    let items = match value {
        None => return ThingChecks::Unmarked,
        Some(Value::Null) => return ThingChecks::PredictsNothing,
        Some(Value::Array(items)) if !items.is_empty() && items.len() <= MAX_CHECKS => items,
        Some(other) => {
            errors.push(ScenarioError::new(
                format!("{at}.checks"),
                format!(
                    "expected null (the sentence predicts nothing) or a list of 1–{MAX_CHECKS} \
                     checks, found {}",
                    describe(other)
                ),
            ));
            return ThingChecks::Unmarked;
        }
    };
    let mut out = Vec::new();
    for (j, item) in items.iter().enumerate() {
        let path = format!("{at}.checks[{j}]");
        let Some(mut obj) = Obj::new(item, &path, errors) else { continue };
        let before = errors.len();
        let own_until = obj.plain_number("until_ms", errors);
        if own_until.is_some_and(|u| u <= 0.0) {
            errors.push(ScenarioError::new(obj.at("until_ms"), "must be more than 0 ms"));
        }
        let windows = read_windows(&mut obj, own_until.or(until_ms), errors);
        let (metric, parsed) = read_metric(&mut obj, windows.len(), expr::parse_with_base, errors);
        let expected = obj.plain_number("value", errors);
        if obj.map.get("value").is_none() {
            errors.push(ScenarioError::new(obj.at("value"), "is required: the value predicted"));
        }
        let compare = read_compare(&mut obj, errors);
        let tolerance = read_tolerance(&mut obj, compare, errors);
        let base = obj.string("base", errors);
        if let Some(v) = base.as_ref().filter(|v| !variants.contains(v)) {
            errors.push(ScenarioError::new(
                obj.at("base"),
                format!("no variant '{v}' in this file (variants: {})", variants.join(", ")),
            ));
        }
        obj.finish(errors);
        if errors.len() > before {
            continue;
        }
        if let (Some(metric), Some(expr), Some(paper), Some(compare)) =
            (metric, parsed, expected, compare)
        {
            let claim = Claim {
                id: path,
                quote: sentence.to_string(),
                metric,
                expr,
                windows,
                variant: None,
                paper,
                unit: String::new(),
                compare,
                tolerance,
                expected: true,
                reason: None,
            };
            out.push(Check { claim, until_ms: own_until, base });
        }
    }
    ThingChecks::Checks(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> (ThingChecks, Vec<String>) {
        let mut errors = Vec::new();
        let variants = ["rm".to_string()];
        let got =
            read_checks(Some(&v), "things_to_try[2]", "S.", &variants, Some(300.0), &mut errors);
        (got, errors.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn a_check_is_a_claim_on_the_changed_run_with_base_figures() {
        let (got, errs) = read(json!([{"window": [100, 200], "until_ms": 200, "base": "rm",
            "metric": "window.ports.l3.queue_max / base.window.ports.l3.queue_max",
            "value": 0.33, "compare": "at_most"}]));
        assert!(errs.is_empty(), "{errs:?}");
        let ThingChecks::Checks(checks) = got else { panic!("{got:?}") };
        assert_eq!(checks[0].claim.id, "things_to_try[2].checks[0]");
        assert_eq!(checks[0].claim.bounds().1, 0.33);
        assert_eq!((checks[0].until_ms, checks[0].base.as_deref()), (Some(200.0), Some("rm")));
        let (none, errs) = read(Value::Null);
        assert_eq!((none, errs.len()), (ThingChecks::PredictsNothing, 0));
    }

    #[test]
    fn a_broken_check_is_refused_by_path() {
        let cases = [
            (json!([]), "things_to_try[2].checks: expected null"),
            (
                json!([{"metric": "totals.fairness"}]),
                "things_to_try[2].checks[0].value: is required",
            ),
            (json!([{"metric": "totals.x", "value": 1}]), "checks[0].tolerance: is required"),
            (
                json!([{"metric": "base.totals.x", "value": 1, "compare": "at_least", "base": "no"}]),
                "checks[0].base: no variant 'no'",
            ),
            (
                json!([{"window": [0, 250], "until_ms": 200, "metric": "window.x", "value": 1,
                     "compare": "at_most"}]),
                "checks[0].window: ends at 250 ms, after the run",
            ),
            (
                json!([{"metric": "totals.x", "value": 1, "compare": "at_most", "until_ms": 0}]),
                "checks[0].until_ms: must be more than 0",
            ),
            (
                json!([{"metric": "totals.x", "value": 1, "compare": "at_most", "paper": 1}]),
                "checks[0].paper",
            ),
        ];
        for (v, want) in cases {
            let (_, errs) = read(v.clone());
            assert!(errs.iter().any(|e| e.contains(want)), "{v}: {errs:?}");
        }
    }
}
