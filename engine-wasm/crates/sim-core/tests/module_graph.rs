//! The engine's layers, checked from its source: no top-level module of
//! `sim-core/src` imports one that imports it back (directly or round a
//! longer cycle), and the shared layers (`time`, `kernel`, `probe`,
//! `scenario`, `session`) import neither model. A module's imports are the
//! `crate::NAME` paths in its files, comments aside.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `crate::NAME` a file refers to, comments left out (`use crate::{a, b}` too).
fn referenced(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or_default();
                for item in inner.split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        names.insert(name);
                    }
                }
            } else {
                let name: String =
                    rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        }
    }
    names
}

/// Top-level module → the other top-level modules it imports.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        let first = rel.components().next().expect("a path").as_os_str().to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let text = fs::read_to_string(&file).expect("readable source");
        let deps = graph.entry(module.clone()).or_default();
        deps.extend(referenced(&text).into_iter().filter(|d| *d != module));
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    graph
}

/// A cycle through `start`, if any, as the modules along it.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in &graph[&at] {
            if next == start {
                let mut cycle = path.clone();
                cycle.push(start.to_string());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let graph = module_graph();
    assert!(graph.contains_key("scenario") && graph.contains_key("cell"), "{graph:?}");
    let cycles: Vec<String> =
        graph.keys().filter_map(|m| cycle_from(&graph, m)).map(|c| c.join(" → ")).collect();
    assert!(cycles.is_empty(), "import cycles between top-level modules:\n{}", cycles.join("\n"));
}

#[test]
fn the_shared_layers_import_no_model() {
    let graph = module_graph();
    for layer in ["time", "kernel", "probe", "scenario", "session"] {
        let deps = &graph[layer];
        for model in ["cell", "ip", "model"] {
            assert!(!deps.contains(model), "{layer} imports {model}: {deps:?}");
        }
    }
}

#[test]
fn the_reader_sees_grouped_imports_and_skips_comments() {
    let text =
        "use crate::{kernel::Rng, time};\n// crate::cell in a comment\nlet x = crate::probe::f();";
    let names: Vec<String> = referenced(text).into_iter().collect();
    assert_eq!(names, ["kernel", "probe", "time"]);
}
