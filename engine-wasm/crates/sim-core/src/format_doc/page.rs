//! `docs/scenario-format.md`, written from the generated schema: one table per object of
//! the format, and the engine's limits.

use crate::scenario::Limits;
use serde_json::Value;

const INTRO: &str = "# Scenario format reference

Generated from the engine by `engine-wasm/crates/sim-core/src/format_doc.rs` — do not edit; run
`UPDATE_FORMAT_DOC=1 cargo test --release -p sim-core --lib format_doc` after changing the
registry or a reader. The same content as a JSON Schema is
[scenario-format.schema.json](scenario-format.schema.json). For what each part means, with
examples, see [scenarios/README.md](../scenarios/README.md); for how a file becomes a run, see
[architecture.md](architecture.md).

A scenario is one JSON object, for the cell model (`\"model\"` absent or `\"cell\"`) or the packet
model (`\"model\": \"ip\"`). Unknown keys are errors. Beyond what a table can say, the engine checks
that ids are unique and exist, that paths follow links, that windows end within the run, and the
limits at the end of this page; every problem is reported with its path.
";

/// The sections, in reading order, with their headings.
const SECTIONS: &[(&str, &str)] = &[
    ("cell_scenario", "Cell-model scenario (top level)"),
    ("cell_defaults", "Cell-model defaults (`defaults`)"),
    ("cell_node", "A cell-model node (`nodes[i]`)"),
    ("cell_link", "A cell-model link (`links[i]`)"),
    ("vc", "A VC (`vcs[i]`)"),
    ("vc_params", "VC defaults (`defaults.vc`)"),
    ("traffic", "Traffic (`vcs[i].traffic`, `vcs[i].reverse_traffic`)"),
    ("port", "A cell-model port (`defaults.switch_port`, `defaults.host_port`, `links[i].a_to_b`, `links[i].b_to_a`)"),
    ("algorithm", "A switch algorithm (`…algorithm`)"),
    ("background", "Background CBR/VBR source (`background[i]`)"),
    ("ip_scenario", "Packet-model scenario (top level)"),
    ("ip_defaults", "Packet-model defaults (`defaults`)"),
    ("ip_node", "A packet-model node (`nodes[i]`)"),
    ("ip_link", "A packet-model link (`links[i]`)"),
    ("flow", "A flow (`flows[i]`)"),
    ("tcp_params", "TCP defaults (`defaults.tcp`)"),
    ("udp_params", "UDP defaults (`defaults.udp`)"),
    ("ip_port", "A packet-model port (`defaults.router_port`, `defaults.host_port`, `links[i].a_to_b`, …)"),
    ("aqm", "An AQM (`…aqm`)"),
    ("run", "The run (`run`)"),
    ("variant", "A variant (`variants[i]`)"),
    ("thing_to_try", "A thing to try (`things_to_try[i]`)"),
    ("try_check", "A thing to try's check (`things_to_try[i].checks[j]`)"),
    ("claim", "A paper claim (`claims[i]`)"),
    ("stop", "A narrated stop (`stops[i]`)"),
    ("stop_view", "What a stop shows (`stops[i].view`)"),
    ("question", "A predict-then-play question (`questions[i]`)"),
    ("answer", "A question's answer (`questions[i].answer`)"),
    ("choice", "One choice of a question (`questions[i].answer.choices[j]`)"),
];

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn number(x: &Value) -> String {
    match x.as_f64() {
        Some(f) if f != 0.0 && f.abs() < 1.0 && (1.0 / f).fract() == 0.0 => {
            format!("1/{}", 1.0 / f)
        }
        Some(f) => format!("{f}"),
        None => x.to_string(),
    }
}

/// What values a property takes, in words.
fn values(s: &Value) -> String {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        let heading = SECTIONS.iter().find(|(n, _)| *n == name).map_or(name, |(_, h)| h);
        return format!("object: {}", heading.split(" (").next().unwrap_or(heading));
    }
    if let Some(c) = s.get("const") {
        return format!("`{c}`");
    }
    if let Some(options) = s.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = options
            .iter()
            .map(|o| if o.is_string() { format!("`{o}`") } else { number(o) })
            .collect();
        return names.join(", ");
    }
    let ty = s.get("type").and_then(Value::as_str).unwrap_or("any");
    match (s.get("minimum"), s.get("maximum")) {
        (Some(lo), Some(hi)) => format!("{ty}, {} … {}", number(lo), number(hi)),
        _ if ty == "array" => match s.get("items") {
            Some(item) => format!("array of {}", values(item)),
            None => "array".into(),
        },
        _ => ty.to_string(),
    }
}

fn table(out: &mut String, s: &Value) {
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    out.push_str("| key | values | default | meaning |\n| --- | --- | --- | --- |\n");
    for (key, p) in s["properties"].as_object().into_iter().flatten() {
        let default = p.get("default").map_or(
            if required.contains(&key.as_str()) { "required".into() } else { String::new() },
            number,
        );
        let meaning = p.get("description").and_then(Value::as_str).unwrap_or_default();
        out.push_str(&format!(
            "| `{key}` | {} | {} | {} |\n",
            cell(&values(p)),
            cell(&default),
            cell(meaning)
        ));
    }
}

pub fn markdown(schema: &Value) -> String {
    let mut out = String::from(INTRO);
    for (name, heading) in SECTIONS {
        let def = &schema["$defs"][name];
        out.push_str(&format!("\n## {heading}\n\n"));
        match def.get("anyOf").and_then(Value::as_array) {
            Some(branches) => {
                out.push_str("One of these (an object is told by its `kind`):\n");
                for b in branches {
                    match b.get("properties") {
                        Some(props) if props.get("kind").is_some() => {
                            let kind = values(&props["kind"]);
                            out.push_str(&format!("\n### `kind`: {kind}\n\n"));
                            table(&mut out, b);
                        }
                        Some(_) => {
                            out.push_str("\n### An object\n\n");
                            table(&mut out, b);
                        }
                        None => out.push_str("\n- a plain string, shown as it is\n"),
                    }
                }
            }
            None => table(&mut out, def),
        }
    }
    let limits = Limits::default().to_json();
    out.push_str("\n## Limits\n\nWhat a scenario may ask for by default (`abrsim --limit NAME=VALUE` raises one):\n\n| limit | value |\n| --- | --- |\n");
    for (k, v) in limits.as_object().into_iter().flatten() {
        out.push_str(&format!("| `{k}` | {} |\n", number(v)));
    }
    out
}
