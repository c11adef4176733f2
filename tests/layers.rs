//! Issue #26: imports run one way, downwards. Read from the source files as
//! text (the crate's top-level modules are the nodes, every `crate::…` path
//! an edge, comments left out):
//! * the report (host/report/) and its data model (host/facts/) reach no
//!   runtime layer, directly or through another module; host/facts/ reaches
//!   nothing but `stats` (item 5);
//! * the runtime layers (host/gpu/, host/opencl/, host/nvml/, host/cupti/)
//!   reach nothing built on them, and host/error.rs imports nothing of the crate (item 5);
//! * no experiment touches a programming model's types (buffers, timers,
//!   the OpenCL side, the driver): each asks its family's runners (item 2).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

mod source_tree;

use source_tree::{experiments_dir, host_dir, rust_files};

/// What the report layer and its data model may not reach.
const RUNTIME_AND_ABOVE: &[&str] = &["gpu", "opencl", "nvml", "cupti", "testbed", "launchers", "experiments"];

/// What the runtime layers may not reach: the layers built on them.
const ABOVE_THE_RUNTIME_LAYERS: &[&str] = &[
    "report",
    "experiments",
    "launchers",
    "testbed",
    "commands",
    "selftest",
    "merge",
];

/// All host/facts/ may reach besides itself: `stats` (min / median / max), which imports nothing.
const FACTS_MAY_REACH: &[&str] = &["stats"];

/// A programming model's types and handles, as they appear in an experiment's code.
const MODEL_TYPES: &[&str] = &[
    "cudarc",
    "DeviceBuffer",
    "ClBuffer",
    "CudaTimer",
    "OpenClTimer",
    "OpenClSide",
    ".gpu()",
];

/// The programming models' modules: an experiment naming one touches its types.
const MODEL_MODULES: &[&str] = &["gpu", "opencl"];

fn relative(path: &Path, dir: &Path) -> String {
    path.strip_prefix(dir)
        .expect("under the directory")
        .to_string_lossy()
        .replace('\\', "/")
}

/// `source` with every `//` comment (doc comments included) blanked out, lines kept in place.
/// A `//` inside a string literal cuts the rest of its line too: no import follows one.
fn without_comments(source: &str) -> String {
    source
        .lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the start of `text`.
fn leading_ident(text: &str) -> &str {
    let end = text.find(|c: char| !is_ident(c)).unwrap_or(text.len());
    &text[..end]
}

/// The crate's top-level modules that `code` (comments removed) names, each with the
/// 1-based line that names it: `crate::m…` and `crate::{m…, n…}` (across lines too).
fn crate_modules_named(code: &str) -> Vec<(String, usize)> {
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut named = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("crate::") {
        let at = from + found;
        from = at + "crate::".len();
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue; // `ptxsuite_crate::`, not this crate.
        }
        let rest = &code[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's first-level items: `{gpu::X, opencl, report::{A, B}}`.
            let mut depth = 1;
            let mut item_start = true;
            for (offset, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => item_start = true,
                    c if c.is_whitespace() => {}
                    _ if item_start && depth == 1 => {
                        item_start = false;
                        let name = leading_ident(&group[offset..]);
                        if !name.is_empty() && name != "self" {
                            named.push((name.to_string(), line_of(from + 1 + offset)));
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let name = leading_ident(rest);
            if !name.is_empty() {
                named.push((name.to_string(), line_of(at)));
            }
        }
    }
    named
}

/// The top-level module a file under host/ belongs to (`report` for host/report/x.rs and host/report.rs).
fn top_module(relative: &str) -> String {
    let first = relative.split('/').next().expect("a path");
    first.trim_end_matches(".rs").to_string()
}

/// Each top-level module's imports of the others, with where each is first named.
type ImportGraph = BTreeMap<String, BTreeMap<String, String>>;

fn import_graph() -> ImportGraph {
    let host = host_dir();
    let mut files = Vec::new();
    rust_files(&host, &mut files);
    assert!(
        files.len() > 100,
        "found only {} files under {}",
        files.len(),
        host.display()
    );
    let mut graph = ImportGraph::new();
    for path in files {
        let relative = relative(&path, &host);
        let module = top_module(&relative);
        let code = without_comments(&std::fs::read_to_string(&path).expect("a readable source file"));
        let edges = graph.entry(module.clone()).or_default();
        for (named, line) in crate_modules_named(&code) {
            // `crate::Error`, `crate::Result`: the crate root's re-exports of error.rs.
            let named = match named.as_str() {
                "Error" | "Result" => "error".to_string(),
                _ => named,
            };
            if named != module {
                edges.entry(named).or_insert_with(|| format!("host/{relative}:{line}"));
            }
        }
    }
    graph
}

/// Every module `start` reaches, each with the chain of imports that reaches it.
fn reachable(graph: &ImportGraph, start: &str) -> BTreeMap<String, Vec<String>> {
    let mut reached: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut queue = VecDeque::from([(start.to_string(), Vec::new())]);
    let mut seen = BTreeSet::from([start.to_string()]);
    while let Some((module, chain)) = queue.pop_front() {
        for (next, evidence) in graph.get(&module).into_iter().flatten() {
            if seen.insert(next.clone()) {
                let mut chain = chain.clone();
                chain.push(format!("{module} -> {next} ({evidence})"));
                reached.insert(next.clone(), chain.clone());
                queue.push_back((next.clone(), chain));
            }
        }
    }
    reached
}

/// The modules of `forbidden` that `start` reaches, each with its chain of imports.
fn reaches(graph: &ImportGraph, start: &str, forbidden: &[&str]) -> Vec<String> {
    reachable(graph, start)
        .into_iter()
        .filter(|(module, _)| forbidden.contains(&module.as_str()))
        .map(|(module, chain)| format!("{start} reaches {module}: {}", chain.join(", ")))
        .collect()
}

#[test]
fn the_import_reader_sees_every_form_and_skips_comments() {
    let code = without_comments(
        "use crate::gpu::DeviceBuffer;\n\
         //! see crate::testbed\n\
         use crate::{\n    opencl::ClBuffer,\n    report::{self, Axis}, stats,\n};\n\
         let x = crate::nvml::Nvml::open(); // crate::launchers\n\
         use other_crate::experiments;\n",
    );
    let named: Vec<(String, usize)> = crate_modules_named(&code);
    let names: Vec<(&str, usize)> = named.iter().map(|(n, l)| (n.as_str(), *l)).collect();
    assert_eq!(
        names,
        [("gpu", 1), ("opencl", 4), ("report", 5), ("stats", 5), ("nvml", 7)]
    );
    let mut graph = ImportGraph::new();
    graph
        .entry("report".into())
        .or_default()
        .insert("run_settings".into(), "a.rs:1".into());
    graph
        .entry("run_settings".into())
        .or_default()
        .insert("gpu".into(), "b.rs:2".into());
    let found = reaches(&graph, "report", &["gpu"]);
    assert_eq!(
        found,
        ["report reaches gpu: report -> run_settings (a.rs:1), run_settings -> gpu (b.rs:2)"]
    );
}

#[test]
fn the_report_and_its_facts_reach_no_runtime_layer() {
    let graph = import_graph();
    assert!(graph.contains_key("report") && graph.contains_key("facts"));
    let mut upward = reaches(&graph, "report", RUNTIME_AND_ABOVE);
    upward.extend(reaches(&graph, "facts", RUNTIME_AND_ABOVE));
    assert!(
        upward.is_empty(),
        "the report's data model belongs in host/facts/ or host/report/, filled in by the layers below: {}",
        upward.join("; ")
    );
}

#[test]
fn facts_reach_nothing_but_stats() {
    let graph = import_graph();
    let beyond: Vec<String> = reachable(&graph, "facts")
        .into_iter()
        .filter(|(module, _)| !FACTS_MAY_REACH.contains(&module.as_str()))
        .map(|(module, chain)| format!("facts reaches {module}: {}", chain.join(", ")))
        .collect();
    assert!(
        beyond.is_empty(),
        "host/facts/ is the shared types module that imports nothing: {}",
        beyond.join("; ")
    );
}

#[test]
fn the_runtime_layers_reach_nothing_built_on_them() {
    let graph = import_graph();
    let mut upward = Vec::new();
    for layer in ["gpu", "opencl", "nvml", "cupti"] {
        assert!(graph.contains_key(layer), "no module {layer}");
        upward.extend(reaches(&graph, layer, ABOVE_THE_RUNTIME_LAYERS));
    }
    assert!(
        upward.is_empty(),
        "host/gpu/, host/opencl/, host/nvml/ and host/cupti/ are pure runtime layers: {}",
        upward.join("; ")
    );
}

#[test]
fn the_error_type_imports_nothing_of_the_crate() {
    let graph = import_graph();
    let imports: Vec<String> = graph["error"]
        .iter()
        .map(|(module, evidence)| format!("{module} ({evidence})"))
        .collect();
    assert!(
        imports.is_empty(),
        "host/error.rs is under every layer (each converts its own errors into it): it imports {}",
        imports.join(", ")
    );
}

/// What of a programming model `code` (comments removed) touches.
fn model_types_touched(code: &str) -> Vec<String> {
    let mut touched: Vec<String> = crate_modules_named(code)
        .into_iter()
        .filter(|(module, _)| MODEL_MODULES.contains(&module.as_str()))
        .map(|(module, line)| format!("crate::{module} (line {line})"))
        .collect();
    touched.extend(
        MODEL_TYPES
            .iter()
            .filter(|name| code.contains(*name))
            .map(|name| name.to_string()),
    );
    touched
}

#[test]
fn the_model_types_reader_finds_imports_types_and_handles() {
    let touched = model_types_touched(&without_comments(
        "use crate::{gpu::Gpu, report::Axis};\nlet t = CudaTimer::new(ctx.device.gpu())?; // DeviceBuffer\n",
    ));
    assert_eq!(touched, ["crate::gpu (line 1)", "CudaTimer", ".gpu()"]);
    assert!(model_types_touched("use crate::launchers::{CopyRunner, copy_runners};\n").is_empty());
}

#[test]
fn experiments_touch_no_model_types() {
    let dir = experiments_dir();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(
        files.len() >= 40,
        "found only {} files under {}",
        files.len(),
        dir.display()
    );
    let mut touching = Vec::new();
    for path in &files {
        let relative = relative(path, &dir);
        let code = without_comments(&std::fs::read_to_string(path).expect("a readable source file"));
        let touched = model_types_touched(&code);
        if !touched.is_empty() {
            touching.push(format!("{relative}: {}", touched.join(", ")));
        }
    }
    assert!(
        touching.is_empty(),
        "an experiment asks its family's runners to allocate, fill, launch, time and read back \
         (host/launchers/), never a programming model's types: {}",
        touching.join("; ")
    );
}
