//! The skeleton every throughput kernel shares: [`THROUGHPUT_CHAINS`]
//! independent values per thread, `iterations` rounds that apply the measured
//! operation once to each value, and one store per value at the end.
//!
//! Independent chains give each warp that many instructions to issue before
//! it must wait for a result, so with enough warps per SM the loop runs at the
//! operation's issue rate (throughput) rather than its latency. The final
//! stores keep every chain alive: without them the compiler would delete the
//! loop, and the host checks them against a CPU reference.

use crate::device::{GlobalMutPtr, block_dim_x, block_idx_x, grid_dim_x, thread_idx_x};

/// Independent dependency chains per thread in every throughput kernel.
pub const THROUGHPUT_CHAINS: usize = 8;

/// Where the final value of chain `chain` of grid-wide thread `thread` is
/// stored, out of `threads` threads: `chain · threads + thread`, so that each
/// chain's stores are coalesced across a warp. The output holds
/// `THROUGHPUT_CHAINS · threads` elements.
pub const fn chain_output_index(chain: usize, thread: u32, threads: u32) -> usize {
    chain * threads as usize + thread as usize
}

/// The number `k = thread · THROUGHPUT_CHAINS + chain` that seeds a chain's
/// starting value (each kernel documents how it maps `k` to a value).
pub const fn chain_seed(thread: u32, chain: usize) -> u32 {
    thread.wrapping_mul(THROUGHPUT_CHAINS as u32).wrapping_add(chain as u32)
}

/// Replaces every chain value `v` by `f(v)`, written out chain by chain
/// (destructured, not indexed), so that the values stay in registers even
/// when `f` is too large for the compiler to unroll a loop over it.
#[inline(always)]
pub(crate) fn each_chain<T: Copy>(values: &mut [T; THROUGHPUT_CHAINS], f: impl Fn(T) -> T) {
    let [v0, v1, v2, v3, v4, v5, v6, v7] = *values;
    *values = [f(v0), f(v1), f(v2), f(v3), f(v4), f(v5), f(v6), f(v7)];
}

/// Runs the skeleton: seeds each chain with `start(k)`, applies `round` to all
/// chains `iterations` times, stores chain `c` at [`chain_output_index`].
///
/// # Safety
/// `out` must hold `THROUGHPUT_CHAINS · gridDim.x · blockDim.x` elements.
#[inline(always)]
pub(crate) unsafe fn run_chains<T: Copy>(
    out: GlobalMutPtr<T>,
    iterations: u32,
    start: impl Fn(u32) -> T,
    round: impl Fn(&mut [T; THROUGHPUT_CHAINS]),
) {
    let threads = grid_dim_x() * block_dim_x();
    let thread = block_idx_x() * block_dim_x() + thread_idx_x();
    // Written out chain by chain (not as loops over the array), so that the
    // array never needs an address and stays in registers.
    let seed = |chain| start(chain_seed(thread, chain));
    let mut values = [seed(0), seed(1), seed(2), seed(3), seed(4), seed(5), seed(6), seed(7)];
    for _ in 0..iterations {
        round(&mut values);
    }
    let store = |chain: usize, value: T| {
        // SAFETY: chain · threads + thread < THROUGHPUT_CHAINS · threads, the caller's length.
        unsafe { out.store(chain_output_index(chain, thread, threads) as isize, value) }
    };
    let [v0, v1, v2, v3, v4, v5, v6, v7] = values;
    store(0, v0);
    store(1, v1);
    store(2, v2);
    store(3, v3);
    store(4, v4);
    store(5, v5);
    store(6, v6);
    store(7, v7);
}

/// Defines a throughput kernel with the suite's parameter list
/// `(out, start, step, a, b, iterations)` over elements of type `$elem`:
/// chain `k` starts at `$seed`, each round runs `$round` on the array of
/// chain values, and the kernel ends with [`run_chains`]'s stores. The doc
/// attributes given become the kernel's documentation; a `# Safety` section
/// is appended.
macro_rules! chain_kernel {
    (
        $(#[$doc:meta])*
        $name:ident($elem:ty; $start:ident, $step:ident, $a:ident, $b:ident),
        seed: |$k:ident| $seed:expr,
        round: |$values:ident| $round:block
    ) => {
        kernel! {
            $(#[$doc])*
            ///
            /// # Safety
            /// `out` must hold `THROUGHPUT_CHAINS · gridDim.x · blockDim.x`
            /// elements (`launchers::throughput_shape` in the host crate checks this).
            pub unsafe fn $name(
                out: GlobalMutPtr<$elem>,
                $start: $elem,
                $step: $elem,
                $a: $elem,
                $b: $elem,
                iterations: u32,
            ) {
                // SAFETY: the output length is the caller's contract, forwarded.
                unsafe {
                    $crate::instruction_throughput::chains::run_chains(
                        out,
                        iterations,
                        |$k: u32| -> $elem { $seed },
                        |$values: &mut [$elem; $crate::instruction_throughput::THROUGHPUT_CHAINS]| $round,
                    )
                }
            }
        }
    };
}
