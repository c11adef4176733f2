//! The API kernels (tests/api-kernels) built to PTX for sm_75 with
//! ptx-builder, as a user's build.rs builds them: what the PTX must hold
//! (entries, Rust-CUDA's parameter layout, real `.shared` arrays, nothing
//! left for libdevice or libNVVM to resolve), and ptxas assembling it for
//! sm_75 and sm_90 where ptxas is found (`PTXAS`, or on `PATH`; CI must
//! provide it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The PTX, built once for the whole test binary.
fn ptx() -> &'static str {
    static PTX: OnceLock<String> = OnceLock::new();
    PTX.get_or_init(|| {
        let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        // Beside the other kernel builds of this target dir (`<target>/nvptx-kernels`), so that the
        // nvptx `core` is compiled once for all of them.
        let target_dir = scratch
            .parent()
            .map_or_else(|| scratch.join("nvptx-kernels"), |t| t.join("nvptx-kernels"));
        let output = scratch.join("cuda_std_api_kernels.ptx");
        let built = ptx_builder::PtxBuilder::new("tests/api-kernels")
            .arch("sm_75")
            .target_dir(target_dir)
            .output(&output)
            .build()
            .unwrap_or_else(|error| panic!("building the API kernels to PTX: {error}"));
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

fn parameters(name: &str) -> usize {
    let body = entry(name);
    let list = &body[..body.find(')').unwrap()];
    list.matches(".param").count()
}

#[test]
fn every_kernel_is_a_ptx_entry_with_rust_cudas_parameter_layout() {
    // (kernel, parameters once each slice is a pointer and a length)
    for (name, count) in [
        ("indices", 1),
        ("barrier_votes", 3),
        ("warp_operations", 3),
        ("shared_memory", 3),
        ("atomics", 5),
        ("float_math", 3),
        ("hello", 2),
    ] {
        assert_eq!(parameters(name), count, "{name}'s parameters:\n{}", entry(name));
    }
    assert!(ptx().lines().any(|line| line.trim() == ".target sm_75"));
}

#[test]
fn nothing_is_left_for_libdevice_or_libnvvm() {
    for unresolved in ["__nv_", "__nvvm_", "llvm."] {
        assert!(!ptx().contains(unresolved), "the PTX names {unresolved}…");
    }
    // The one external function is the driver's printf system call.
    let externs: Vec<&str> = ptx().lines().filter(|line| line.starts_with(".extern .func")).collect();
    assert!(
        externs.iter().all(|line| line.trim_end().ends_with("vprintf")),
        "{externs:?}"
    );
}

#[test]
fn shared_arrays_are_shared_memory_and_accessed_as_such() {
    let declarations: Vec<&str> = ptx()
        .lines()
        .filter(|line| line.starts_with(".shared ") && line.contains("__cuda_std_shared_"))
        .collect();
    assert_eq!(declarations.len(), 3, "{declarations:?}");
    assert!(
        declarations.iter().any(|line| line.ends_with("[256];")),
        "the 64-f32 tile: {declarations:?}"
    );
    let body = entry("shared_memory");
    assert!(
        body.contains("st.shared.b32") && body.contains("ld.shared.b32"),
        "{body}"
    );
    // No generic load or store: LLVM knows every shared pointer's state space.
    let generic = body
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("ld.b") || line.starts_with("st.b"))
        .count();
    assert_eq!(generic, 0, "{body}");
}

#[test]
fn warp_and_block_operations_are_single_sync_instructions() {
    let body = entry("warp_operations");
    for instruction in [
        "shfl.sync.up",
        "shfl.sync.down",
        "shfl.sync.idx",
        "shfl.sync.bfly",
        "vote.sync.ballot",
        "vote.sync.all",
        "vote.sync.any",
        "match.any.sync.b32",
        "match.all.sync.b32",
        "bar.warp.sync",
        "activemask",
    ] {
        assert!(body.contains(instruction), "no {instruction} in warp_operations");
    }
    let body = entry("barrier_votes");
    for instruction in [
        "bar.red.popc.u32",
        "bar.red.and.pred",
        "bar.red.or.pred",
        "membar.gl",
        "membar.sys",
    ] {
        assert!(body.contains(instruction), "no {instruction} in barrier_votes");
    }
    let body = entry("atomics");
    for instruction in [
        "atom.relaxed.gpu.add.f32",
        "fence.sc.sys",
        "atom.acq_rel.sys.add.f64",
        "atom.acq_rel.cta.add.f32",
        "ld.acquire.cta",
        "st.relaxed.cta",
    ] {
        assert!(body.contains(instruction), "no {instruction} in atomics");
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
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cuda-std-ptxas-{arch}"));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("api.ptx");
    std::fs::write(&source, ptx()).unwrap();
    let output = Command::new(ptxas)
        .args([format!("-arch={arch}"), "-v".to_string()])
        .arg(&source)
        .arg("-o")
        .arg(dir.join("api.cubin"))
        .output()
        .expect("running ptxas");
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "ptxas -arch={arch} failed:\n{log}");
    log
}

#[test]
fn ptxas_assembles_every_kernel_for_sm75_and_sm90() {
    let Some(ptxas) = find_ptxas() else {
        assert!(std::env::var_os("CI").is_none(), "CI must provide ptxas (set PTXAS)");
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED ptxas_assembles_every_kernel_for_sm75_and_sm90: ptxas not found"
        );
        return;
    };
    for arch in ["sm_75", "sm_90"] {
        let log = assemble(&ptxas, arch);
        for name in [
            "indices",
            "barrier_votes",
            "warp_operations",
            "shared_memory",
            "atomics",
            "float_math",
            "hello",
        ] {
            assert!(
                log.contains(&format!("entry function '{name}'")),
                "{name} missing for {arch}:\n{log}"
            );
        }
        // The three shared arrays: 256 + 4 bytes for shared_memory, 4 for atomics (ptxas may round up).
        assert!(
            log.contains("272 bytes smem") || log.contains("260 bytes smem"),
            "{log}"
        );
    }
}
