//! Thread, block and grid indices, the block barrier and its reductions,
//! memory fences (Rust-CUDA's `cuda_std::thread`).
//!
//! Each index is `ptx-device`'s (a PTX special register on the GPU, the
//! emulated thread's identity on the host), as a `u32`.

use crate::{UVec2, UVec3};

macro_rules! index_register {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() -> u32 {
            ptx_device::$name()
        }
    };
}

index_register!(
    /// `threadIdx.x` (PTX `%tid.x`).
    thread_idx_x
);
index_register!(
    /// `threadIdx.y` (PTX `%tid.y`).
    thread_idx_y
);
index_register!(
    /// `threadIdx.z` (PTX `%tid.z`).
    thread_idx_z
);
index_register!(
    /// `blockIdx.x` (PTX `%ctaid.x`).
    block_idx_x
);
index_register!(
    /// `blockIdx.y` (PTX `%ctaid.y`).
    block_idx_y
);
index_register!(
    /// `blockIdx.z` (PTX `%ctaid.z`).
    block_idx_z
);
index_register!(
    /// `blockDim.x` (PTX `%ntid.x`).
    block_dim_x
);
index_register!(
    /// `blockDim.y` (PTX `%ntid.y`).
    block_dim_y
);
index_register!(
    /// `blockDim.z` (PTX `%ntid.z`).
    block_dim_z
);
index_register!(
    /// `gridDim.x` (PTX `%nctaid.x`).
    grid_dim_x
);
index_register!(
    /// `gridDim.y` (PTX `%nctaid.y`).
    grid_dim_y
);
index_register!(
    /// `gridDim.z` (PTX `%nctaid.z`).
    grid_dim_z
);

/// `threadIdx` as a vector.
#[inline(always)]
pub fn thread_idx() -> UVec3 {
    UVec3::new(thread_idx_x(), thread_idx_y(), thread_idx_z())
}

/// `blockIdx` as a vector.
#[inline(always)]
pub fn block_idx() -> UVec3 {
    UVec3::new(block_idx_x(), block_idx_y(), block_idx_z())
}

/// `blockDim` as a vector.
#[inline(always)]
pub fn block_dim() -> UVec3 {
    UVec3::new(block_dim_x(), block_dim_y(), block_dim_z())
}

/// `gridDim` as a vector.
#[inline(always)]
pub fn grid_dim() -> UVec3 {
    UVec3::new(grid_dim_x(), grid_dim_y(), grid_dim_z())
}

/// The thread's index in the whole grid, unique for every launch shape (1-,
/// 2- or 3-D): blocks numbered x fastest, then threads within the block x
/// fastest. Wraps past `u32::MAX` threads, as on the GPU.
#[inline(always)]
pub fn index() -> u32 {
    let (grid, block, threads, thread) = (grid_dim(), block_idx(), block_dim(), thread_idx());
    let block_number = block
        .x
        .wrapping_add(block.y.wrapping_mul(grid.x))
        .wrapping_add(block.z.wrapping_mul(grid.x).wrapping_mul(grid.y));
    let thread_number = thread
        .x
        .wrapping_add(thread.y.wrapping_mul(threads.x))
        .wrapping_add(thread.z.wrapping_mul(threads.x).wrapping_mul(threads.y));
    block_number
        .wrapping_mul(threads.element_product())
        .wrapping_add(thread_number)
}

/// `blockIdx.x · blockDim.x + threadIdx.x`: the index of a 1-D launch.
#[inline(always)]
pub fn index_1d() -> u32 {
    thread_idx_x().wrapping_add(block_idx_x().wrapping_mul(block_dim_x()))
}

/// The x and y global indices of a 2-D launch (each `blockIdx · blockDim + threadIdx`).
#[inline(always)]
pub fn index_2d() -> UVec2 {
    UVec2::new(
        thread_idx_x().wrapping_add(block_idx_x().wrapping_mul(block_dim_x())),
        thread_idx_y().wrapping_add(block_idx_y().wrapping_mul(block_dim_y())),
    )
}

/// The x, y and z global indices of a 3-D launch.
#[inline(always)]
pub fn index_3d() -> UVec3 {
    let UVec2 { x, y } = index_2d();
    UVec3::new(
        x,
        y,
        thread_idx_z().wrapping_add(block_idx_z().wrapping_mul(block_dim_z())),
    )
}

/// Whether this is thread (0, 0, 0) of block (0, 0, 0): true in exactly one thread of the launch.
#[inline(always)]
pub fn first() -> bool {
    block_idx() == UVec3::ZERO && thread_idx() == UVec3::ZERO
}

/// Threads in a warp: 32 on every NVIDIA GPU (PTX `WARP_SZ`).
#[inline(always)]
pub fn warp_size() -> u32 {
    ptx_device::WARP_SIZE
}

/// `__syncthreads()`: the block-wide barrier (PTX `bar.sync 0`). Every
/// thread of the block must reach the same call; the emulator reports a
/// thread that does not, with the call's location.
#[inline(always)]
#[track_caller]
pub fn sync_threads() {
    ptx_device::sync_threads()
}

/// `__syncthreads_count(predicate)`: the barrier, returning how many threads
/// of the block passed a non-zero `predicate` (PTX `bar.red.popc.u32`).
#[inline(always)]
#[track_caller]
pub fn sync_threads_count(predicate: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let count: u32;
        // SAFETY: a barrier with a reduction; reaching it uniformly is the caller's contract. Not `nomem`: it orders memory.
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred %vote; setp.ne.u32 %vote, {predicate}, 0; bar.red.popc.u32 {count}, 0, %vote; }}",
                predicate = in(reg32) predicate,
                count = out(reg32) count,
                options(nostack),
            );
        }
        count
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::exchange::block_vote(predicate != 0).0
    }
}

/// `__syncthreads_and(predicate)`: the barrier, returning 1 if every thread
/// of the block passed a non-zero `predicate`, else 0 (PTX `bar.red.and.pred`).
#[inline(always)]
#[track_caller]
pub fn sync_threads_and(predicate: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let all: u32;
        // SAFETY: as sync_threads_count.
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred %vote, %all; setp.ne.u32 %vote, {predicate}, 0; bar.red.and.pred %all, 0, %vote; selp.u32 {all}, 1, 0, %all; }}",
                predicate = in(reg32) predicate,
                all = out(reg32) all,
                options(nostack),
            );
        }
        all
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let (count, threads) = crate::emulator::exchange::block_vote(predicate != 0);
        (count == threads) as u32
    }
}

/// `__syncthreads_or(predicate)`: the barrier, returning 1 if any thread of
/// the block passed a non-zero `predicate`, else 0 (PTX `bar.red.or.pred`).
#[inline(always)]
#[track_caller]
pub fn sync_threads_or(predicate: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let any: u32;
        // SAFETY: as sync_threads_count.
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred %vote, %any; setp.ne.u32 %vote, {predicate}, 0; bar.red.or.pred %any, 0, %vote; selp.u32 {any}, 1, 0, %any; }}",
                predicate = in(reg32) predicate,
                any = out(reg32) any,
                options(nostack),
            );
        }
        any
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        (crate::emulator::exchange::block_vote(predicate != 0).0 > 0) as u32
    }
}

/// A memory fence for every thread of the kernel (PTX `membar.gl`, CUDA C's
/// `__threadfence()`): not a barrier. Rust-CUDA documents this scope for
/// `grid_fence` (its code emits the block-scoped `membar.cta`); the grid's
/// fence is the device's, so this is [`device_fence`].
#[inline(always)]
pub fn grid_fence() {
    device_fence()
}

/// A memory fence at device scope (PTX `membar.gl`, `__threadfence()`).
#[inline(always)]
pub fn device_fence() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a fence has no operands; not `nomem`, so the compiler keeps memory accesses on their side of it.
    unsafe {
        core::arch::asm!("membar.gl;", options(nostack))
    };
    #[cfg(not(target_arch = "nvptx64"))]
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// A memory fence at system scope, host and peer GPUs included (PTX
/// `membar.sys`, `__threadfence_system()`).
#[inline(always)]
pub fn system_fence() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: as device_fence.
    unsafe {
        core::arch::asm!("membar.sys;", options(nostack))
    };
    #[cfg(not(target_arch = "nvptx64"))]
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// Suspends the thread for about `nanos` nanoseconds (PTX `nanosleep.u32`,
/// sm_70 and newer; the hardware may wake it earlier or later, up to 1 ms).
#[inline(always)]
pub fn nanosleep(nanos: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a scheduling hint; touches no memory.
    unsafe {
        core::arch::asm!("nanosleep.u32 {nanos};", nanos = in(reg32) nanos, options(nomem, nostack))
    };
    #[cfg(not(target_arch = "nvptx64"))]
    std::thread::sleep(std::time::Duration::from_nanos(nanos as u64));
}
