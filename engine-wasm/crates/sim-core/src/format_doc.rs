//! The scenario format as a JSON Schema and a reference page, generated from the engine:
//! every number's type, range, unit, default and help from the parameter registry, every
//! menu from the models' lists of choices, the shapes of the objects that hold them as the
//! readers walk them. Written to `docs/scenario-format.schema.json` and
//! `docs/scenario-format.md`; the test fails when the checked-in files differ from what the
//! engine generates, and `UPDATE_FORMAT_DOC=1 cargo test --release -p sim-core --lib format_doc`
//! rewrites them. A second test checks every library scenario against the schema, so the
//! shapes written here stay the ones the readers accept.

mod lecture;
mod page;
mod validate;

use crate::cell::scenario::{choices_json as cell_choices, params as cell_params};
use crate::cell::switch_alg::ALGORITHMS;
use crate::ip::aqm::AQMS;
use crate::ip::scenario::{choices_json as ip_choices, params as ip_params};
use crate::scenario::claims::checks::MAX_CHECKS;
use crate::scenario::registry::{Kind, ParamSpec, Registration, Scope, SHARED_PARAMS};
use crate::scenario::{FORMAT, VERSION};
use serde_json::{json, Map, Value};

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs");

/// Every registry entry of both models (the shared ones once).
fn registry() -> Vec<&'static ParamSpec> {
    let mut all: Vec<&'static ParamSpec> = cell_params::all().collect();
    all.extend(ip_params::all());
    all
}

fn entries(scope: Scope) -> Vec<&'static ParamSpec> {
    registry().into_iter().filter(|p| p.scope == scope).collect()
}

/// The schema of one registry entry: its type, range and help.
fn param_schema(p: &ParamSpec) -> Value {
    let mut s = Map::new();
    let unit = if p.unit.is_empty() { String::new() } else { format!(" ({})", p.unit) };
    s.insert("description".into(), json!(format!("{}{unit}. {}", p.label, p.doc)));
    match p.kind {
        Kind::Bool => {
            s.insert("type".into(), json!("boolean"));
        }
        Kind::PowerOfTwo | Kind::ZeroOrPowerOfTwo => {
            let mut values: Vec<f64> = Vec::new();
            if p.kind == Kind::ZeroOrPowerOfTwo {
                values.push(0.0);
            }
            let mut x = p.min;
            while x <= p.max {
                values.push(x);
                x *= 2.0;
            }
            s.insert("enum".into(), json!(values));
        }
        Kind::Integer | Kind::Real => {
            let ty = if p.kind == Kind::Integer { "integer" } else { "number" };
            s.insert("type".into(), json!(ty));
            s.insert("minimum".into(), json!(p.min));
            s.insert("maximum".into(), json!(p.max));
        }
    }
    if p.default.is_finite() {
        let default = if p.kind == Kind::Bool { json!(p.default != 0.0) } else { json!(p.default) };
        s.insert("default".into(), default);
    }
    Value::Object(s)
}

/// An object of fixed keys: `props` in order, `required` among them, nothing else.
fn object(props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let mut properties = Map::new();
    for (k, v) in props {
        properties.insert(k.to_string(), v);
    }
    let mut s = json!({"type": "object", "properties": properties, "additionalProperties": false});
    if !required.is_empty() {
        s["required"] = json!(required);
    }
    s
}

/// The registry entries of `scope` (those named in `only`, when given) as properties.
fn params(scope: Scope, only: Option<&[&str]>) -> Vec<(&'static str, Value)> {
    entries(scope)
        .into_iter()
        .filter(|p| only.is_none_or(|keys| keys.contains(&p.key)))
        .map(|p| (p.key, param_schema(p)))
        .collect()
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}")})
}

fn strings(of: &Value) -> Vec<String> {
    of.as_array().into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect()
}

fn one_of_strings(of: &Value, description: &str) -> Value {
    json!({"enum": strings(of), "description": description})
}

fn id() -> Value {
    json!({"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
           "description": "1–64 letters, digits, '-' or '_', unique within its list."})
}

fn label() -> Value {
    text("Shown on the page instead of the id.")
}

fn text(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

fn path(what: &str) -> Value {
    json!({"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 64,
           "description": format!("Node ids from the source host to the destination host, {what} between.")})
}

fn array_of(item: Value) -> Value {
    json!({"type": "array", "items": item})
}

/// The keys every scenario has, whichever model it is for.
fn envelope() -> Vec<(&'static str, Value)> {
    let mut keys = vec![
        ("format", json!({"const": FORMAT})),
        ("version", json!({"const": VERSION, "description": "The format version."})),
        ("id", text("The scenario's name.")),
        ("title", text("Its heading.")),
        ("paper", text("The paper and section it reproduces: authors, title, section, figure.")),
        ("explanation", text("What the paper saw and how this run compares, with figures.")),
        ("tags", array_of(json!({"type": "string", "minLength": 1, "maxLength": 40}))),
        ("run", reference("run")),
        ("things_to_try", array_of(reference("thing_to_try"))),
        ("variants", array_of(reference("variant"))),
        ("claims", array_of(reference("claim"))),
        (
            "view",
            json!({"type": "object", "description": "The page's view; the engine ignores it."}),
        ),
    ];
    keys.extend(lecture::lists());
    keys
}

/// A claim's or a question's window: `[from_ms, to_ms]`.
fn window() -> Value {
    json!({"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
           "description": "[from_ms, to_ms], ending within the run."})
}

/// How far from the paper's value a run's value may be: `{abs}` or `{rel}`.
fn tolerance() -> Value {
    json!({"anyOf": [object(vec![("abs", json!({"type": "number"}))], &["abs"]),
                     object(vec![("rel", json!({"type": "number"}))], &["rel"])]})
}

fn shared_defs(defs: &mut Map<String, Value>) {
    let run: Vec<_> = SHARED_PARAMS
        .iter()
        .filter(|p| p.scope == Scope::Run)
        .map(|p| (p.key, param_schema(p)))
        .collect();
    defs.insert("run".into(), object(run, &[]));
    let set = json!({"type": "object", "description":
        "Dotted paths (the --set grammar: array elements by id or index, no '*') to values."});
    defs.insert(
        "variant".into(),
        object(
            vec![("id", id()), ("label", text("Shown in the menu.")), ("set", set.clone())],
            &["id", "set"],
        ),
    );
    let window = window();
    let tolerance = tolerance();
    let compare = json!({"enum": ["approx", "at_most", "at_least"], "default": "approx"});
    let checks = json!({"description": format!(
        "What the sentence predicts: 1–{MAX_CHECKS} checks, or null when it predicts nothing \
         a run could show."), "anyOf": [
        {"type": "null", "description": "The sentence predicts nothing a run could show."},
        {"type": "array", "items": reference("try_check"), "minItems": 1, "maxItems": MAX_CHECKS}]});
    let thing = object(
        vec![
            ("text", text("The suggestion.")),
            ("variant", text("One of the file's variants, applied by 'Try it'.")),
            ("set", set),
            ("checks", checks),
        ],
        &["text"],
    );
    defs.insert("thing_to_try".into(), json!({"anyOf": [{"type": "string"}, thing]}));
    defs.insert(
        "try_check".into(),
        object(
            vec![
                ("window", window.clone()),
                ("windows", array_of(window.clone())),
                (
                    "metric",
                    text(
                        "As a claim's metric, judged on the run with the thing's change; a figure \
                         prefixed `base.` is read from the run without it.",
                    ),
                ),
                (
                    "value",
                    json!({"type": "number", "description": "The value the sentence predicts."}),
                ),
                ("compare", compare.clone()),
                ("tolerance", tolerance.clone()),
                (
                    "until_ms",
                    json!({"type": "number", "exclusiveMinimum": 0,
                           "description": "How long both runs last (default: the file's run)."}),
                ),
                (
                    "base",
                    text(
                        "The variant base. figures are read from (default: the file as it stands).",
                    ),
                ),
            ],
            &["metric", "value"],
        ),
    );
    defs.insert(
        "claim".into(),
        object(
            vec![
                ("id", id()),
                (
                    "quote",
                    text("What the paper says, quoted, with the authors, title and section."),
                ),
                ("window", window.clone()),
                ("windows", array_of(window)),
                ("metric", text("A figure over a window, or arithmetic over such figures.")),
                ("variant", text("The variant of the file the claim is about.")),
                ("paper", json!({"type": "number", "description": "The paper's value."})),
                ("compare", compare),
                ("tolerance", tolerance),
                ("unit", text("Shown beside the value.")),
                ("expected", json!({"type": "boolean", "default": true})),
                ("reason", text("Why the model does not meet the paper, when expected is false.")),
            ],
            &["id", "quote", "metric", "paper"],
        ),
    );
}

/// A link whose ports are `port`s; the packet model's links may carry a label too.
fn link(port: &str, labelled: bool) -> Value {
    let mut props = vec![("id", id()), ("a", text("A node id.")), ("b", text("A node id."))];
    if labelled {
        props.push(("label", label()));
    }
    props.extend(params(Scope::Link, None));
    props.push(("a_to_b", reference(port)));
    props.push(("b_to_a", reference(port)));
    object(props, &["id", "a", "b", "rate_mbps"])
}

fn node(kinds: Value) -> Value {
    object(
        vec![
            ("id", id()),
            ("kind", json!({"enum": kinds})),
            ("x", json!({"type": "number"})),
            ("y", json!({"type": "number"})),
            ("label", json!({"type": "string"})),
        ],
        &["id", "kind"],
    )
}

fn cell_defs(defs: &mut Map<String, Value>) {
    let choices = cell_choices();
    // The recipe's worked example is registered in the unit tests only: not part of the format.
    let example = <crate::cell::switch_alg::half_rate::HalfRateConfig as Registration>::KINDS;
    let algorithms: Vec<Value> = ALGORITHMS
        .iter()
        .filter(|a| a.kinds != example)
        .map(|a| {
            let mut props = vec![("kind", json!({"enum": a.kinds}))];
            props.extend(a.params.iter().map(|p| (p.key, param_schema(p))));
            object(props, &["kind"])
        })
        .collect();
    defs.insert("algorithm".into(), json!({"anyOf": algorithms}));
    let mut port = params(Scope::Port, None);
    port.push(("queue", one_of_strings(&choices["queues"], "How the port serves its queue.")));
    port.push(("algorithm", reference("algorithm")));
    defs.insert("port".into(), object(port, &[]));
    let traffic: Vec<Value> = choices["traffic_keys"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(kind, keys)| {
            let keys = strings(keys);
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            let mut props = vec![("kind", json!({"const": kind}))];
            props.extend(params(Scope::Traffic, Some(&keys)));
            object(props, &["kind"])
        })
        .collect();
    defs.insert("traffic".into(), json!({"anyOf": traffic}));
    defs.insert("vc_params".into(), object(params(Scope::Vc, None), &[]));
    let mut vc = vec![("id", id()), ("label", label()), ("path", path("switches"))];
    vc.extend(params(Scope::Vc, None));
    vc.push(("traffic", reference("traffic")));
    vc.push(("reverse_traffic", reference("traffic")));
    vc.push(("startup", one_of_strings(&choices["startup"], "The start-up option.")));
    vc.push((
        "bidirectional",
        json!({"type": "boolean", "default": false,
               "description": "The destination sends back too, with its own RM loop (`<id>:rev`)."}),
    ));
    defs.insert("vc".into(), object(vc, &["id", "path"]));
    let mut background = vec![
        ("id", id()),
        ("label", label()),
        ("kind", one_of_strings(&choices["background"], "Constant or square-wave.")),
        ("path", path("switches")),
    ];
    background.extend(params(Scope::Background, None));
    defs.insert("background".into(), object(background, &["id", "kind", "path", "rate_mbps"]));
    let mut top = envelope();
    top.push(("model", json!({"const": "cell", "description": "Absent or \"cell\"."})));
    let defaults = vec![
        ("vc", reference("vc_params")),
        ("switch_port", reference("port")),
        ("host_port", reference("port")),
    ];
    defs.insert("cell_defaults".into(), object(defaults, &[]));
    top.push(("defaults", reference("cell_defaults")));
    defs.insert("cell_node".into(), node(json!(["host", "switch"])));
    defs.insert("cell_link".into(), link("port", false));
    top.push(("nodes", array_of(reference("cell_node"))));
    top.push(("links", array_of(reference("cell_link"))));
    top.push(("vcs", array_of(reference("vc"))));
    top.push(("background", array_of(reference("background"))));
    defs.insert("cell_scenario".into(), object(top, &["format", "version", "nodes", "links"]));
}

fn ip_defs(defs: &mut Map<String, Value>) {
    let choices = ip_choices();
    let class_keys = ["c", "d", "f_min_mbps", "f_max_mbps"];
    let class = object(params(Scope::Bat, Some(&class_keys)), &[]);
    let aqms: Vec<Value> = AQMS
        .iter()
        .map(|a| {
            let mut props = vec![("kind", json!({"enum": a.kinds}))];
            props.extend(a.params.iter().map(|p| (p.key, param_schema(p))));
            if !a.params.is_empty() {
                props.push((
                    "grouping",
                    one_of_strings(
                        &choices["grouping"],
                        "BAT flows: one per class or one per IP flow.",
                    ),
                ));
                props.push(("tcp", class.clone()));
                props.push(("udp", class.clone()));
                props.push((
                    "flows",
                    json!({"type": "object", "additionalProperties": class.clone(),
                    "description": "Per-flow settings by flow id (with grouping \"flow\")."}),
                ));
                props.push(("clcc", object(params(Scope::Clcc, None), &[])));
            }
            object(props, &["kind"])
        })
        .collect();
    defs.insert("aqm".into(), json!({"anyOf": aqms}));
    let mut port = params(Scope::IpPort, None);
    port.push(("aqm", reference("aqm")));
    defs.insert("ip_port".into(), object(port, &[]));
    let mut tcp = params(Scope::IpFlow, None);
    tcp.extend(params(Scope::Tcp, None));
    defs.insert("tcp_params".into(), object(tcp, &[]));
    defs.insert("udp_params".into(), object(params(Scope::IpFlow, None), &[]));
    let mut flow = vec![
        ("id", id()),
        ("label", label()),
        ("kind", one_of_strings(&choices["flows"], "TCP NewReno or UDP CBR.")),
        ("path", path("routers")),
        ("rtt_spread", one_of_strings(&choices["rtt_spread"], "How a group's RTTs spread.")),
    ];
    flow.extend(params(Scope::IpFlow, None));
    flow.extend(params(Scope::Tcp, None));
    defs.insert("flow".into(), object(flow, &["id", "kind", "path"]));
    let mut top = envelope();
    top.push(("model", json!({"const": "ip"})));
    let defaults = vec![
        ("tcp", reference("tcp_params")),
        ("udp", reference("udp_params")),
        ("router_port", reference("ip_port")),
        ("host_port", reference("ip_port")),
    ];
    defs.insert("ip_defaults".into(), object(defaults, &[]));
    top.push(("defaults", reference("ip_defaults")));
    defs.insert("ip_node".into(), node(json!(["host", "router"])));
    defs.insert("ip_link".into(), link("ip_port", true));
    top.push(("nodes", array_of(reference("ip_node"))));
    top.push(("links", array_of(reference("ip_link"))));
    top.push(("flows", array_of(reference("flow"))));
    defs.insert(
        "ip_scenario".into(),
        object(top, &["format", "version", "model", "nodes", "links"]),
    );
}

/// The whole schema.
pub fn schema() -> Value {
    let mut defs = Map::new();
    shared_defs(&mut defs);
    lecture::defs(&mut defs);
    cell_defs(&mut defs);
    ip_defs(&mut defs);
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ABR Lab scenario",
        "description": "Generated from the engine's registry (engine-wasm/crates/sim-core/src/format_doc.rs); the engine's own validation also checks what a schema cannot say (ids that exist, paths joined by links, limits).",
        "anyOf": [reference("cell_scenario"), reference("ip_scenario")],
        "$defs": defs,
    })
}

fn check_or_write(file: &str, fresh: &str) {
    let path = format!("{DOCS}/{file}");
    if std::env::var_os("UPDATE_FORMAT_DOC").is_some() {
        std::fs::write(&path, fresh).expect("write the generated format reference");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == fresh,
        "docs/{file} is out of date with the engine's registry; run \
         UPDATE_FORMAT_DOC=1 cargo test --release -p sim-core --lib format_doc"
    );
}

#[test]
fn the_checked_in_format_reference_matches_the_engine() {
    let schema = schema();
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serialises");
    text.push('\n');
    check_or_write("scenario-format.schema.json", &text);
    check_or_write("scenario-format.md", &page::markdown(&schema));
}

#[test]
fn every_library_scenario_is_valid_under_the_schema() {
    let schema = schema();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scenarios");
    let mut checked = 0;
    let mut broken = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the scenarios folder") {
        let file = entry.expect("an entry").path();
        if file.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).expect("readable"))
            .expect("library files parse");
        let errors = validate::errors(&schema, &schema, &doc, "");
        if !errors.is_empty() {
            broken.push(format!("{}: {errors:#?}", file.display()));
        }
        checked += 1;
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(checked >= 20, "only {checked} library files found");
}

#[test]
fn the_schema_refuses_what_the_engine_refuses() {
    let schema = schema();
    let base: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../scenarios/two-source-wan.json"
    )))
    .expect("parses");
    let refused = |edit: &dyn Fn(&mut Value)| {
        let mut doc = base.clone();
        edit(&mut doc);
        let by_schema = !validate::errors(&schema, &schema, &doc, "").is_empty();
        let by_engine = crate::model::Model::validate(&doc.to_string()).is_err();
        (by_schema, by_engine)
    };
    for (what, edit) in [
        (
            "an unknown key",
            &(|d: &mut Value| d["vcs"][0]["colour"] = json!("red")) as &dyn Fn(&mut Value),
        ),
        ("a RIF not a power of two", &|d: &mut Value| d["vcs"][0]["rif"] = json!(0.3)),
        ("an unknown algorithm", &|d: &mut Value| {
            d["defaults"]["switch_port"]["algorithm"] = json!({"kind": "fastest"})
        }),
        ("an ERICA knob out of range", &|d: &mut Value| {
            d["defaults"]["switch_port"]["algorithm"]["target_utilization"] = json!(7)
        }),
        ("a traffic key of another model", &|d: &mut Value| {
            d["vcs"][0]["traffic"]["on_ms"] = json!(5)
        }),
    ] {
        assert_eq!(refused(edit), (true, true), "{what}");
    }
}
