//! The schema of a scenario's lecture: its narrated `stops` and predict-then-play `questions`
//! (read by `crate::scenario::lecture`, which also checks what a schema cannot say: ids that
//! exist, times within the run, a metric's grammar).

use super::{array_of, id, object, reference, text, tolerance, window};
use crate::scenario::lecture::{
    CHARTS, MAX_CHOICES, MAX_QUESTIONS, MAX_STOPS, MAX_TEXT, MAX_TITLE,
};
use serde_json::{json, Map, Value};

/// A string of 1 to `max` characters.
fn words(max: usize, description: &str) -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": max, "description": description})
}

pub(super) fn defs(defs: &mut Map<String, Value>) {
    defs.insert(
        "stop_view".into(),
        object(
            vec![
                ("selection", text("A node, link, VC, flow or background source id to select.")),
                ("chart", json!({"enum": CHARTS, "description": "The chart to bring forward."})),
                ("magnify", text("A port to magnify: a link id (a→b) or `<link id>:rev`.")),
            ],
            &[],
        ),
    );
    defs.insert(
        "stop".into(),
        object(
            vec![
                ("id", id()),
                (
                    "t_ms",
                    json!({"type": "number", "minimum": 0,
                           "description": "When the run pauses, ms (within the run)."}),
                ),
                ("title", words(MAX_TITLE, "The stop's heading.")),
                ("text", words(MAX_TEXT, "Its note: one or two sentences, citing the paper.")),
                ("view", reference("stop_view")),
            ],
            &["t_ms", "title", "text"],
        ),
    );
    defs.insert(
        "choice".into(),
        object(
            vec![
                ("text", words(MAX_TITLE, "The choice as the student reads it.")),
                (
                    "range",
                    json!({"type": "array", "items": {"type": "number"}, "minItems": 2,
                           "maxItems": 2,
                           "description": "[low, high]: the metric's values this choice stands for."}),
                ),
            ],
            &["text", "range"],
        ),
    );
    defs.insert(
        "answer".into(),
        object(
            vec![
                ("value", json!({"type": "number", "description": "The paper's number."})),
                ("tolerance", tolerance()),
                ("unit", text("Shown beside the numbers.")),
                (
                    "choices",
                    json!({"type": "array", "items": reference("choice"), "minItems": 2,
                           "maxItems": MAX_CHOICES}),
                ),
                (
                    "correct",
                    json!({"type": "integer", "minimum": 0,
                           "description": "The index of the paper's choice."}),
                ),
            ],
            &[],
        ),
    );
    defs.insert(
        "question".into(),
        object(
            vec![
                ("id", id()),
                ("prompt", words(MAX_TEXT, "The question put to the student before the window.")),
                ("window", window()),
                ("windows", array_of(window())),
                ("metric", text("A figure over a window, in the grammar of a claim's metric.")),
                ("answer", reference("answer")),
                (
                    "explanation",
                    words(MAX_TEXT, "Why the run gives what it gives, citing the paper."),
                ),
                ("before", text("The id of the stop the question is asked at.")),
            ],
            &["id", "prompt", "metric", "answer", "explanation"],
        ),
    );
}

/// The envelope's `stops` and `questions` lists.
pub(super) fn lists() -> [(&'static str, Value); 2] {
    [
        ("stops", json!({"type": "array", "items": reference("stop"), "maxItems": MAX_STOPS})),
        (
            "questions",
            json!({"type": "array", "items": reference("question"), "maxItems": MAX_QUESTIONS}),
        ),
    ]
}
