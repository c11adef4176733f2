//! The atomic kernels (tests/atomic-kernels) built to PTX for sm_75 with
//! ptx-builder: `red_add` is one `red.global.add.f32` and `atomic_add` one
//! `atom.global.add.f32`, and ptxas assembles both for sm_75 and sm_90 where
//! it is found (`PTXAS`, or on `PATH`; CI must provide it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const ENTRIES: [&str; 3] = ["count_into_bins", "take_tickets", "add_partials"];

/// The PTX, built once for the whole test binary.
fn ptx() -> &'static str {
    static PTX: OnceLock<String> = OnceLock::new();
    PTX.get_or_init(|| {
        let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        // Beside the other kernel builds of this target dir, so that the nvptx `core` is compiled once.
        let target_dir = scratch
            .parent()
            .map_or_else(|| scratch.join("nvptx-kernels"), |t| t.join("nvptx-kernels"));
        let output = scratch.join("ptx_device_atomic_kernels.ptx");
        let built = ptx_builder::PtxBuilder::new("tests/atomic-kernels")
            .arch("sm_75")
            .target_dir(target_dir)
            .output(&output)
            .build()
            .unwrap_or_else(|error| panic!("building the atomic kernels to PTX: {error}"));
        std::fs::read_to_string(built.path).unwrap()
    })
}

/// The body of entry `name`, from its `.entry` line to the end of its function.
fn entry(name: &str) -> &'static str {
    let text = ptx();
    let start = text
        .find(&format!(".visible .entry {name}("))
        .unwrap_or_else(|| panic!("no .entry {name}"));
    let end = text[start..]
        .find("// -- End function")
        .map_or(text.len(), |e| start + e);
    &text[start..end]
}

fn count(body: &str, instruction: &str) -> usize {
    body.lines().filter(|line| line.contains(instruction)).count()
}

#[test]
fn red_add_is_one_red_global_add_f32_and_atomic_add_one_atom() {
    for name in ["count_into_bins", "add_partials"] {
        let body = entry(name);
        assert_eq!(count(body, "red.global.add.f32"), 1, "{name}:\n{body}");
        assert_eq!(
            count(body, "atom."),
            0,
            "{name}: no returning atomic where none is asked:\n{body}"
        );
    }
    let body = entry("take_tickets");
    assert_eq!(count(body, "atom.global.add.f32"), 1, "{body}");
    assert_eq!(count(body, "red."), 0, "{body}");
    // Relaxed and .gpu are PTX's defaults: no ordering or scope qualifier, and no fence.
    for name in ENTRIES {
        let body = entry(name);
        for stronger in ["fence", "membar", ".acq_rel", ".release", ".sys"] {
            assert!(!body.contains(stronger), "{name} has {stronger}:\n{body}");
        }
    }
}

fn find_ptxas() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PTXAS") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("ptxas"))
            .find(|candidate| candidate.is_file())
    })
}

fn assemble(ptxas: &Path, arch: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ptx-device-atomics-ptxas-{arch}"));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("atomics.ptx");
    std::fs::write(&source, ptx()).unwrap();
    let output = Command::new(ptxas)
        .args([format!("-arch={arch}"), "-v".to_string()])
        .arg(&source)
        .arg("-o")
        .arg(dir.join("atomics.cubin"))
        .output()
        .expect("running ptxas");
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "ptxas -arch={arch} failed:\n{log}");
    log
}

#[test]
fn ptxas_assembles_the_atomics_for_sm75_and_sm90() {
    let Some(ptxas) = find_ptxas() else {
        assert!(std::env::var_os("CI").is_none(), "CI must provide ptxas (set PTXAS)");
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED ptxas_assembles_the_atomics_for_sm75_and_sm90: ptxas not found"
        );
        return;
    };
    for arch in ["sm_75", "sm_90"] {
        let log = assemble(&ptxas, arch);
        for name in ENTRIES {
            assert!(
                log.contains(&format!("entry function '{name}'")),
                "{name} missing for {arch}:\n{log}"
            );
        }
    }
}
