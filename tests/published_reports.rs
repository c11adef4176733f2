//! README's "What it measured" traces to the reports published under
//! `docs/measured/`: every report it links loads as a report (and passes the
//! physical ceilings when checked anew), and every figure its table quotes
//! appears in one of those reports' report.md.

use std::path::{Path, PathBuf};

mod source_tree;

use source_tree::files_under;

use ptxsuite::experiments;
use ptxsuite::report::Report;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README's "What it measured" section.
fn measured_section() -> String {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let start = readme
        .find("## What it measured")
        .expect("README has a 'What it measured' section");
    let rest = &readme[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_string()
}

/// The report folders the section links (`docs/measured/.../report.md`).
fn linked_reports(section: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = section
        .match_indices("(docs/measured/")
        .filter_map(|(i, _)| {
            let link = &section[i + 1..];
            let link = &link[..link.find(')')?];
            link.ends_with("/report.md")
                .then(|| repo().join(link.trim_end_matches("report.md")))
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Every number written in `text`, whole (digits with at most one decimal point).
fn numbers(text: &str) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    let mut current = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_digit() || (c == '.' && !current.is_empty() && !current.contains('.')) {
            current.push(c);
        } else {
            out.insert(current.trim_end_matches('.').to_string());
            current.clear();
        }
    }
    out
}

/// The figures a table row quotes: numbers with a decimal point or of three digits and more.
fn figures(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in row.chars().chain([' ']) {
        if c.is_ascii_digit() || (c == '.' && !current.is_empty()) {
            current.push(c);
        } else {
            let number = current.trim_end_matches('.').to_string();
            if number.contains('.') || number.len() >= 3 {
                out.push(number);
            }
            current.clear();
        }
    }
    out
}

#[test]
fn every_figure_of_the_readme_table_is_in_a_published_report() {
    let section = measured_section();
    let reports = linked_reports(&section);
    assert!(
        reports.len() >= 2,
        "the section links the published reports: {reports:?}"
    );
    let mut texts = String::new();
    for dir in &reports {
        let md = std::fs::read_to_string(dir.join("report.md"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join("report.md").display()));
        texts.push_str(&md);
    }
    let published = numbers(&texts);
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| |"))
        .collect();
    assert!(rows.len() >= 10, "{rows:?}");
    let mut missing = Vec::new();
    for row in rows {
        let quoted = row.rsplit(" | ").next().unwrap_or(row);
        for figure in figures(quoted) {
            if !published.contains(&figure) {
                missing.push(format!("{figure} (in: {row})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "README figures in no published report: {missing:#?}"
    );
}

#[test]
fn the_published_reports_load_and_pass_their_ceilings() {
    for dir in linked_reports(&measured_section()) {
        let mut report = Report::load(&dir.join("report.json")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        assert_eq!(report.devices[0].name, "NVIDIA H100 80GB HBM3", "{}", dir.display());
        let failed = report.check_and_grade(&experiments::hooks);
        assert_eq!(failed, 0, "{}: figures past their ceilings", dir.display());
        assert!(!report.ledger.is_empty(), "{}: a ledger", dir.display());
    }
}

/// Every published report, linked from README or not (the node's, the H200's), loads as
/// `render` and `compare` load it: a name a run wrote must pass the loader's checks.
#[test]
fn every_published_report_loads() {
    let mut reports = Vec::new();
    let is_report = |path: &Path| path.file_name().is_some_and(|n| n == "report.json");
    files_under(&repo().join("docs/measured"), &is_report, &mut reports);
    assert!(reports.len() >= 10, "published reports found: {reports:?}");
    let failed: Vec<String> = reports
        .iter()
        .filter_map(|path| Report::load(path).err().map(|e| format!("{}: {e}", path.display())))
        .collect();
    assert!(failed.is_empty(), "published reports that do not load: {failed:#?}");
}

#[test]
fn figures_are_read_as_quoted() {
    assert_eq!(
        figures(" 2991 GB/s (89.2% of 3352); 16.09x"),
        ["2991", "89.2", "3352", "16.09"]
    );
    assert_eq!(figures("stride 32 at 4 KiB"), Vec::<String>::new());
}
