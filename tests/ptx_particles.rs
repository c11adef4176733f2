//! The particle kernels' PTX, Rust and CUDA C twin side by side: both must
//! round every float the same way, which is what lets the GPU tests demand
//! bit-identical results from the two builds.
//!
//! The twins are compiled by NVRTC where it can be loaded (no GPU needed:
//! e.g. the `nvidia-cuda-nvrtc` wheel's `libnvrtc.so.13` on
//! `LD_LIBRARY_PATH`); without it those checks print SKIPPED.

use std::io::Write;

use ptxsuite::ptx::KERNELS_PTX;
use ptxsuite::testbed::compile_twins;

/// The instructions of entry `name` (its body, one instruction per line, no labels or comments).
fn entry_body<'a>(ptx: &'a str, name: &str) -> Vec<&'a str> {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("{name} missing from the PTX"));
    let body = &ptx[start..];
    let open = body.find('{').expect("an entry body");
    let close = body.find("\n}").expect("the end of the entry");
    body[open + 1..close]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('$') && !l.starts_with('.'))
        .collect()
}

/// How many instructions of `body` start with `opcode` followed by whitespace.
fn count(body: &[&str], opcode: &str) -> usize {
    body.iter()
        .filter(|l| {
            l.strip_prefix(opcode)
                .is_some_and(|rest| rest.starts_with(char::is_whitespace))
        })
        .count()
}

/// Float operations both builds must have as many of: the fused products,
/// the IEEE divisions and square roots, the fast sine and cosine. (Not the
/// multiplies: LLVM writes `2·c` as `c + c`, the same value.)
const ROUNDED_OPS: [&str; 5] = [
    "fma.rn.f32",
    "div.rn.f32",
    "sqrt.rn.f32",
    "sin.approx.f32",
    "cos.approx.f32",
];

#[test]
fn rust_particle_kernels_use_vector_accesses_and_the_fast_sine() {
    for name in ["particle_fountain", "particle_swarm"] {
        let body = entry_body(KERNELS_PTX, name);
        // Two float4 loads and three float4 stores per particle.
        let loads = body.iter().filter(|l| l.starts_with("ld.global.v4")).count();
        let stores = body.iter().filter(|l| l.starts_with("st.global.v4")).count();
        assert_eq!((loads, stores), (2, 3), "{name}: {body:#?}");
        // No scalar global accesses: every particle access is one 16-byte word.
        assert!(
            !body
                .iter()
                .any(|l| l.starts_with("ld.global.") && !l.starts_with("ld.global.v4")),
            "{name}"
        );
        // Every multiply is rounded on its own (.rn), so ptxas cannot fuse it into an FMA.
        assert_eq!(count(&body, "mul.f32"), 0, "{name}");
    }
    let fountain = entry_body(KERNELS_PTX, "particle_fountain");
    assert_eq!(count(&fountain, "sin.approx.f32"), 1);
    assert_eq!(count(&fountain, "cos.approx.f32"), 1);
    let swarm = entry_body(KERNELS_PTX, "particle_swarm");
    assert_eq!(count(&swarm, "sqrt.rn.f32"), 1);
}

#[test]
fn cuda_c_twins_round_like_the_rust_kernels() {
    let twins = match compile_twins() {
        Ok(ptx) => ptx,
        Err(why) => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED cuda_c_twins_round_like_the_rust_kernels: {why}"
            );
            return;
        }
    };
    for name in ["particle_fountain", "particle_swarm"] {
        let rust = entry_body(KERNELS_PTX, name);
        let twin = entry_body(&twins, name);
        for op in ROUNDED_OPS {
            assert_eq!(count(&rust, op), count(&twin, op), "{name}: {op} in Rust vs CUDA C");
        }
        // A plain mul.f32 followed by an add may be fused by ptxas: the twin must have none.
        assert_eq!(count(&twin, "mul.f32"), 0, "{name}: {twin:#?}");
        let stores = twin.iter().filter(|l| l.starts_with("st.global.v4")).count();
        assert_eq!(stores, 3, "{name}");
    }
}

#[test]
fn the_tuning_steps_access_memory_as_the_notes_describe() {
    // Naive: scalar state accesses (float *); float4 state: one vector load and store of the state, the position
    // still read one float at a time; the staged kernels go through shared memory, the synced one with barriers.
    let naive = entry_body(KERNELS_PTX, "particle_fountain_naive");
    let float4 = entry_body(KERNELS_PTX, "particle_fountain_float4_state");
    let registers = entry_body(KERNELS_PTX, "particle_fountain");
    let scalar_loads = |b: &[&str]| {
        b.iter()
            .filter(|l| l.starts_with("ld.global.f32") || l.starts_with("ld.global.b32"))
            .count()
    };
    assert!(scalar_loads(&naive) > scalar_loads(&float4), "{naive:#?}");
    assert!(scalar_loads(&float4) > scalar_loads(&registers), "{float4:#?}");
    // rustc's LLVM splits the float4 state load into 4 + 8 + 4 bytes (the parts used on each path); the state
    // still goes out as one vector store.
    assert!(
        float4
            .iter()
            .any(|l| l.starts_with("ld.global.v2") || l.starts_with("ld.global.v4"))
    );
    let vector_stores = |b: &[&str]| b.iter().filter(|l| l.starts_with("st.global.v4")).count();
    assert_eq!((vector_stores(&naive), vector_stores(&float4)), (1, 3));
    let staged = entry_body(KERNELS_PTX, "particle_fountain_staged");
    let synced = entry_body(KERNELS_PTX, "particle_fountain_staged_synced");
    let shared = |b: &[&str]| {
        b.iter()
            .filter(|l| l.starts_with("ld.shared") || l.starts_with("st.shared"))
            .count()
    };
    let barriers = |b: &[&str]| {
        b.iter()
            .filter(|l| l.starts_with("bar.sync") || l.starts_with("barrier.sync"))
            .count()
    };
    assert!(shared(&staged) >= 3 && shared(&synced) >= 3);
    assert_eq!((barriers(&staged), barriers(&synced)), (0, 2));
    let tiled = entry_body(KERNELS_PTX, "particle_gravity_tiled");
    assert!(barriers(&tiled) >= 2 && shared(&tiled) >= 2);
    assert_eq!(barriers(&entry_body(KERNELS_PTX, "particle_gravity")), 0);
}
