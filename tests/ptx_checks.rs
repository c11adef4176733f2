//! The embedded PTX: its entry points and target, and what NVIDIA's own
//! assembler `ptxas` says of it for sm_75 and sm_90 (it must assemble, with
//! no register spills).
//!
//! `ptxas` comes from the `nvidia-cuda-nvcc` wheel (see README); the test
//! looks at `$PTXAS`, then `PATH`. Without it the ptxas checks are skipped
//! with a message, except under CI (`CI` set), where that is a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use kernels_gpu::device::{CONSTANT_SYMBOL, CONSTANT_WORDS};
use kernels_gpu::launch_bounds::{LAUNCH_BOUND_FOR_SPILLS, LAUNCH_BOUNDS};
use ptxsuite::launchers::{memory_claims_entries, ptx_entries};
use ptxsuite::ptx::{self, KERNELS_PTX, PTX_ARCH};

#[test]
fn ptx_has_every_kernel_entry_point() {
    let entries = ptx::entry_points(KERNELS_PTX);
    for name in ptx_entries() {
        assert!(entries.iter().any(|e| e == name), "{name} missing from {entries:?}");
    }
}

/// Every `.cu` file in host/cuda_c/ joins the CUDA C twins' source: a new
/// file that was not joined fails here, naming it, without NVRTC or a GPU
/// (the twins' entry-by-entry checks need both).
#[test]
fn every_cuda_c_file_joins_the_twins() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("host/cuda_c");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("host/cuda_c/")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cu"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "{files:?}");
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a .cu file");
        assert!(
            ptxsuite::testbed::CUDA_C_SOURCE.contains(&text),
            "{} is not joined in CUDA_C_SOURCE (host/testbed/cuda_c_twins.rs)",
            file.display()
        );
    }
}

#[test]
fn ptx_target_is_the_recorded_architecture() {
    assert_eq!(ptx::target(KERNELS_PTX), Some(PTX_ARCH));
    assert!(ptx::isa_version(KERNELS_PTX).is_some());
    assert!(KERNELS_PTX.contains(".address_size 64"));
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

/// [`find_ptxas`], or `None` after saying (past the harness's capture) that
/// `test` is skipped; under CI a missing ptxas fails instead.
fn ptxas_or_skip(test: &str) -> Option<PathBuf> {
    let found = find_ptxas();
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must provide ptxas (set PTXAS)");
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: ptxas not found (set PTXAS or put it on PATH; see README)"
        );
    }
    found
}

/// (function, spill store bytes, spill load bytes) for each function ptxas reports.
fn spills(ptxas_log: &str) -> Vec<(String, u64, u64)> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in ptxas_log.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            current = rest.split('\'').next().unwrap_or("").to_string();
        }
        if line.contains("bytes spill stores") {
            let numbers: Vec<u64> = line
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|w| w.parse().ok())
                .collect();
            // "N bytes stack frame, S bytes spill stores, L bytes spill loads"
            if numbers.len() >= 3 {
                out.push((current.clone(), numbers[1], numbers[2]));
            }
        }
    }
    out
}

#[test]
fn ptxas_assembles_for_sm75_and_sm90_without_spills() {
    let Some(ptxas) = ptxas_or_skip("ptxas_assembles_for_sm75_and_sm90_without_spills") else {
        return;
    };
    for arch in ["sm_75", "sm_90"] {
        let log = assemble(&ptxas, KERNELS_PTX, arch);
        let report = spills(&log);
        for name in ptx::entry_points(KERNELS_PTX) {
            assert!(
                report.iter().any(|(f, _, _)| *f == name),
                "ptxas did not report {name} for {arch}:\n{log}"
            );
        }
        for (function, stores, loads) in report {
            assert_eq!((stores, loads), (0, 0), "{function} spills registers on {arch}");
        }
    }
}

/// `ptxas -arch=<arch> -v` of `ptx_text`; its log (stderr). Panics if ptxas fails.
fn assemble(ptxas: &Path, ptx_text: &str, arch: &str) -> String {
    // One directory per call: tests run in parallel.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ptxsuite-ptxas-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("kernels.ptx");
    std::fs::write(&source, ptx_text).unwrap();
    let output = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(&source)
        .arg("-o")
        .arg(dir.join("kernels.cubin"))
        .output()
        .expect("running ptxas");
    let _ = std::fs::remove_dir_all(&dir);
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "ptxas -arch={arch} failed:\n{log}");
    log
}

/// Registers ptxas reports for `function` ("Used N registers").
fn registers(ptxas_log: &str, function: &str) -> Option<u32> {
    let mut current = "";
    for line in ptxas_log.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            current = rest.split('\'').next().unwrap_or("");
        }
        if current == function
            && let Some(rest) = line.split("Used ").nth(1)
        {
            return rest.split_whitespace().next()?.parse().ok();
        }
    }
    None
}

#[test]
fn launch_bounds_fit_their_architectures_within_their_spill_allowance() {
    let Some(ptxas) = ptxas_or_skip("launch_bounds_fit_their_architectures_within_their_spill_allowance") else {
        return;
    };
    for bound in LAUNCH_BOUNDS {
        assert!(
            ptx::entry_points(KERNELS_PTX).iter().any(|e| e == bound.entry),
            "a launch bound names {}, which the PTX does not define",
            bound.entry
        );
        for &(major, minor) in bound.architectures {
            let arch = format!("sm_{major}{minor}");
            let bounded = ptx::with_launch_bounds(KERNELS_PTX, (major, minor));
            let log = assemble(&ptxas, &bounded, &arch);
            let report = spills(&log);
            let (_, stores, loads) = report.iter().find(|(f, _, _)| f == bound.entry).expect("reported");
            assert!(
                *stores <= bound.max_spill_bytes && *loads <= bound.max_spill_bytes,
                "{} spills {stores} B / reloads {loads} B on {arch} under its launch bound, more than the {} B allowed",
                bound.entry,
                bound.max_spill_bytes
            );
            // 64 K registers per SM shared by min_blocks blocks of max_threads threads.
            let budget = 65536 / (bound.max_threads * bound.min_blocks_per_sm);
            let used = registers(&log, bound.entry).expect("ptxas reports registers");
            assert!(
                used <= budget,
                "{} uses {used} registers on {arch}, more than {budget}",
                bound.entry
            );
        }
    }
}

#[test]
fn spill_parser_reads_ptxas_verbose_output() {
    let log = "ptxas info    : Compiling entry function 'a' for 'sm_90'\n\
               ptxas info    : Function properties for a\n    \
               0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
               ptxas info    : Compiling entry function 'b' for 'sm_90'\n\
               ptxas info    : Function properties for b\n    \
               16 bytes stack frame, 12 bytes spill stores, 8 bytes spill loads\n";
    assert_eq!(spills(log), [("a".to_string(), 0, 0), ("b".to_string(), 12, 8)]);
}

/// The PTX of entry `name`, from its parameter list to its closing brace.
fn entry_body(name: &str) -> &'static str {
    KERNELS_PTX
        .split(&format!(".entry {name}("))
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .unwrap_or_else(|| panic!("{name} not in the PTX"))
}

#[test]
fn wide_copies_use_single_vector_instructions() {
    // A 16-byte element must move as one ld/st.global.v4, not two 64-bit halves.
    for name in ["offset_copy_f32x4", "stride_copy_f32x4", "vector_copy"] {
        let body = entry_body(name);
        assert!(body.contains("ld.global.v4"), "{name} has no 128-bit load");
        assert!(body.contains("st.global.v4"), "{name} has no 128-bit store");
        assert!(!body.contains("ld.global.b64"), "{name} splits its loads");
    }
}

#[test]
fn matvec_warp_per_row_keeps_four_loads_in_registers() {
    // Its unrolled loop keeps four float4 loads of M in flight: written as a loop over an
    // array, LLVM kept the array in local memory and indexed it at run time (0.84 of the copy
    // ceiling on an H100, where the CUDA C twin's reached 0.95).
    let body = entry_body("matvec_warp_per_row");
    assert!(!body.contains(".local"), "matvec_warp_per_row uses local memory");
    assert!(
        body.matches("ld.global.v4").count() >= 10,
        "four loads of M and four of V unrolled, plus the remainder's two"
    );
}

#[test]
fn compat_layer_pairs_compile_to_the_same_memory_instructions() {
    // The cuda_std kernels take each slice as two parameters (pointer, u64 length), Rust-CUDA's ABI.
    let params = |name: &str| entry_body(name).matches(".param .u64").count();
    assert_eq!(params("cuda_std_vecadd"), 5, "a, a.len(), b, b.len(), c");
    assert_eq!(params("cuda_std_block_sum"), 3, "input, input.len(), partial");
    // Both block sums reach their tiles with ld.shared/st.shared (a shared_array! is real
    // .shared memory, not generic or global), and neither has local memory.
    for name in ["cuda_std_block_sum", "ptx_device_block_sum"] {
        let body = entry_body(name);
        assert!(body.contains("ld.shared.") && body.contains("st.shared."), "{name}");
        assert!(!body.contains(".local"), "{name} uses local memory");
        assert_eq!(
            body.matches("bar.sync").count(),
            9,
            "{name}: one barrier after the load, eight in the tree"
        );
    }
    // Both vector adds load twice and store once per element, through global addresses.
    for name in ["cuda_std_vecadd", "ptx_device_vecadd"] {
        let body = entry_body(name);
        assert_eq!(body.matches("ld.global.").count(), 2, "{name}");
        assert_eq!(body.matches("st.global.").count(), 1, "{name}");
    }
}

#[test]
fn register_blocked_gemms_keep_accumulators_in_registers_and_use_128_bit_shared_loads() {
    // A loop that indexes the 8 × 8 accumulator array with a counter puts it
    // in local memory (a stack frame, not a "spill"): there must be none.
    // Every tile step is 512 FMAs a thread: 8 × 8 × 8 (128 × 128 tile) or 8 × 4 × 16 (128 × 64).
    for (name, global_load, tile_steps) in [
        ("sgemm_register_blocked", "ld.global.v4", 1),
        ("sgemm_register_blocked_whole_tiles", "ld.global.v4", 3),
        ("sgemm_register_blocked_128x64", "ld.global.v4", 1),
        ("sgemm_register_blocked_128x64_whole_tiles", "ld.global.v4", 3),
        ("hgemm_f16_storage", "ld.global.b64", 1),
        ("hgemm_f16_storage_whole_tiles", "ld.global.b64", 3),
        // The guarded loop (one tile), and for blocks inside C the float4 and the float-by-float
        // whole-tile loops (three tiles each) with their partial last k tile (one each).
        ("sgemm_register_blocked_guarded_edges", "ld.global.v4", 9),
        ("sgemm_register_blocked_128x64_guarded_edges", "ld.global.v4", 9),
    ] {
        let body = entry_body(name);
        assert!(!body.contains(".local"), "{name} uses local memory");
        // Every load names its state space: a generic `ld.` (LLVM selecting between a global
        // pointer and a stack array of zeros) costs the 128-bit loads and registers.
        let generic = body
            .lines()
            .map(str::trim_start)
            .filter(|l| {
                l.starts_with("ld.") && !["ld.global", "ld.shared", "ld.param"].iter().any(|s| l.starts_with(s))
            })
            .count();
        assert_eq!(generic, 0, "{name} has generic loads");
        assert!(
            body.contains("ld.shared.v4"),
            "{name} has no 128-bit shared-memory loads"
        );
        assert!(body.contains("st.global.v4"), "{name} has no 128-bit stores of C");
        assert!(
            body.contains(global_load),
            "{name} has no wide global loads ({global_load})"
        );
        assert_eq!(
            body.matches("fma.rn.f32").count(),
            tile_steps * 512,
            "{name}: {tile_steps} unrolled tile step(s) of 512 FMAs (three: the whole-tile loop runs two tiles a trip, after an odd count's first tile alone)"
        );
    }
    // Barriers: the guarded case has two (after the first tile, in the loop); the whole-tile entry
    // five (after the first tile's staging, once for an odd count and once for an even one, in the
    // odd count's first tile, and two tiles a trip); each inside case seven (five, and two around
    // the partial k tile's staging): the guarded-edges entries, one guarded and two inside cases,
    // have 16. A case merged into another or folded away changes the count.
    for (name, barriers) in [
        ("sgemm_register_blocked_guarded_edges", 16),
        ("sgemm_register_blocked_128x64_guarded_edges", 16),
        ("sgemm_register_blocked_whole_tiles", 5),
    ] {
        assert_eq!(entry_body(name).matches("bar.sync").count(), barriers, "{name}");
    }
    // Split-K: the 128 × 64 guarded-edges body (9 tile steps, 16 barriers, no local memory, no
    // generic loads), each of its three cases adding its 8 × 4 outputs with red.global.add.f32 and
    // storing none.
    let name = "sgemm_register_blocked_128x64_split_k";
    let body = entry_body(name);
    assert!(!body.contains(".local"), "{name} uses local memory");
    assert!(body.contains("ld.shared.v4") && body.contains("ld.global.v4"), "{name}");
    assert_eq!(body.matches("fma.rn.f32").count(), 9 * 512, "{name}");
    assert_eq!(body.matches("bar.sync").count(), 16, "{name}");
    assert_eq!(body.matches("red.global.add.f32").count(), 3 * 32, "{name}");
    assert!(!body.contains("st.global"), "{name} stores into C");
    // The warp-tiled entries: 16-deep tiles of 1024 FMAs a thread; the whole-tile
    // entry's last tile is peeled (a second copy of the tile's FMAs after the loop).
    for (name, fmas) in [("sgemm_warp_tiled", 1024), ("sgemm_warp_tiled_whole_tiles", 2048)] {
        let body = entry_body(name);
        assert!(!body.contains(".local"), "{name} uses local memory");
        for wide in ["ld.shared.v4", "st.shared.v4", "ld.global.v4", "st.global.v4"] {
            assert!(body.contains(wide), "{name} has no {wide}");
        }
        assert_eq!(body.matches("fma.rn.f32").count(), fmas, "{name}");
        assert_eq!(
            body.matches("bar.sync").count(),
            2,
            "{name}: one barrier after the first tile, one per trip"
        );
    }
    let whole = entry_body("sgemm_warp_tiled_whole_tiles");
    assert_eq!(
        whole.matches("ld.global").count() - whole.matches("ld.global.v4").count(),
        0,
        "sgemm_warp_tiled_whole_tiles loads A and B only as float4s"
    );
    assert!(entry_body("hgemm_f16_storage").contains("cvt.f32.f16"));
    assert!(entry_body("hgemm_f16_storage_whole_tiles").contains("cvt.f32.f16"));
}

#[test]
fn one_thread_per_row_matvec_loops_load_a_whole_chunk_before_its_fmas() {
    // row_dot's steady state must stay one chunk per iteration: 16 loads (8 of
    // the row, 8 of v), then 8 FMAs. If rustc unrolls or interleaves it again,
    // ptxas pipelines it differently from the CUDA C twin (0.936 of it at
    // 12800 x 8192 on an H100 before the chunks).
    for name in ["matvec_row_per_thread", "matvec_grid_stride_rows"] {
        let body = entry_body(name);
        let chunk_loop = body
            .split("\n$L__")
            .find(|block| block.contains("Loop Header") && block.matches("fma.rn.f32").count() == 8)
            .unwrap_or_else(|| panic!("{name}: no loop block with 8 FMAs"));
        let lines: Vec<&str> = chunk_loop.lines().map(str::trim).collect();
        let loads: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("ld.global"))
            .collect();
        let fmas: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("fma.rn.f32"))
            .collect();
        assert_eq!(loads.len(), 16, "{name}: chunk loop loads\n{chunk_loop}");
        assert!(
            loads.last() < fmas.first(),
            "{name}: a load comes after the first FMA\n{chunk_loop}"
        );
    }
}

/// The loops of `name`'s PTX: from each label LLVM marks as a loop header to
/// the branch back to it, inclusive.
fn loop_blocks(name: &str) -> Vec<String> {
    let lines: Vec<&str> = entry_body(name).lines().collect();
    let mut loops = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(label) = line.strip_prefix("$L__").and_then(|l| l.split(':').next()) else {
            continue;
        };
        let header = line.contains("Loop Header")
            || lines
                .get(i + 1)
                .is_some_and(|l| l.trim_start().starts_with("//") && l.contains("Loop Header"));
        let back_edge = format!("bra \t$L__{label};");
        if let Some(end) = header
            .then(|| lines[i..].iter().position(|l| l.ends_with(&back_edge)))
            .flatten()
        {
            loops.push(lines[i..=i + end].join("\n"));
        }
    }
    loops
}

/// The instructions (not labels, comments or asm markers) of a PTX fragment, trimmed.
fn instructions(block: &str) -> Vec<&str> {
    block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('$') && !l.starts_with('.'))
        .collect()
}

#[test]
fn bank_kernels_keep_a_rounds_32_shared_accesses_at_the_access_width() {
    // One round = 32 accesses from one base, each one instruction of the kernel's width:
    // the compiler must neither merge nor drop them (the conflict counts rest on it).
    // The OpenCL guide's cases: structs a load per member (never one vector load), split values two loads.
    for (name, access, count) in [
        ("bank_read_b32", "ld.shared.b32", 32),
        ("bank_read_b64", "ld.shared.b64", 32),
        ("bank_read_b128", "ld.shared.v4.b32", 32),
        ("bank_tile_column_read", "ld.shared.b32", 32),
        ("bank_write_b32", "st.shared.b32", 32),
        ("bank_write_b64", "st.shared.b64", 32),
        ("bank_write_b128", "st.shared.v4.b32", 32),
        ("bank_read_b8", "ld.shared.b8", 32),
        ("bank_read_b16", "ld.shared.b16", 32),
        ("bank_read_struct2", "ld.shared.b32", 32),
        ("bank_read_struct3", "ld.shared.b32", 48),
        ("bank_read_split_b64", "ld.shared.b32", 64),
        ("bank_read_permuted", "ld.shared.b32", 32),
    ] {
        let rounds: Vec<String> = loop_blocks(name)
            .into_iter()
            .filter(|block| block.matches(access).count() == count)
            .collect();
        assert_eq!(rounds.len(), 1, "{name}: one loop body with {count} {access}");
        let other_shared = instructions(&rounds[0])
            .into_iter()
            .filter(|l| l.contains(".shared") && !l.starts_with(access))
            .count();
        let expected_other = usize::from(name.starts_with("bank_write")); // the salt load
        assert_eq!(
            other_shared, expected_other,
            "{name}: other shared accesses in the round\n{}",
            rounds[0]
        );
    }
}

#[test]
fn local_memory_appears_only_where_the_kernel_means_it() {
    let dynamic = entry_body("local_array_dynamic");
    assert!(
        dynamic.contains("ld.local") && dynamic.contains("st.local"),
        "the run-time index must keep the array in local memory"
    );
    for name in ["local_array_registers", "local_array_spilled"] {
        assert!(
            !entry_body(name).contains(".local"),
            "{name}: compile-time indices put the array in registers"
        );
    }
}

#[test]
fn local_array_spilled_spills_under_its_launch_bound_on_every_listed_architecture() {
    let Some(ptxas) = ptxas_or_skip("local_array_spilled_spills_under_its_launch_bound_on_every_listed_architecture")
    else {
        return;
    };
    let name = LAUNCH_BOUND_FOR_SPILLS.entry;
    for &(major, minor) in LAUNCH_BOUND_FOR_SPILLS.architectures {
        let arch = format!("sm_{major}{minor}");
        let log = assemble(&ptxas, &ptx::with_launch_bounds(KERNELS_PTX, (major, minor)), &arch);
        let (_, stores, loads) = spills(&log).into_iter().find(|(f, _, _)| f == name).expect("reported");
        assert!(
            stores > 0 && loads > 0,
            "{name} does not spill on {arch} under its bound: {stores} B / {loads} B"
        );
    }
}

/// `(destination, address)` of every `op` load in `block`, in order (`op [address]` forms only).
fn loads<'a>(block: &'a str, op: &str) -> Vec<(&'a str, &'a str)> {
    instructions(block)
        .into_iter()
        .filter_map(|line| line.strip_prefix(op))
        .filter_map(|rest| {
            let (destination, address) = rest.split_once(',')?;
            let address = address.trim().strip_prefix('[')?.split(']').next()?;
            Some((destination.trim(), address.trim()))
        })
        .collect()
}

#[test]
fn pointer_chase_steps_are_single_dependent_global_loads() {
    // Each step: one ld.global.u64 whose address is the previous load's result, nothing between.
    let blocks: Vec<String> = loop_blocks("pointer_chase")
        .into_iter()
        .filter(|b| b.contains("ld.global.u64"))
        .collect();
    assert!(!blocks.is_empty());
    for block in &blocks {
        let chain = loads(block, "ld.global.u64");
        for pair in chain.windows(2) {
            assert_eq!(pair[1].1, pair[0].0, "a load not fed by the one before:\n{block}");
        }
        let others: Vec<&str> = instructions(block)
            .into_iter()
            .filter(|l| !l.starts_with("ld.global.u64"))
            .collect();
        assert!(
            others.iter().all(|l| l.starts_with("add.s32")
                || l.starts_with("setp")
                || l.starts_with("@")
                || l.starts_with("mov.b64")
                || l.starts_with("mov.b32")),
            "the chase loop does more than load and count: {others:?}"
        );
    }
}

#[test]
fn fma_latency_is_a_chain_of_64_dependent_fmas() {
    let block = loop_blocks("fma_latency")
        .into_iter()
        .find(|b| b.contains("fma.rn.f32"))
        .expect("an FMA loop");
    let fmas: Vec<(&str, &str)> = instructions(&block)
        .into_iter()
        .filter_map(|l| l.strip_prefix("fma.rn.f32"))
        .filter_map(|rest| {
            let mut operands = rest.split(',').map(str::trim);
            Some((operands.next()?, operands.next()?))
        })
        .collect();
    assert_eq!(fmas.len(), 64, "FMA_LATENCY_UNROLL FMAs a trip");
    for pair in fmas.windows(2) {
        assert_eq!(pair[1].1, pair[0].0, "an FMA not fed by the one before:\n{block}");
    }
}

#[test]
fn constant_chase_reads_the_declared_constant_array() {
    let declaration = format!(".visible .const .align 4 .b32 {CONSTANT_SYMBOL}[{CONSTANT_WORDS}];");
    assert!(KERNELS_PTX.contains(&declaration), "the PTX lacks {declaration}");
    assert!(entry_body("constant_chase").contains("ld.const.u32"));
    assert!(entry_body("constant_chase_global_nc").contains("ld.global.nc.u32"));
    assert!(entry_body("constant_chase_shared").contains("ld.shared"));
}

/// The math-function twins (Best Practices Guide §5.1.4) compile with and
/// without `-use_fast_math`, and the option does what the guide says: the
/// `sinf`, `cosf` and `powf` calls become the SFU approximations (`sin.approx`,
/// `cos.approx`, `lg2.approx`), which the default build does not use for them.
#[test]
fn the_math_function_twins_compile_with_and_without_fast_math() {
    use kernels_gpu::instruction_throughput::ThroughputKernel;
    let (twins, fast) = match (
        ptxsuite::testbed::compile_twins(),
        ptxsuite::testbed::compile_fast_math_twins(),
    ) {
        (Ok(twins), Ok(fast)) => (twins, fast),
        (Err(why), _) | (_, Err(why)) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED the_math_function_twins_compile_with_and_without_fast_math: {why}"
            );
            return;
        }
    };
    let body = |ptx: &str, kernel: ThroughputKernel| {
        ptx::entry_text(ptx, kernel.entry())
            .unwrap_or_else(|| panic!("{} missing", kernel.entry()))
            .to_string()
    };
    for kernel in ThroughputKernel::MATH_FUNCTIONS {
        body(&twins, kernel);
        body(&fast, kernel);
    }
    let sin_cos = (
        body(&twins, ThroughputKernel::SinCos),
        body(&fast, ThroughputKernel::SinCos),
    );
    assert!(
        !sin_cos.0.contains("sin.approx")
            && sin_cos.1.contains("sin.approx.ftz.f32")
            && sin_cos.1.contains("cos.approx.ftz.f32")
    );
    let pow = (
        body(&twins, ThroughputKernel::PowCube),
        body(&fast, ThroughputKernel::PowCube),
    );
    assert!(
        !pow.0.contains("lg2.approx.ftz") && pow.1.contains("lg2.approx.ftz.f32"),
        "{}",
        pow.1
    );
    assert!(
        pow.0.lines().count() > 2 * pow.1.lines().count(),
        "powf is heavyweight, __powf is not"
    );
    let lines: Vec<String> = ThroughputKernel::MATH_FUNCTIONS
        .into_iter()
        .map(|k| {
            let (a, b) = (body(&twins, k), body(&fast, k));
            let approx = |t: &str| t.lines().filter(|l| l.contains(".approx")).count();
            format!(
                "{k:?}: {} PTX lines ({} .approx), fast math {} ({})",
                a.lines().count(),
                approx(&a),
                b.lines().count(),
                approx(&b)
            )
        })
        .collect();
    let _ = writeln!(
        std::io::stderr(),
        "CUDA C twins, default and -use_fast_math:\n{}",
        lines.join("\n")
    );
}

#[test]
fn cuda_c_twins_of_the_memory_claims_kernels_compile_and_assemble() {
    // Needs NVRTC (libnvrtc on the library path); skipped without it, as the GPU tests are.
    let twins = match ptxsuite::testbed::compile_twins() {
        Ok(ptx) => ptx,
        Err(why) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED cuda_c_twins_of_the_memory_claims_kernels_compile_and_assemble: CUDA C twins not compiled here: {why}"
            );
            return;
        }
    };
    let entries = ptx::entry_points(&twins);
    let memory_claims: Vec<&str> = memory_claims_entries().collect();
    for name in &memory_claims {
        assert!(entries.iter().any(|e| e == name), "no CUDA C twin of {name}");
    }
    let constant = format!(".const .align 4 .b8 {CONSTANT_SYMBOL}[{}];", CONSTANT_WORDS * 4);
    assert!(twins.contains(&constant), "the twins lack {constant}");
    let Some(ptxas) = ptxas_or_skip("cuda_c_twins_of_the_memory_claims_kernels_compile_and_assemble") else {
        return;
    };
    let log = assemble(&ptxas, &ptx::with_launch_bounds(&twins, (9, 0)), "sm_90");
    let report = spills(&log);
    for (function, stores, loads) in &report {
        if memory_claims.contains(&function.as_str()) && function != LAUNCH_BOUND_FOR_SPILLS.entry {
            assert_eq!((*stores, *loads), (0, 0), "twin {function} spills on sm_90");
        }
    }
    let (_, stores, _) = report
        .iter()
        .find(|(f, _, _)| f == LAUNCH_BOUND_FOR_SPILLS.entry)
        .expect("reported");
    assert!(
        *stores > 0,
        "the twin of local_array_spilled does not spill under its bound"
    );
}

mod execution_claims {
    //! The instruction-throughput, accuracy, divergence and loop-counter
    //! kernels: their loops keep the instructions they measure, the short
    //! if/else is predicated and the long one branches, and the loop counters'
    //! per-iteration instruction counts differ as the Best Practices Guide says.

    use kernels_gpu::instruction_throughput::{THROUGHPUT_CHAINS, ThroughputKernel};
    use ptxsuite::launchers::{LoopCounter, branch_kernel, paths_kernel};
    use ptxsuite::ptx::{self, KERNELS_PTX, PtxLoop, entry_text, loop_with_most, loops, opcode_of};
    use ptxsuite::reference::{BranchLength, PathChoice};

    fn entry(name: &str) -> &'static str {
        entry_text(KERNELS_PTX, name).unwrap_or_else(|| panic!("{name} not in the PTX"))
    }

    #[test]
    fn every_execution_claims_kernel_is_an_entry_point() {
        let entries = ptx::entry_points(KERNELS_PTX);
        let names = ThroughputKernel::ALL
            .iter()
            .chain(&ThroughputKernel::MATH_FUNCTIONS)
            .chain(&ThroughputKernel::SQRT_COMPARE_CONVERT)
            .map(|k| k.entry())
            .chain(["math_function_values"])
            .chain([PathChoice::ByLane, PathChoice::ByWarp].map(paths_kernel))
            .chain([BranchLength::Short, BranchLength::Long].map(branch_kernel))
            .chain(LoopCounter::ALL.map(LoopCounter::kernel));
        for name in names {
            assert!(entries.iter().any(|e| e == name), "{name} missing");
        }
    }

    /// The instruction a throughput kernel measures, and how many of it one
    /// round issues per chain.
    fn measured_instruction(kernel: ThroughputKernel) -> Option<(&'static str, usize)> {
        use ThroughputKernel::*;
        Some(match kernel {
            F32Add => ("add.rn.f32", 1),
            F32Mul => ("mul.rn.f32", 1),
            F32Fma => ("fma.rn.f32", 1),
            F64Fma => ("fma.rn.f64", 1),
            F16x2Fma => ("fma.rn.f16x2", 1),
            I32Add => ("add.s32", 1),
            I32Mul => ("mul.lo.s32", 1),
            I32Mad | I16Mad | I8Mad => ("mad.lo.s32", 1),
            Mul24 => ("mul24.lo.s32", 1),
            U32Div => ("div.u32", 1),
            U32Rem => ("rem.u32", 1),
            U32Shift => ("shr.u32", 1),
            U32Mask => ("and.b32", 1),
            RcpApprox => ("rcp.approx.f32", 1),
            RcpRn => ("rcp.rn.f32", 1),
            DivRn => ("div.rn.f32", 1),
            DivApprox => ("div.approx.f32", 1),
            RsqrtApprox => ("rsqrt.approx.f32", 1),
            RecipSqrtRn => ("sqrt.rn.f32", 1),
            SinApprox => ("sin.approx.f32", 1),
            CosApprox => ("cos.approx.f32", 1),
            Ex2Approx | ExpFast => ("ex2.approx.f32", 1),
            Exp => ("ex2.approx.ftz.f32", 1),
            Lg2Approx => ("lg2.approx.f32", 1),
            // Two multiplies per chain: by the constant and by the run-time factor.
            F32LiteralMul => ("mul.rn.f32", 2),
            F64PromotedMul => ("mul.rn.f64", 1),
            BarSync => ("bar.sync", 1),
            // Function evaluations of several instructions (see math_function_pairs_issue_what_they_are_compared_for).
            Sin | ExpAccurate | CubeMul | PowCube | Exp2 | Pow2 | Exp10 | Pow10 | Cbrt | PowThird | Sinpi | SinPiX
            | Sincos | SinCos => return None,
            Sqrt => ("sqrt.rn.f32", 1),
            Fmin => ("min.f32", 1),
            Convert => ("cvt.rzi", 1),
        })
    }

    /// Instructions of `loop_` with opcode `opcode` whose operands are all
    /// registers (so that a loop counter's `add.s32 %r, %r, -8` is not counted).
    fn register_only(loop_: &PtxLoop<'_>, opcode: &str) -> usize {
        loop_
            .instructions
            .iter()
            .filter(|line| opcode_of(line).starts_with(opcode))
            .filter(|line| {
                let operands = line.split_once(opcode_of(line)).map_or("", |(_, rest)| rest);
                operands
                    .trim_end_matches(';')
                    .split(',')
                    .all(|operand| operand.trim().starts_with('%'))
            })
            .count()
    }

    #[test]
    fn throughput_loops_keep_a_multiple_of_the_chains_of_their_instruction() {
        for kernel in ThroughputKernel::ALL {
            let Some((opcode, per_chain)) = measured_instruction(kernel) else {
                continue;
            };
            let body = entry(kernel.entry());
            let steady = loop_with_most(body, opcode).unwrap_or_else(|| panic!("{kernel:?}: no loop with {opcode}"));
            // The i32 add kernel's loop counter is an add.s32 too (with an immediate).
            let count = if kernel == ThroughputKernel::I32Add {
                register_only(&steady, opcode)
            } else {
                steady.count(opcode)
            };
            let per_round = THROUGHPUT_CHAINS * per_chain;
            assert!(
                count >= per_round && count % per_round == 0,
                "{kernel:?}: {count} × {opcode} in its loop, not a multiple of {per_round}:\n{:#?}",
                steady.instructions
            );
            // No conversion or call sneaks into the loop (the promoted and narrow kernels' conversions are
            // their point: the narrow ones sign-extend at least every other round, LLVM seeing that a
            // multiply-add's low bits need no extension of its operands).
            match kernel {
                ThroughputKernel::F64PromotedMul => {}
                ThroughputKernel::I16Mad | ThroughputKernel::I8Mad => {
                    let extension = if kernel == ThroughputKernel::I16Mad {
                        "cvt.s32.s16"
                    } else {
                        "cvt.s32.s8"
                    };
                    assert!(
                        2 * steady.count(extension) >= count,
                        "{kernel:?}: {} × {extension} for {count} multiply-adds",
                        steady.count(extension)
                    );
                }
                _ => assert_eq!(steady.count("cvt"), 0, "{kernel:?}: a conversion in the loop"),
            }
            assert_eq!(steady.count("call"), 0, "{kernel:?}: a call in the loop");
            assert!(!body.contains(".local"), "{kernel:?} uses local memory");
        }
    }

    /// The Best Practices Guide §5.1.4 pairs in Rust: the multiplied cube
    /// calls no SFU, `pow` is one `lg2.approx` and one `ex2.approx` per
    /// chain (its `lg2.approx` of a constant base hoisted out of the loop),
    /// the cube root, `sinpi`, sine and cosine are FMA code with no SFU
    /// instruction, and `sincos` issues fewer FMAs than separate `sin` and
    /// `cos` (LLVM does not merge their two reductions).
    #[test]
    fn math_function_pairs_issue_what_they_are_compared_for() {
        use ThroughputKernel::*;
        let steady = |kernel: ThroughputKernel, opcode: &str| {
            loop_with_most(entry(kernel.entry()), opcode).unwrap_or_else(|| panic!("{kernel:?}: no loop with {opcode}"))
        };
        let chains = THROUGHPUT_CHAINS;
        let cube = steady(CubeMul, "mul.rn.f32");
        assert!(
            cube.count("mul.rn.f32") >= 2 * chains && cube.count("approx") == 0,
            "{:#?}",
            cube.instructions
        );
        for kernel in [PowCube, PowThird] {
            let pow = steady(kernel, "ex2.approx.f32");
            assert_eq!(pow.count("lg2.approx.f32"), pow.count("ex2.approx.f32"), "{kernel:?}");
            assert_eq!(pow.count("ex2.approx.f32") % chains, 0, "{kernel:?}");
        }
        for (exp, pow) in [(Exp2, Pow2), (Exp10, Pow10)] {
            let (e, p) = (steady(exp, "ex2.approx.f32"), steady(pow, "ex2.approx.f32"));
            assert_eq!(e.count("lg2.approx"), 0, "{exp:?}");
            assert_eq!(
                p.count("lg2.approx"),
                0,
                "{pow:?}: the constant base's log is hoisted out of the loop"
            );
            // One ex2.approx per chain per round in both (the loops may be unrolled differently).
            assert_eq!(e.count("ex2.approx.f32") % chains, 0, "{exp:?}");
            assert_eq!(p.count("ex2.approx.f32") % chains, 0, "{pow:?}");
        }
        for kernel in [Cbrt, Sinpi, SinPiX, Sincos, SinCos] {
            let body = entry(kernel.entry());
            assert!(!body.contains(".approx"), "{kernel:?} calls an SFU approximation");
            assert!(!body.contains(".local") && !body.contains("call"), "{kernel:?}");
        }
        let fmas = |kernel: ThroughputKernel| entry(kernel.entry()).matches("fma.rn.f32").count();
        assert!(
            fmas(Sincos) < fmas(SinCos),
            "sincos {} FMAs, sin and cos {}",
            fmas(Sincos),
            fmas(SinCos)
        );
    }

    /// The OpenCL guide §3.1.1.1's rates in Rust: one `sqrt.rn.f32`, one
    /// `min.f32` and one conversion each way per chain and round, and no
    /// saturation code around the conversion (`to_int_unchecked`, C's `(int)x`).
    #[test]
    fn sqrt_min_and_conversion_loops_hold_only_their_operation() {
        use ThroughputKernel::*;
        for (kernel, opcode, per_chain) in [
            (Sqrt, "sqrt.rn.f32", 1),
            (Fmin, "min.f32", 1),
            (Convert, "cvt.rzi.s32.f32", 1),
            (Convert, "cvt.rn.f32.s32", 1),
        ] {
            let steady =
                loop_with_most(entry(kernel.entry()), opcode).unwrap_or_else(|| panic!("{kernel:?}: no {opcode}"));
            let count = steady.count(opcode);
            assert!(
                count > 0 && count.is_multiple_of(THROUGHPUT_CHAINS * per_chain),
                "{kernel:?}: {count} × {opcode}"
            );
            assert_eq!(
                steady.count("selp") + steady.count("setp"),
                1,
                "{kernel:?}: only the loop's own test: {:#?}",
                steady.instructions
            );
        }
    }

    #[test]
    fn the_promoted_multiply_converts_twice_per_chain_and_the_literal_one_never() {
        let promoted = loop_with_most(entry("f64_promoted_mul_throughput"), "mul.rn.f64").unwrap();
        let f64_muls = promoted.count("mul.rn.f64");
        assert_eq!(promoted.count("cvt.f64.f32"), f64_muls);
        assert_eq!(promoted.count("cvt.rn.f32.f64"), f64_muls);
        assert!(!entry("f32_literal_mul_throughput").contains("f64"));
    }

    #[test]
    fn accurate_functions_are_software_with_no_local_memory() {
        for name in ["sin_throughput", "exp_accurate_throughput"] {
            let body = entry(name);
            assert!(!body.contains(".local"), "{name} uses local memory");
            assert!(!body.contains(".approx"), "{name} uses an approximate instruction");
            let steady = loop_with_most(body, "fma.rn.f32").unwrap();
            assert!(
                steady.count("fma.rn.f32") >= THROUGHPUT_CHAINS * 5,
                "{name}: {steady:#?}"
            );
        }
        // The sine's Payne–Hanek path: the 2/π table read and one f64 multiply per chain.
        let sine = entry("sin_throughput");
        assert!(sine.contains("ld.global.nc"), "the 2/π table read");
        assert_eq!(sine.matches("mul.rn.f64").count(), THROUGHPUT_CHAINS);
    }

    #[test]
    fn exp_is_expf_s_sequence_with_no_branch() {
        // CUDA's expf: fma.rn.sat, fma.rm, add, two fma, ex2.approx.ftz, shl, mul; per chain, no branch.
        let steady = loop_with_most(entry("exp_throughput"), "ex2.approx.ftz.f32").unwrap();
        for (opcode, per_chain) in [
            ("ex2.approx.ftz.f32", 1),
            ("fma.rn.sat.f32", 1),
            ("fma.rm.f32", 1),
            ("shl.b32", 1),
            ("mul.rn.f32", 1),
        ] {
            assert_eq!(
                steady.count(opcode),
                THROUGHPUT_CHAINS * per_chain,
                "{opcode}: {steady:#?}"
            );
        }
        assert_eq!(steady.count("bra"), 1, "only the back edge branches:\n{steady:#?}");
        assert_eq!(steady.count("setp"), 1, "only the loop's own compare:\n{steady:#?}");
    }

    #[test]
    fn the_short_if_else_is_predicated_and_the_long_one_branches() {
        let short = loop_with_most(entry(branch_kernel(BranchLength::Short)), "selp.f32").expect("a loop with selp");
        assert!(short.count("selp.f32") >= 4, "one select per chain:\n{short:#?}");
        assert_eq!(short.count("bra"), 1, "only the back edge branches:\n{short:#?}");
        let long_body = entry(branch_kernel(BranchLength::Long));
        let long = loops(long_body)
            .into_iter()
            .max_by_key(|l| l.count("fma.rn.f32"))
            .expect("a loop");
        assert!(
            long.count("fma.rn.f32") >= 64,
            "both sides, 8 FMAs × 4 chains each:\n{long:#?}"
        );
        assert!(long.count("bra") >= 2, "a branch besides the back edge:\n{long:#?}");
        assert_eq!(long.count("selp"), 0, "not predicated:\n{long:#?}");
    }

    #[test]
    fn path_kernels_keep_thirty_two_distinct_paths() {
        for choice in [PathChoice::ByLane, PathChoice::ByWarp] {
            let body = entry(paths_kernel(choice));
            for path in 0..32 {
                assert!(
                    body.contains(&format!("// divergence path {path}\n")),
                    "{choice:?}: path {path} missing"
                );
            }
            let fma_loops = loops(body).into_iter().filter(|l| l.count("fma.rn.f32") > 0).count();
            assert!(fma_loops >= 32, "{choice:?}: {fma_loops} loops with FMAs");
        }
    }

    /// Instructions per copied element in the steady loop of `counter`'s kernel.
    fn instructions_per_element(counter: LoopCounter) -> f64 {
        let steady = loop_with_most(entry(counter.kernel()), "st.global").expect("a loop with stores");
        assert_eq!(steady.count("ld.global"), steady.count("st.global"));
        steady.instructions_per("st.global").unwrap()
    }

    #[test]
    fn wrapping_counters_need_more_instructions_per_iteration() {
        let per = LoopCounter::ALL.map(|c| (c, instructions_per_element(c)));
        let _ = writeln!(std::io::stderr(), "loop-counter instructions per element: {per:?}");
        let of = |counter| per.iter().find(|(c, _)| *c == counter).unwrap().1;
        // Wrapping 32-bit indices are recomputed and widened every iteration;
        // usize and C-like unchecked i32 indices become pointer increments.
        for wrapping in [LoopCounter::I32, LoopCounter::U32] {
            for reduced in [LoopCounter::Usize, LoopCounter::I32Unchecked] {
                assert!(
                    of(wrapping) > of(reduced),
                    "{wrapping:?} {} vs {reduced:?} {}",
                    of(wrapping),
                    of(reduced)
                );
            }
        }
    }

    use std::io::Write;
}

/// The CUDA C twins compiled to PTX by `nvcc` (the wheel's, beside `ptxas`:
/// the same front end as NVRTC at run time), or `None` after saying why.
fn twins_ptx_or_skip(test: &str) -> Option<String> {
    let nvcc = ptxas_or_skip(test)?.with_file_name("nvcc");
    let dir = std::env::temp_dir().join(format!("ptxsuite-twins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let (source, output) = (dir.join("twins.cu"), dir.join("twins.ptx"));
    std::fs::write(&source, ptxsuite::testbed::CUDA_C_SOURCE).expect("write twins.cu");
    let arch = format!("-arch=compute_{}", PTX_ARCH.trim_start_matches("sm_"));
    let compiled = Command::new(&nvcc)
        .args(["-ptx", &arch, "--std=c++17", "-w", "-o"])
        .arg(&output)
        .arg(&source)
        .output();
    let ptx = match compiled {
        Ok(out) if out.status.success() => std::fs::read_to_string(&output).ok(),
        Ok(out) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: nvcc could not compile the twins: {}",
                String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
            );
            None
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: no nvcc beside ptxas ({e})");
            None
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    ptx
}

#[test]
fn cuda_c_twins_declare_their_rust_kernels_params() {
    let Some(twins) = twins_ptx_or_skip("cuda_c_twins_declare_their_rust_kernels_params") else {
        return;
    };
    let rust = ptx::entry_param_lists(KERNELS_PTX);
    let twins = ptx::entry_param_lists(&twins);
    assert!(twins.len() >= 80, "only {} twin entries parsed", twins.len());
    for (name, twin) in &twins {
        let (_, rust_params) = rust
            .iter()
            .find(|(rust_name, _)| rust_name == name)
            .unwrap_or_else(|| panic!("the twin {name} has no Rust kernel"));
        assert_eq!(ptx::check_twin(rust_params, twin), Ok(()), "{name}");
    }
}

#[test]
fn rust_ptx_declares_each_kernels_signature() {
    use kernels_gpu::device::KernelSignature;
    use kernels_gpu::{global_memory, matrix_vector, particles, sgemm};
    fn check<S: KernelSignature>() {
        let lists = ptx::entry_param_lists(KERNELS_PTX);
        let (_, params) = lists.iter().find(|(name, _)| name == S::NAME).expect(S::NAME);
        assert_eq!(ptx::check_signature(S::PARAMS, params), Ok(()), "{}", S::NAME);
    }
    check::<global_memory::texture_shift_copy_params>();
    check::<global_memory::global_2d_tile_load_params>();
    check::<global_memory::texture_2d_tile_sample_params>();
    check::<global_memory::permuted_copy_params>();
    check::<global_memory::vector_copy_params>();
    check::<matrix_vector::matvec_warp_per_row_params>();
    check::<particles::particle_swarm_params>();
    check::<sgemm::sgemm_register_blocked_params>();
    check::<sgemm::sgemm_warp_tiled_params>();
    check::<sgemm::sgemm_warp_tiled_whole_tiles_params>();
    check::<kernels_gpu::instruction_throughput::f64_fma_throughput_params>();
    // cuda_std's slice ABI, described by hand.
    check::<ptxsuite::launchers::CudaStdVecadd>();
    check::<ptxsuite::launchers::CudaStdBlockSum>();
}
