//! What a reader sees of a full run, judged on synthetic reports shaped like
//! real ones (tests/synthetic_reports/full_run.rs): the plots' axes, panels
//! and legends, and report.md's order. `PTXSUITE_PLOTS_DIR=dir cargo test
//! --test report_readability` also writes the files there to look at.

mod synthetic_reports;

use ptxsuite::experiments;
use ptxsuite::report::Report;
use synthetic_reports::full_run::{h100_full_run, node_of_four};

fn hooks(name: &str) -> Option<&'static dyn ptxsuite::report::SectionHooks> {
    experiments::hooks(name)
}

/// The report's files, loaded back from JSON as `render` would, and written to
/// `$PTXSUITE_PLOTS_DIR/<folder>` when that is set.
fn rendered(report: &Report, folder: &str) -> Vec<(String, String)> {
    let report = Report::from_json(&report.to_json(), "synthetic.json").expect("a synthetic report loads");
    let rendered = report.render(&hooks).expect("it renders");
    if let Some(dir) = std::env::var_os("PTXSUITE_PLOTS_DIR") {
        let dir = std::path::Path::new(&dir).join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("report.json"), report.to_json()).unwrap();
        for (name, text) in &rendered.files {
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    rendered.files
}

fn file<'a>(files: &'a [(String, String)], name: &str) -> &'a str {
    &files
        .iter()
        .find(|f| f.0 == name)
        .unwrap_or_else(|| panic!("{name} in {:?}", files.iter().map(|f| &f.0).collect::<Vec<_>>()))
        .1
}

#[test]
fn the_full_run_renders() {
    let files = rendered(&h100_full_run(), "h100");
    assert!(files.len() > 10);
    let files = rendered(&node_of_four(), "node");
    assert!(file(&files, "peer.svg").contains(">src 3<"));
}

fn plots(report: &Report) -> Vec<(String, ptxsuite::report::PlotSpec)> {
    let mut all = Vec::new();
    for result in &report.experiments {
        if let Some(spec) = ptxsuite::report::main_plot(result, report, &hooks) {
            all.push((result.name.clone(), spec));
        }
        if let Some(h) = hooks(&result.name) {
            all.extend(
                h.extra_plots(result, report)
                    .into_iter()
                    .map(|s| (result.name.clone(), s)),
            );
        }
    }
    all
}

#[test]
fn every_x_axis_says_its_unit_or_names_its_cases() {
    use ptxsuite::report::XTicks;
    for report in [h100_full_run(), node_of_four()] {
        for (name, spec) in plots(&report) {
            if !spec.heat_maps.is_empty() {
                continue;
            }
            let named = !matches!(spec.x_ticks, XTicks::Numbers);
            assert!(
                named || spec.x_label.contains(" ("),
                "{name}: the x axis {:?} has no unit",
                spec.x_label
            );
        }
    }
}

#[test]
fn transfers_split_by_direction_with_the_link_on_the_pcie_panels() {
    let report = h100_full_run();
    let transfers = report.experiments.iter().find(|e| e.name == "transfers").unwrap();
    assert_eq!(transfers.series.len(), 13);
    let spec = ptxsuite::report::main_plot(transfers, &report, &hooks).unwrap();
    let titles: Vec<&str> = spec.panels.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(titles, ["host → device", "device → host", "device ↔ device"]);
    let references: Vec<usize> = spec.panels.iter().map(|p| p.reference_lines.len()).collect();
    assert_eq!(references, [1, 1, 0], "the PCIe link on the PCIe panels only");
    assert!(spec.panels.iter().all(|p| p.lines.len() <= 6), "no panel of 13 lines");
    let files = rendered(&report, "h100");
    let svg = file(&files, "transfers.svg");
    assert!(
        svg.contains(">4 KiB<") && svg.contains(">1 GiB<"),
        "sizes read as sizes"
    );
    // Every legend entry its own marker: the legend's markers are all different.
    let legend: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("stroke-width=\"2\" stroke-dasharray"))
        .collect();
    assert!(legend.len() >= 7, "{legend:?}");
}

#[test]
fn tick_labels_are_short_and_whole_where_the_axis_is() {
    for (report, folder) in [(h100_full_run(), "h100"), (node_of_four(), "node")] {
        for (name, svg) in rendered(&report, folder).iter().filter(|f| f.0.ends_with(".svg")) {
            for label in svg.split('>').filter_map(|t| t.split('<').next()) {
                let scientific = label.len() < 12
                    && label.contains('e')
                    && label.chars().next().is_some_and(|c| c.is_ascii_digit())
                    && label
                        .chars()
                        .all(|c| c.is_ascii_digit() || matches!(c, 'e' | '.' | '-' | '+'));
                assert!(!scientific, "{name}: the tick label {label:?}");
            }
        }
    }
    let report = h100_full_run();
    let files = rendered(&report, "h100");
    for name in ["offset.svg", "stride.svg", "streams.svg"] {
        let svg = file(&files, name);
        // The x ticks are the labels centred under the plot: whole numbers only.
        for line in svg
            .lines()
            .filter(|l| l.contains("text-anchor=\"middle\">") && l.contains("y=\"480.0\""))
        {
            let label = line.split('>').nth(1).unwrap().split('<').next().unwrap();
            assert!(!label.contains('.'), "{name}: a fractional tick {label:?}");
        }
    }
}

#[test]
fn unrelated_cases_are_not_joined() {
    let report = h100_full_run();
    let files = rendered(&report, "h100");
    assert!(
        !file(&files, "matvec.svg").contains("<polyline"),
        "matvec's matrices and versions are cases"
    );
    let sgemm = file(&files, "sgemm.svg");
    for polyline in sgemm.lines().filter(|l| l.starts_with("<polyline")) {
        assert_eq!(
            polyline.matches(',').count(),
            4,
            "1024, 2048, 4096, 8192 joined, 4095 apart: {polyline}"
        );
    }
}

#[test]
fn heat_maps_have_a_colour_scale_and_mark_the_diagonal() {
    let files = rendered(&node_of_four(), "node");
    let svg = file(&files, "peer.svg");
    assert_eq!(svg.matches(">self<").count(), 16, "four maps of four GPUs");
    assert!(
        svg.contains(">0<") && svg.contains(">400<"),
        "a scale from 0 to 400 GB/s"
    );
}

#[test]
fn report_md_puts_the_findings_first_and_counts_in_words() {
    let files = rendered(&h100_full_run(), "h100");
    let md = file(&files, "report.md");
    let order = [
        "**Contents**",
        "## Headline findings",
        "## The guides' claims, then and now",
        "## The run: GPUs, software, method",
        "## Misaligned access: offset copy",
        "## Kernels: registers, memory, occupancy",
    ];
    let places: Vec<usize> = order
        .iter()
        .map(|h| md.find(h).unwrap_or_else(|| panic!("{h} missing")))
        .collect();
    assert!(places.windows(2).all(|w| w[0] < w[1]), "{order:?} at {places:?}");
    assert!(
        md.contains("- **transfers**: pinned memory 53.1 GB/s host → device"),
        "{md}"
    );
    assert!(md.contains("(#headline-findings)") && md.contains("(#misaligned-access-offset-copy)"));
    // offset moves one element type: no "[f32]" in its table; offset-width moves four.
    let offset = &md[md.find("## Misaligned access: offset copy").unwrap()..md.find("## Strided access").unwrap()];
    assert!(!offset.contains("[f32]"), "{offset}");
    assert!(md.contains("offset_copy_f16 · Rust [f16]"));
    assert!(!md.contains("(s)") && !md.contains(" 1 points") && !md.contains(" 1 series,"));
}
