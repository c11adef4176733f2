//! The device layer: what a kernel may call.
//!
//! Each function has two implementations selected by `target_arch`: the GPU
//! one (PTX special registers, `bar.sync`, `ld.global`, `tex`, `fma.rn`) and
//! the CPU-emulator one, which reads the emulated thread's context and checks
//! every memory access. Kernels written only against this module therefore
//! run unchanged in both places.

mod accurate_math;
mod angle_reduction;
mod clock;
mod constant_memory;
mod dim3;
mod fast_math;
mod fast_trig;
mod global_ptr;
mod half_float;
mod index;
mod math;
mod packed_half;
mod shared_memory;
mod sync;
mod texture;
mod timer;
mod vector;
mod warp;

pub use accurate_math::{EXP_ACCURATE_MAX_ULP, SIN_ACCURATE_MAX_ULP, exp_accurate, sin_accurate};
pub use angle_reduction::CODY_WAITE_LIMIT;
pub use clock::clock64;
pub use constant_memory::{CONSTANT_SYMBOL, CONSTANT_WORDS, constant_word};
pub use dim3::Dim3;
pub use fast_math::{div_approx, ex2_approx, exp_fast, lg2_approx, rcp_approx, rsqrt_approx};
pub use fast_trig::{FAST_COS_MAX_ABS_ERROR, FAST_SIN_MAX_ABS_ERROR, cos_approx, sin_approx};
pub use global_ptr::{GlobalMutPtr, GlobalPtr};
pub use half_float::f16_bits_to_f32;
pub use index::{
    block_dim_x, block_dim_y, block_dim_z, block_idx_x, block_idx_y, block_idx_z, grid_dim_x, grid_dim_y, grid_dim_z,
    thread_idx_x, thread_idx_y, thread_idx_z,
};
pub use math::{fma, fma_f64, sqrt};
pub use packed_half::{fma_f16x2, pack_f16x2};
pub use shared_memory::{SharedPtr, dynamic_shared_memory};
pub use sync::sync_threads;
pub use texture::{TextureObject, tex1d_fetch_f32x4};
pub use timer::global_timer_ns;
pub use vector::F32x4;
pub use warp::{WARP_SIZE, shfl_down_sync};
