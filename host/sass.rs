//! SASS, the instructions the GPU runs: the suite's PTX assembled by
//! NVIDIA's `ptxas` for the GPU's own architecture, listed by `nvdisasm`
//! (or `cuobjdump -sass`), read into functions, basic blocks and loops, and
//! counted by opcode and class, so that a claim about instructions
//! (predication, loop counters, the instructions behind a rate) rests on
//! what the GPU executes rather than on the PTX.
//!
//! A pure tool layer like [`crate::ptx`]: the tools are found at run time
//! ([`ToolSearch`]: `PTXAS`, `NVDISASM`, `CUOBJDUMP`, then `PATH`, the
//! toolkit, the pip wheels of a virtual environment); without them every
//! call answers [`SassWaived`] with the reason. The driver JIT-compiles the
//! same PTX with its own copy of ptxas, so its schedule may differ in
//! detail from the one listed here.

use std::sync::OnceLock;

mod assembly;
mod control_flow;
mod instruction;
mod instruction_counts;
mod issue_limits;
mod listing;
mod opcode_class;
mod operation_ceiling;
mod tool_run;
mod tool_search;

pub use assembly::{SassModule, TOOL_TIMEOUT, assemble, assembled};
pub use control_flow::{SassLoop, loops};
pub use instruction::{Guard, SassInstruction, immediate, parse_instruction, register_name};
pub use instruction_counts::SassCounts;
pub use issue_limits::issue_limits;
pub use listing::{SassFunction, parse_listing};
pub use opcode_class::{SassClass, SassPipe};
pub use operation_ceiling::{
    Ceiling, IssueLimit, OPERATIONS_PER_PASS_FIGURE, PER_OPERATION_FIGURE, PerOperation, operation_ceiling,
    per_operation,
};
pub use tool_search::{Disassembler, SassTools, SassWaived, Tool, ToolSearch, find_tools, version_of};

/// The tools this process's environment offers ([`ToolSearch::from_environment`]),
/// looked up once.
pub fn environment_tools() -> Result<SassTools, SassWaived> {
    static TOOLS: OnceLock<Result<SassTools, SassWaived>> = OnceLock::new();
    TOOLS
        .get_or_init(|| find_tools(&ToolSearch::from_environment()))
        .clone()
}

/// The real architecture of a GPU of `compute_capability`, `sm_90` for (9, 0):
/// what the driver's JIT compiles the embedded PTX for.
pub fn architecture(compute_capability: (u32, u32)) -> String {
    format!("sm_{}{}", compute_capability.0, compute_capability.1)
}
