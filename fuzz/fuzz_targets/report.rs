//! Any bytes as a `report.json`: loading either refuses them with an error or
//! yields a report that renders (Markdown and every plot, in memory) and
//! compares against a real report both ways, without a panic or a hang.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ptxsuite::experiments;
use ptxsuite::report::{Report, comparison};

/// A real (trimmed) H100 report, schema v1: converted on load like any other.
const FIXTURE: &str = include_str!("../../tests/fixtures/report_v1_h100.json");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(report) = Report::from_json(text, "fuzz.json") else {
        return;
    };
    let hooks = |name: &str| experiments::hooks(name);
    let _ = report.render(&hooks);
    let fixture = Report::from_json(FIXTURE, "fixture.json").expect("the fixture loads");
    for (old, new) in [(&fixture, &report), (&report, &fixture), (&report, &report)] {
        let result = comparison::compare(old, new);
        let _ = comparison::markdown(old, new, &result, 0.05);
        let _ = comparison::summary(old, new, &result, 0.05);
    }
});
