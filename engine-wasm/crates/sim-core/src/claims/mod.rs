//! Paper claims as data (scenarios/README.md, "Paper claims"): a scenario's `claims` list, read and
//! validated with the rest of the file, and evaluated over a run's sample rows.
//!
//! The same code judges a claim everywhere: `abrsim check` and the cargo test
//! feed a [`Tracker`] the rows of a headless run; the page feeds one (through
//! the wasm export) the rows of the run that is playing. A figure is the one
//! the runner's report gives over the same window (`vcs.<id>.acr_mbps` is the
//! mean of the sampled mean ACR, `ports.<id>.queue_max` the largest queue, …;
//! see [`tracker::resolve`]).

pub mod live;
pub mod questions;
pub mod things;
pub mod tracker;

pub use crate::scenario::claims::{
    expr, fmt_num, read_claims, Claim, Compare, Tolerance, MAX_CLAIMS, MAX_WINDOWS,
};
pub use live::LiveCheck;
pub use questions::QuestionCheck;
pub use tracker::Tracker;

use crate::scenario::ScenarioError;
use serde_json::{json, Value};

/// How one claim stands in one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Its windows have not passed yet.
    Pending,
    /// Expected to hold and holds.
    Held,
    /// Expected to hold and does not.
    Failing,
    /// Expected not to hold (with a reason) and does not.
    ExpectedFail,
    /// Expected not to hold, yet holds in this run: `expected` may be flipped.
    NowHolds,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Held => "held",
            Status::Failing => "failing",
            Status::ExpectedFail => "expected_fail",
            Status::NowHolds => "now_holds",
        }
    }
}

/// A claim judged against a run.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub value: Option<f64>,
    pub status: Status,
}

/// Judges a claim given its value (None: no value, e.g. an empty window).
pub fn judge(claim: &Claim, value: Option<f64>, due: bool) -> Outcome {
    if !due {
        return Outcome { value, status: Status::Pending };
    }
    let (lo, hi) = claim.bounds();
    const EPS: f64 = 1e-9;
    let holds = value.is_some_and(|v| v >= lo - EPS && v <= hi + EPS);
    let status = match (claim.expected, holds) {
        (true, true) => Status::Held,
        (true, false) => Status::Failing,
        (false, false) => Status::ExpectedFail,
        (false, true) => Status::NowHolds,
    };
    Outcome { value, status }
}

/// A claim and its outcome as JSON, for `abrsim check --json` and the page.
pub fn outcome_json(scenario: &str, claim: &Claim, outcome: &Outcome, due_ms: f64) -> Value {
    let (lo, hi) = claim.bounds();
    json!({
        "scenario": scenario,
        "id": claim.id,
        "quote": claim.quote,
        "metric": claim.metric,
        "windows": claim.windows.iter().map(|&(a, b)| json!([a, b])).collect::<Vec<_>>(),
        "variant": claim.variant,
        "paper": claim.paper,
        "paper_text": claim.paper_text(),
        "unit": claim.unit,
        "compare": claim.compare.as_str(),
        "low": lo.is_finite().then_some(lo),
        "high": hi.is_finite().then_some(hi),
        "value": outcome.value,
        "value_text": outcome.value.map_or_else(|| "—".to_string(), fmt_num),
        "holds": match outcome.status {
            Status::Pending => None,
            Status::Held | Status::NowHolds => Some(true),
            Status::Failing | Status::ExpectedFail => Some(false),
        },
        "expected": claim.expected,
        "reason": claim.reason,
        "status": outcome.status.as_str(),
        "due_ms": due_ms,
    })
}

/// A scenario file's id, variants and claims, read without building the run.
pub struct FileClaims {
    pub scenario: String,
    pub claims: Vec<Claim>,
    pub until_ms: f64,
}

/// Reads a scenario's claims after validating the whole file (either model).
pub fn file_claims(text: &str) -> Result<FileClaims, Vec<ScenarioError>> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| vec![ScenarioError::new("", format!("not valid JSON: {e}"))])?;
    crate::model::Model::validate(text)?;
    let variants = crate::scenario::claims::variant_ids(&value);
    let until_ms = value.pointer("/run/until_ms").and_then(Value::as_f64).unwrap_or(300.0);
    let mut errors = Vec::new();
    let claims = read_claims(value.get("claims"), &variants, Some(until_ms), &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(FileClaims {
        scenario: value.get("id").and_then(Value::as_str).unwrap_or("").to_string(),
        claims,
        until_ms,
    })
}

/// Runs every variant a file's claims need (one run per variant, shared by
/// its claims) and judges each claim. Results come in the file's order.
pub fn check_file(
    text: &str,
    limits: &crate::scenario::Limits,
    clock_ms: &dyn Fn() -> f64,
) -> Result<(FileClaims, Vec<Outcome>), Vec<ScenarioError>> {
    let file = file_claims(text)?;
    let mut outcomes: Vec<Option<Outcome>> = vec![None; file.claims.len()];
    let mut variants: Vec<Option<String>> = Vec::new();
    for c in &file.claims {
        if !variants.contains(&c.variant) {
            variants.push(c.variant.clone());
        }
    }
    for variant in variants {
        let members: Vec<usize> =
            (0..file.claims.len()).filter(|&i| file.claims[i].variant == variant).collect();
        let group: Vec<Claim> = members.iter().map(|&i| file.claims[i].clone()).collect();
        let opts = crate::runner::RunOptions {
            variant: variant.clone(),
            limits: *limits,
            ..Default::default()
        };
        let run = run_tracked(text, &opts, &group, clock_ms)?;
        let until_ms = run.until_ms.unwrap_or(file.until_ms);
        let (tracker, sample_ms) = (run.tracker, run.sample_ms);
        for (k, o) in tracker.evaluate(sample_ms, until_ms, until_ms).into_iter().enumerate() {
            outcomes[members[k]] = Some(o);
        }
    }
    Ok((file, outcomes.into_iter().map(|o| o.expect("every claim is in one group")).collect()))
}

/// A finished run's figures for some claims.
pub(crate) struct TrackedRun {
    pub tracker: Tracker,
    pub sample_ms: f64,
    /// The run's length as its report gives it.
    pub until_ms: Option<f64>,
}

/// Runs `text` with `opts` and keeps the figures `claims` read.
pub(crate) fn run_tracked(
    text: &str,
    opts: &crate::runner::RunOptions,
    claims: &[Claim],
    clock_ms: &dyn Fn() -> f64,
) -> Result<TrackedRun, Vec<ScenarioError>> {
    let applied = crate::runner::apply_options(text, opts)?;
    let sample_ms =
        applied.pointer("/run/sample_interval_ms").and_then(Value::as_f64).unwrap_or(0.5);
    let mut tracker: Option<Result<Tracker, Vec<ScenarioError>>> = None;
    let report = crate::runner::run_report(text, opts, clock_ms, &mut |src, rows| {
        let t = tracker.get_or_insert_with(|| Tracker::new(claims, src.columns()));
        if let Ok(t) = t {
            t.feed(rows, sample_ms);
        }
    })?;
    let tracker = match tracker {
        Some(t) => t?,
        None => Tracker::new(claims, &[])?,
    };
    Ok(TrackedRun { tracker, sample_ms, until_ms: report.get("until_ms").and_then(Value::as_f64) })
}
