//! Any bytes as a `report.json`: loading either refuses them with an error or
//! yields a report that renders (Markdown and every plot, in memory), whose
//! pair matrices render on their own, that compares against a real report
//! both ways and merges with it, without a panic, a hang or an allocation
//! beyond what the input declares. What renders must hold no NaN or infinity
//! and, in its SVG files, no character XML cannot hold.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ptxsuite::experiments;
use ptxsuite::report::{Report, comparison, has_nonfinite, pair_gpus, pair_matrix, pair_matrix_markdown};

/// A real (trimmed) H100 report, schema v1: converted on load like any other.
const FIXTURE: &str = include_str!("../../tests/fixtures/report_v1_h100.json");

/// Whether XML 1.0 can hold `c` (its `Char` production).
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(report) = Report::from_json(text, "fuzz.json") else {
        return;
    };
    let hooks = |name: &str| experiments::hooks(name);
    // JSON has no NaN or infinity: such a word in the input is in a text, which may show it.
    let figures_only = !has_nonfinite(text);
    if let Ok(rendered) = report.render(&hooks) {
        for (name, text) in &rendered.files {
            assert!(!figures_only || !has_nonfinite(text), "{name} shows NaN or infinity");
            if name.ends_with(".svg") {
                assert!(text.chars().all(xml_char), "{name} holds a character XML cannot hold");
            }
        }
    }
    for result in &report.experiments {
        for series in &result.series {
            let gpus = pair_gpus(series);
            if !gpus.is_empty() {
                assert!(gpus.len() <= report.devices.len(), "a matrix larger than the GPUs declared");
                let _ = pair_matrix(series, &gpus);
                let _ = pair_matrix_markdown(series, &gpus, &|_, _| None);
            }
        }
    }
    let fixture = Report::from_json(FIXTURE, "fixture.json").expect("the fixture loads");
    for (old, new) in [(&fixture, &report), (&report, &fixture), (&report, &report)] {
        let result = comparison::compare(old, new);
        let _ = comparison::markdown(old, new, &result, 0.05);
        let _ = comparison::summary(old, new, &result, 0.05);
    }
    let mut other = fixture.clone();
    other.host = format!("{}-other", report.host);
    if let Ok(merged) = ptxsuite::merge::merge(&[("a.json".into(), report), ("b.json".into(), other)], 5.0) {
        let _ = ptxsuite::merge::markdown(&merged);
        let _ = ptxsuite::merge::summary(&merged);
    }
});
