//! Constant memory against the read-only data cache and shared memory: the
//! Best Practices Guide's §3.2.5 and the OpenCL guide's §3.1.2.3.
//!
//! The guides: a warp (cc 1.x: a half-warp) whose threads all read one
//! constant address is served as fast as a register read; different
//! addresses are served one after another, so the cost grows linearly with
//! the number of distinct addresses. The three kernels here walk the same
//! table of links with `distinct` groups of lanes: lane `l` starts at word
//! `l % distinct` and follows `w ← table[w]` for `steps` steps, so each warp
//! request holds exactly `distinct` addresses when the table keeps the groups
//! apart (the host's `reference::constant_chase_links`: `w → w + 32`, so
//! group `g` stays at words `g (mod 32)`: one bank each in shared memory and
//! one 128-byte line per request in the global version).
//!
//! **Where the table lives**: `constant_chase` reads the module's
//! `__constant__` array ([`crate::device::constant_word`]); `constant_chase_global_nc`
//! the same words in global memory through `ld.global.nc` (CUDA C's
//! `__ldg`); `constant_chase_shared` a copy in shared memory.
//!
//! **What Rust can do here** (rustc's nvptx64 target, checked in the PTX
//! and with ptxas): a `static` (even immutable) becomes a `.global` PTX
//! variable, never `.const`; a by-value array kernel parameter (a
//! `#[repr(C)]` struct holding `[u32; 256]`) read with a run-time index is
//! copied in full from the parameter space to local memory on entry (256
//! `ld.param` + `st.local`, a 1 KiB stack frame) and then read with
//! `ld.local`, so it is not a constant-bank read either. A file-scope
//! `global_asm!` declaring a `.const` array and an `ld.const` in inline
//! assembly works: ptxas makes it `LDC Rd, c[0x3][Ra]`, the instruction CUDA
//! C's `__constant__` reads compile to. So the Rust kernel and its CUDA C twin
//! both read the constant bank.
//!
//! **Outputs**: thread `t` of the 1-D grid writes the wrapping sum of the
//! words it visited to `sums[t]`; thread 0 of block `b` the block's span over
//! the steps (between two barriers; [`crate::block_span`]) to `spans[4b..4b + 4]`.
//!
//! **Launch**: a 1-D grid of 1-D blocks of a multiple of 32 threads (the
//! suite's series: one warp per block, so cycles per step are the request's
//! latency plus its serialisation).

mod constant_chase;
mod global_nc_chase;
mod shared_chase;

pub use constant_chase::{constant_chase, constant_chase_params};
pub use global_nc_chase::{constant_chase_global_nc, constant_chase_global_nc_params};
pub use shared_chase::{constant_chase_shared, constant_chase_shared_params};

use crate::block_span::{record_block_span, span_start};
use crate::device::{GlobalMutPtr, WARP_SIZE, block_dim_x, block_idx_x, sync_threads, thread_idx_x};

/// The chase all three kernels run: lane `l` starts at `l % distinct` and
/// takes `steps` steps through `read`, between two barriers; writes the
/// outputs described in the module docs.
///
/// # Safety
/// `distinct >= 1`; `read` is safe for every word the chase can reach;
/// `spans` holds `BLOCK_SPAN_WORDS` words per block and `sums` one per thread.
#[inline(always)]
pub(crate) unsafe fn timed_chase(
    distinct: u32,
    steps: u32,
    spans: GlobalMutPtr<u64>,
    sums: GlobalMutPtr<u32>,
    read: impl Fn(u32) -> u32,
) {
    let mut word = thread_idx_x() % WARP_SIZE % distinct;
    let mut sum = 0u32;
    sync_threads();
    let start = span_start();
    for _ in 0..steps {
        word = read(word);
        sum = sum.wrapping_add(word);
    }
    sync_threads();
    // SAFETY: BLOCK_SPAN_WORDS words per block (caller's contract).
    unsafe { record_block_span(spans, start) };
    let thread = block_idx_x() * block_dim_x() + thread_idx_x();
    // SAFETY: one sum per thread (caller's contract).
    unsafe { sums.store(thread as isize, sum) };
}
