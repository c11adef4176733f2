//! The PTX an implementation's kernels were loaded from, for experiments
//! that show what the compiler made of a kernel (loop bodies, predication).

use crate::ptx::{KERNELS_PTX, entry_text};
use crate::testbed::{Implementation, compile_twins};

/// The PTX text of `implementation`'s `entry`: the embedded Rust module, or
/// the CUDA C twins as NVRTC compiled them for this run; `None` for other
/// implementations or an entry that is not there.
pub fn implementation_entry(implementation: Implementation, entry: &str) -> Option<String> {
    match implementation {
        Implementation::Rust => entry_text(KERNELS_PTX, entry).map(str::to_string),
        Implementation::CudaC => {
            let twins = compile_twins().ok()?;
            entry_text(&twins, entry).map(str::to_string)
        }
        _ => None,
    }
}
