//! The PTX that `build.rs` compiled from the `kernels-gpu` crate, embedded in the binary.

use kernels_gpu::launch_bounds::LAUNCH_BOUNDS;

mod loop_body;
mod param_list;

pub use loop_body::{PtxLoop, entry_text, loop_with_most, loops, opcode_of};
pub use param_list::{PtxParam, check_signature, check_twin, entry_param_lists};

/// The PTX module text (Rust-CUDA's `include_str!` pattern).
pub const KERNELS_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

/// The architecture the PTX was built for (`PTXSUITE_PTX_ARCH` at build time).
pub const PTX_ARCH: &str = env!("PTXSUITE_PTX_ARCH");

/// The `.version` directive of a PTX module (the PTX ISA version), e.g. `"7.0"`.
pub fn isa_version(ptx: &str) -> Option<&str> {
    directive(ptx, ".version")
}

/// The `.target` directive of a PTX module, e.g. `"sm_75"`.
pub fn target(ptx: &str) -> Option<&str> {
    directive(ptx, ".target")
}

fn directive<'a>(ptx: &'a str, name: &str) -> Option<&'a str> {
    ptx.lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix(name))
        .and_then(|rest| rest.split_whitespace().next())
}

/// `ptx` with the [`LAUNCH_BOUNDS`] that apply to a GPU of `compute_capability`:
/// `.maxntid` and `.minnctapersm` between each bounded entry's parameter list
/// and its body (where PTX puts performance directives). Entries the module
/// does not define are passed over, so it serves the Rust PTX and the twins.
pub fn with_launch_bounds(ptx: &str, compute_capability: (u32, u32)) -> String {
    let mut out = ptx.to_string();
    for bound in LAUNCH_BOUNDS
        .iter()
        .filter(|b| b.architectures.contains(&compute_capability))
    {
        let head = format!(".entry {}(", bound.entry);
        let Some(start) = out.find(&head) else { continue };
        let Some(body) = out[start..].find("\n{").map(|i| start + i + 1) else {
            continue;
        };
        out.insert_str(
            body,
            &format!(
                ".maxntid {}, 1, 1\n.minnctapersm {}\n",
                bound.max_threads, bound.min_blocks_per_sm
            ),
        );
    }
    out
}

/// The names of the `.entry` points (kernels) a PTX module defines.
pub fn entry_points(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|line| line.trim().strip_prefix(".visible .entry "))
        .map(|rest| rest.split(['(', ' ']).next().unwrap_or(rest).to_string())
        .collect()
}

/// The oldest CUDA release whose driver accepts a PTX ISA version (from the
/// PTX ISA release history), e.g. `"7.0"` → `"11.0"`.
pub fn minimum_cuda_for_isa(isa: &str) -> Option<String> {
    let (major, minor) = isa.split_once('.')?;
    let (major, minor) = (major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?);
    let cuda = match (major, minor) {
        (6, 0..=3) => "10.0".to_string(),
        (6, 4) => "10.1".to_string(),
        (6, _) => "10.2".to_string(),
        (7, m) => format!("11.{m}"),
        (8, m @ 0..=5) => format!("12.{m}"),
        (8, m) => format!("12.{}", m + 1),
        (9, m) => format!("13.{m}"),
        _ => return None,
    };
    Some(cuda)
}
