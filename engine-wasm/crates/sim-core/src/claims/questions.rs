//! Predict-then-play questions judged on a run, by the same tracker as the
//! paper claims: a question's figure is a claim's metric over its windows, and
//! its value is compared with the paper's answer (a number's range, or the
//! choice whose range holds it). `abrsim check` has no part in them: they ask a
//! student, they do not record a reproduction.

use super::{Claim, Compare, Tolerance, Tracker};
use crate::scenario::lecture::{lecture_of, Question};
use crate::scenario::ScenarioError;
use serde_json::{json, Value};

/// The claim a question's figure is computed as (the tracker's unit of work).
fn as_claim(q: &Question) -> Claim {
    let windows: Vec<(f64, f64)> = q.windows.iter().map(|w| (w[0], w[1])).collect();
    Claim {
        id: q.id.clone(),
        quote: q.prompt.clone(),
        metric: q.metric.clone(),
        expr: super::expr::parse(&q.metric, windows.len()).expect("read_questions parsed it"),
        windows,
        variant: None,
        paper: q.answer.value.unwrap_or(0.0),
        unit: q.answer.unit.clone(),
        compare: Compare::Approx,
        tolerance: Tolerance::Abs(0.0),
        expected: true,
        reason: None,
    }
}

/// How a question stands against a run: its figure once due, whether that is
/// the paper's answer, and (for a choice) which choice the run's value picks.
pub fn question_json(q: &Question, value: Option<f64>, due: bool) -> Value {
    let value = value.filter(|v| due && v.is_finite());
    let a = &q.answer;
    let run_choice = value.and_then(|v| {
        a.choices.iter().position(|c| v >= c.range[0] - 1e-9 && v <= c.range[1] + 1e-9)
    });
    let agrees = value.map(|v| match (a.low, a.high, a.correct) {
        (Some(lo), Some(hi), _) => v >= lo - 1e-9 && v <= hi + 1e-9,
        (_, _, Some(c)) => run_choice == Some(c),
        _ => false,
    });
    json!({
        "id": q.id,
        "status": if due { "due" } else { "pending" },
        "value": value,
        "value_text": value.map_or_else(|| "—".to_string(), super::fmt_num),
        "run_choice": run_choice,
        "agrees_with_paper": agrees,
        "due_ms": q.due_ms,
    })
}

/// A scenario's questions against one run.
pub struct QuestionCheck {
    questions: Vec<Question>,
    columns: Vec<String>,
    until_ms: f64,
}

impl QuestionCheck {
    /// Reads the questions of `scenario_text` (validated whole first) and finds the
    /// columns their figures read among the run's `columns`.
    pub fn new(
        scenario_text: &str,
        columns: &[String],
    ) -> Result<QuestionCheck, Vec<ScenarioError>> {
        crate::model::Model::validate(scenario_text)?;
        let value: Value = serde_json::from_str(scenario_text)
            .map_err(|e| vec![ScenarioError::new("", format!("not valid JSON: {e}"))])?;
        let (_, questions) = lecture_of(&value)?;
        let until_ms = value.pointer("/run/until_ms").and_then(Value::as_f64).unwrap_or(300.0);
        let claims: Vec<Claim> = questions.iter().map(as_claim).collect();
        let probe = Tracker::new(&claims, columns).map_err(|errors| {
            errors
                .into_iter()
                .map(|e| ScenarioError::new(e.path.replacen("claims.", "questions.", 1), e.message))
                .collect::<Vec<_>>()
        })?;
        let mut names = vec!["t_ms".to_string()];
        names.extend(probe.columns_read().iter().map(|&i| columns[i].clone()));
        Ok(QuestionCheck { questions, columns: names, until_ms })
    }

    /// The columns `evaluate` takes, `t_ms` first.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// Every question's standing given the run's rows so far (flat, row-major,
    /// [`QuestionCheck::columns`] per row) at simulated time `now_ms`.
    pub fn evaluate(&self, rows: &[f64], now_ms: f64) -> Value {
        let sample_ms = super::live::sample_interval(rows, self.columns.len());
        let claims: Vec<Claim> = self.questions.iter().map(as_claim).collect();
        let mut tracker =
            Tracker::new(&claims, &self.columns).expect("the columns were found in new");
        tracker.feed(rows, sample_ms);
        let outcomes = tracker.evaluate(sample_ms, now_ms, self.until_ms);
        let list = self
            .questions
            .iter()
            .zip(outcomes)
            .map(|(q, o)| question_json(q, o.value, o.status != super::Status::Pending))
            .collect();
        Value::Array(list)
    }
}
