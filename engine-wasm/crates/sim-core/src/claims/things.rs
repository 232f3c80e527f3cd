//! A file's things to try judged against runs (scenarios/README.md, "Things to
//! try"): each thing's change (its variant or its `set`) is run once for all
//! its checks, and each run without a change (the file as it stands, or a
//! check's `base` variant) once for all the `base.` figures that read it. A
//! check's `totals.` is its own run length, so one longer shared run serves a
//! check that asks for a shorter one.

use super::expr::{Expr, WindowRef, BASE};
use super::{judge, run_tracked, Claim, Outcome, TrackedRun};
use crate::scenario::claims::checks::{read_checks, Check, ThingChecks};
use crate::scenario::{Limits, ScenarioError};
use serde_json::Value;

/// What a thing to try changes before its run.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Nothing,
    Variant(String),
    /// `(path, value as JSON text)`, the `--set` pairs.
    Set(Vec<(String, String)>),
}

/// A thing to try as its file states it.
#[derive(Clone, Debug)]
pub struct Thing {
    pub text: String,
    pub change: Change,
    pub checks: ThingChecks,
}

/// One check judged: the thing's index and sentence, the check, its outcome.
#[derive(Clone, Debug)]
pub struct CheckOutcome {
    pub thing: usize,
    pub check: Check,
    pub outcome: Outcome,
}

/// Reads a file's things to try after validating the whole file (either model).
pub fn file_things(text: &str) -> Result<Vec<Thing>, Vec<ScenarioError>> {
    crate::model::Model::validate(text)?;
    let value: Value = serde_json::from_str(text)
        .map_err(|e| vec![ScenarioError::new("", format!("not valid JSON: {e}"))])?;
    let variants = crate::scenario::claims::variant_ids(&value);
    let until_ms = value.pointer("/run/until_ms").and_then(Value::as_f64);
    let items = value.get("things_to_try").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut errors = Vec::new();
    let things = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let text = item.as_str().or_else(|| item.get("text")?.as_str()).unwrap_or("");
            let change = match (item.get("variant"), item.get("set")) {
                (Some(Value::String(v)), _) => Change::Variant(v.clone()),
                (_, Some(Value::Object(map))) => {
                    Change::Set(map.iter().map(|(k, v)| (k.clone(), v.to_string())).collect())
                }
                _ => Change::Nothing,
            };
            let at = format!("things_to_try[{i}]");
            let checks =
                read_checks(item.get("checks"), &at, text, &variants, until_ms, &mut errors);
            Thing { text: text.to_string(), change, checks }
        })
        .collect();
    if errors.is_empty() {
        Ok(things)
    } else {
        Err(errors)
    }
}

/// `expr` with every figure kept (`base` false) or only the `base.` ones,
/// stripped of the prefix (`base` true), and `totals.` read over `[0, until_ms]`
/// as window `totals_at`.
fn figures_of(expr: &Expr, base: bool, totals_at: usize) -> Vec<Expr> {
    let mut refs = Vec::new();
    expr.refs(&mut refs);
    refs.into_iter()
        .filter_map(|(w, f)| {
            let field = match f.strip_prefix(BASE) {
                Some(rest) if base => rest.to_string(),
                None if !base => f,
                _ => return None,
            };
            let w = if w == WindowRef::Totals { WindowRef::Index(totals_at) } else { w };
            Some(Expr::Ref(w, field))
        })
        .collect()
}

/// The check's run length and, for one of its two runs, a claim that reads
/// exactly the figures that run must give (for a tracker; never judged).
fn probe(check: &Check, file_until_ms: f64, base: bool) -> (f64, Claim) {
    let until = check.until_ms.unwrap_or(file_until_ms);
    let mut claim = check.claim.clone();
    let totals_at = claim.windows.len();
    claim.windows.push((0.0, until));
    claim.expr = Expr::Call(super::expr::Func::Max, figures_of(&check.claim.expr, base, totals_at));
    (until, claim)
}

/// One run for `probes` (run length, claim), with `change` applied.
fn run_for(
    text: &str,
    change: &Change,
    probes: &[(f64, Claim)],
    limits: &Limits,
    clock_ms: &dyn Fn() -> f64,
) -> Result<TrackedRun, Vec<ScenarioError>> {
    let until = probes.iter().map(|p| p.0).fold(0.0, f64::max);
    let mut opts =
        crate::runner::RunOptions { until_ms: Some(until), limits: *limits, ..Default::default() };
    match change {
        Change::Nothing => {}
        Change::Variant(v) => opts.variant = Some(v.clone()),
        Change::Set(sets) => opts.sets = sets.clone(),
    }
    let claims: Vec<Claim> = probes.iter().map(|p| p.1.clone()).collect();
    run_tracked(text, &opts, &claims, clock_ms)
}

/// Runs and judges every check of a file's things to try, in the file's order.
pub fn check_things(
    text: &str,
    limits: &Limits,
    clock_ms: &dyn Fn() -> f64,
) -> Result<Vec<CheckOutcome>, Vec<ScenarioError>> {
    let things = file_things(text)?;
    let file_until = serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.pointer("/run/until_ms").and_then(Value::as_f64))
        .unwrap_or(300.0);
    let checks: Vec<(usize, &Check)> = things
        .iter()
        .enumerate()
        .flat_map(|(i, t)| match &t.checks {
            ThingChecks::Checks(cs) => cs.iter().map(|c| (i, c)).collect(),
            _ => Vec::new(),
        })
        .collect();
    // The runs without a change, one per base, shared by every check that reads it.
    let mut bases: Vec<Option<String>> = Vec::new();
    for (_, c) in &checks {
        if !bases.contains(&c.base) {
            bases.push(c.base.clone());
        }
    }
    let mut base_runs = Vec::new();
    for base in &bases {
        let members: Vec<usize> =
            (0..checks.len()).filter(|&k| checks[k].1.base == *base).collect();
        let probes: Vec<_> =
            members.iter().map(|&k| probe(checks[k].1, file_until, true)).collect();
        let change = base.clone().map_or(Change::Nothing, Change::Variant);
        base_runs.push((members, run_for(text, &change, &probes, limits, clock_ms)?));
    }
    let mut out = Vec::new();
    for (i, thing) in things.iter().enumerate() {
        let members: Vec<usize> = (0..checks.len()).filter(|&k| checks[k].0 == i).collect();
        if members.is_empty() {
            continue;
        }
        let probes: Vec<_> =
            members.iter().map(|&k| probe(checks[k].1, file_until, false)).collect();
        let run = run_for(text, &thing.change, &probes, limits, clock_ms)?;
        for (slot, &k) in members.iter().enumerate() {
            let check = checks[k].1;
            let totals_at = check.claim.windows.len();
            let b = bases.iter().position(|b| *b == check.base).expect("every base was run");
            let (base_members, base_run) = &base_runs[b];
            let base_slot = base_members.iter().position(|&m| m == k).expect("a member");
            let value = check.claim.expr.eval(&|w, f| {
                let w = if w == WindowRef::Totals { WindowRef::Index(totals_at) } else { w };
                match f.strip_prefix(BASE) {
                    Some(f) => base_run.tracker.figure_of(base_slot, w, f, base_run.sample_ms),
                    None => run.tracker.figure_of(slot, w, f, run.sample_ms),
                }
            });
            out.push(CheckOutcome {
                thing: i,
                check: check.clone(),
                outcome: judge(&check.claim, value, true),
            });
        }
    }
    Ok(out)
}
