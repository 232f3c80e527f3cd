//! The engine's layers, checked from its source: no top-level module of
//! `sim-core/src` imports one that imports it back (directly or round a
//! longer cycle), the shared layers (`time`, `kernel`, `probe`, `scenario`,
//! `session`) import neither model, and inside every folder no module imports
//! a sibling that imports it back. A module's imports are the `crate::…`,
//! `super::…` and `self::…` paths in its files, comments aside; a name a
//! folder's `mod.rs` re-exports from one of its modules counts as that module.

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

/// The module path (`["cell", "sim", "build"]`) of a file under `src`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> =
        rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    if last != "mod.rs" && last != "lib.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// Expands a use-tree or path after its prefix (`cell::{net::Cell, sim}`) into paths.
fn expand(text: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut path = prefix;
    loop {
        while i < bytes.len() && bytes[i] == ' ' {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == '{' {
            i += 1;
            loop {
                let rest: String = bytes[i..].iter().collect();
                i += expand(&rest, path.clone(), out);
                while i < bytes.len() && (bytes[i] == ' ' || bytes[i] == '\n') {
                    i += 1;
                }
                match bytes.get(i) {
                    Some(',') => i += 1,
                    Some('}') => return i + 1,
                    _ => return i,
                }
                while i < bytes.len() && (bytes[i] == ' ' || bytes[i] == '\n') {
                    i += 1;
                }
                if bytes.get(i) == Some(&'}') {
                    return i + 1;
                }
            }
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == '_') {
            i += 1;
        }
        if i > start {
            path.push(bytes[start..i].iter().collect());
        }
        if bytes.get(i) == Some(&':') && bytes.get(i + 1) == Some(&':') {
            i += 2;
            continue;
        }
        out.push(path);
        return i;
    }
}

/// The absolute module paths a file at `module` refers to through `crate::`,
/// `super::` and `self::`.
fn paths_in(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(['c', 's']) {
        let before_ok = at == 0 || {
            let b = rest.as_bytes()[at - 1] as char;
            !(b.is_ascii_alphanumeric() || b == '_' || b == ':')
        };
        let tail = &rest[at..];
        // The module a file's own items live in (a `mod.rs` is its folder's module).
        let own: Vec<String> = module.to_vec();
        let parent = |n: usize| -> Vec<String> {
            let mut m = own.clone();
            for _ in 0..n {
                m.pop();
            }
            m
        };
        let mut start = None;
        if before_ok && tail.starts_with("crate::") {
            start = Some((Vec::new(), "crate::".len()));
        } else if before_ok && tail.starts_with("self::") {
            start = Some((own.clone(), "self::".len()));
        } else if before_ok && tail.starts_with("super::") {
            let mut n = 0;
            let mut len = 0;
            while tail[len..].starts_with("super::") {
                n += 1;
                len += "super::".len();
            }
            start = Some((parent(n), len));
        }
        match start {
            Some((prefix, len)) => {
                let used = expand(&tail[len..], prefix, &mut out);
                rest = &tail[len + used.max(1).min(tail.len() - len)..];
            }
            None => rest = &rest[at + 1..],
        }
    }
    out
}

/// Every folder of `src` (as a module path) → its modules → the sibling
/// modules they import.
fn folder_graphs() -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut texts = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src").to_path_buf();
        texts.push((module_path(&rel), fs::read_to_string(file).expect("readable")));
    }
    // Names a folder's own file re-exports from one of its modules: `pub use read::{a, b}`.
    let mut reexports: BTreeMap<(Vec<String>, String), String> = BTreeMap::new();
    for (module, text) in &texts {
        for line in text.lines().map(str::trim) {
            let Some(used) = line
                .strip_prefix("pub use ")
                .or_else(|| line.strip_prefix("pub(crate) use "))
                .or_else(|| line.strip_prefix("pub(super) use "))
            else {
                continue;
            };
            let mut paths = Vec::new();
            expand(used, Vec::new(), &mut paths);
            for p in paths.into_iter().filter(|p| p.len() >= 2) {
                let name = p.last().expect("a name").clone();
                reexports.insert((module.clone(), name), p[0].clone());
            }
        }
    }
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (module, text) in &texts {
        for target in paths_in(text, module) {
            // The deepest folder both sit in, and the two children of it they are under.
            let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common >= module.len() || common >= target.len() {
                continue; // one inside the other: a module and its own parts
            }
            let folder = module[..common].to_vec();
            let from = module[common].clone();
            let mut to = target[common].clone();
            if let Some(child) = reexports.get(&(folder.clone(), to.clone())) {
                to = child.clone();
            }
            if to != from {
                graphs.entry(folder).or_default().entry(from).or_default().insert(to);
            }
        }
    }
    // Keep only edges to modules of the folder (not to items of its own file).
    let modules: BTreeSet<(Vec<String>, String)> = texts
        .iter()
        .filter(|(m, _)| !m.is_empty())
        .map(|(m, _)| (m[..m.len() - 1].to_vec(), m[m.len() - 1].clone()))
        .collect();
    for (folder, graph) in graphs.iter_mut() {
        for deps in graph.values_mut() {
            deps.retain(|d| modules.contains(&(folder.clone(), d.clone())));
        }
        for name in graph.values().flatten().cloned().collect::<Vec<_>>() {
            graph.entry(name).or_default();
        }
    }
    graphs
}

#[test]
fn no_module_imports_a_sibling_that_imports_it_back() {
    let graphs = folder_graphs();
    assert!(graphs.contains_key(&vec!["cell".to_string(), "scenario".to_string()]), "{graphs:?}");
    let mut cycles = Vec::new();
    for (folder, graph) in &graphs {
        let mut seen = BTreeSet::new();
        for m in graph.keys() {
            if let Some(c) = cycle_from(graph, m) {
                let mut key: Vec<String> = c.clone();
                key.sort();
                key.dedup();
                if seen.insert(key) {
                    cycles.push(format!("{}/: {}", folder.join("/"), c.join(" → ")));
                }
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles inside folders:\n{}", cycles.join("\n"));
}

#[test]
fn the_folder_reader_resolves_relative_and_grouped_paths() {
    let module: Vec<String> = ["cell", "scenario", "links"].iter().map(|s| s.to_string()).collect();
    let text =
        "use super::read::Defaults;\nuse crate::cell::{net::Cell, sim::{a, b}};\n// super::vcs\n";
    let paths: Vec<String> = paths_in(text, &module).into_iter().map(|p| p.join("::")).collect();
    assert_eq!(
        paths,
        ["cell::scenario::read::Defaults", "cell::net::Cell", "cell::sim::a", "cell::sim::b"]
    );
}

#[test]
fn the_reader_sees_grouped_imports_and_skips_comments() {
    let text =
        "use crate::{kernel::Rng, time};\n// crate::cell in a comment\nlet x = crate::probe::f();";
    let names: Vec<String> = referenced(text).into_iter().collect();
    assert_eq!(names, ["kernel", "probe", "time"]);
}
