//! Issue #26: every experiment's `run` reads like the guide's procedure (plan,
//! allocate, measure each series, check, derive figures), its steps named
//! functions; a body longer than [`MAX_RUN_LINES`] fails this test.

mod source_tree;

use source_tree::{experiments_dir, rust_files};

/// The most lines an `Experiment::run` may span, its signature and closing brace included.
const MAX_RUN_LINES: usize = 80;

/// Files whose `run` is still longer, relative to host/experiments/ (to be shortened, then removed here).
/// Empty since issue #26 finished: every run is within the limit (a file named here must still be too long).
const ALLOWED_LONGER: &[&str] = &[];

const RUN_SIGNATURE: &str = "fn run(&self, ctx: &RunContext";

/// The line counts of every `run` body in `source`: from the signature's
/// line to the line closing its braces.
fn run_lengths(source: &str) -> Vec<usize> {
    let lines: Vec<&str> = source.lines().collect();
    let mut lengths = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        if !line.contains(RUN_SIGNATURE) {
            continue;
        }
        let mut depth = 0i64;
        let mut opened = false;
        for (offset, line) in lines[start..].iter().enumerate() {
            let mut declaration = false;
            for c in line.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    // The trait's declaration: no body.
                    ';' if !opened => declaration = true,
                    _ => {}
                }
            }
            if declaration {
                break;
            }
            if opened && depth <= 0 {
                lengths.push(offset + 1);
                break;
            }
        }
    }
    lengths
}

#[test]
fn the_counter_measures_a_body_from_signature_to_closing_brace() {
    let source = "impl Experiment for X {\n    fn run(&self, ctx: &RunContext<'_>) -> Result<R> {\n        let a = {\n            1\n        };\n        Ok(a)\n    }\n}\n";
    assert_eq!(run_lengths(source), [6]);
    assert!(run_lengths("fn other(&self) {}\n").is_empty());
    let declared = "pub trait Experiment {\n    fn run(&self, ctx: &RunContext<'_>) -> Result<R>;\n}\nfn f() {\n}\n";
    assert!(run_lengths(declared).is_empty(), "a declaration has no body");
}

#[test]
fn every_experiment_run_is_at_most_80_lines() {
    let dir = experiments_dir();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut too_long = Vec::new();
    let mut runs = 0;
    for path in &files {
        let relative = path
            .strip_prefix(&dir)
            .expect("under host/experiments")
            .to_string_lossy()
            .replace('\\', "/");
        let source = std::fs::read_to_string(path).expect("a readable source file");
        for lines in run_lengths(&source) {
            runs += 1;
            if lines > MAX_RUN_LINES && !ALLOWED_LONGER.contains(&relative.as_str()) {
                too_long.push(format!("{relative}: run is {lines} lines"));
            }
        }
    }
    assert!(
        runs >= 35,
        "found only {runs} Experiment::run bodies under {}",
        dir.display()
    );
    assert!(
        too_long.is_empty(),
        "Experiment::run longer than {MAX_RUN_LINES} lines (name its steps as functions): {}",
        too_long.join("; ")
    );
}

#[test]
fn the_allow_list_names_only_files_still_too_long() {
    let dir = experiments_dir();
    let shortened: Vec<&str> = ALLOWED_LONGER
        .iter()
        .copied()
        .filter(|file| {
            let source = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
            run_lengths(&source).iter().all(|&lines| lines <= MAX_RUN_LINES)
        })
        .collect();
    assert!(
        shortened.is_empty(),
        "these files' run is now within {MAX_RUN_LINES} lines: take them off ALLOWED_LONGER: {shortened:?}"
    );
}
