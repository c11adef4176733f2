use super::register_blocked::{Guarded, StoreTile, Tile128x128, WholeTiles, register_blocked};
use crate::device::{GlobalMutPtr, GlobalPtr};

kernel! {
    /// `sgemm_register_blocked` with `A` and `B` *stored* as IEEE binary16
    /// (`u16` bits) and widened to `f32` as they are staged into shared
    /// memory (`cvt.f32.f16`); accumulation and `C` stay `f32`.
    ///
    /// **Demonstrates** mixed-precision storage without tensor cores: half the
    /// bytes of `A` and `B` per tile (one 8-byte load of each per thread), the
    /// same FP32 arithmetic. Results equal `f32` SGEMM on the inputs rounded to
    /// binary16 (within `f32` rounding), not SGEMM on the original data.
    ///
    /// **Indexing**: as `sgemm_register_blocked`, with 4-half (8-byte) strips
    /// in place of `float4`s; vector loads when `k % 4 == 0` (`A`) and
    /// `n % 4 == 0` (`B`), as there.
    ///
    /// **Launch**: as `sgemm_register_blocked` (256 threads, `(ceil(n / SGEMM_BN),
    /// ceil(m / SGEMM_BM))`, `sgemm_shared_bytes()`): shared memory holds `f32`.
    ///
    /// **Expected**: compute-bound like the `f32` kernel, the widening
    /// `cvt.f32.f16` costing issue slots. Measured on an H100 (this guarded
    /// entry at 4095³; [`hgemm_f16_storage_whole_tiles`] at 4096³, see there):
    /// 29.3 TFLOP/s, 0.90 of cuBLAS's f16-storage GEMM with FP32 pedantic
    /// math (`cublasGemmEx`, no tensor cores), 0.95 of its CUDA C twin.
    /// Halves the bytes of `A` and `B`, which matters where loading them
    /// limits (skinny shapes).
    ///
    /// # Safety
    /// `a`: `m * k`, `b`: `k * n` halves, `c`: `m * n` floats, each 16-byte aligned; the launch shape above.
    pub unsafe fn hgemm_f16_storage(a: GlobalPtr<u16>, b: GlobalPtr<u16>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked::<u16, Tile128x128, Guarded, StoreTile>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// [`hgemm_f16_storage`] for problems made of whole tiles: `m` and `n`
    /// multiples of 128, `k` a multiple of 8. No edge guards, and two tiles
    /// per trip of the main loop (see [`sgemm_register_blocked_whole_tiles`](super::sgemm_register_blocked_whole_tiles)).
    ///
    /// **Launch**: as [`hgemm_f16_storage`]; the host picks this entry
    /// whenever the shape allows.
    ///
    /// **Expected**: on an H100 at 4096³, 44.8 TFLOP/s: 1.36x cuBLAS's
    /// f16-storage GEMM with FP32 pedantic math (no tensor cores) and 1.07 of
    /// its CUDA C twin (35.2 TFLOP/s before this entry existed).
    ///
    /// # Safety
    /// As [`hgemm_f16_storage`], and the multiples above.
    pub unsafe fn hgemm_f16_storage_whole_tiles(a: GlobalPtr<u16>, b: GlobalPtr<u16>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked::<u16, Tile128x128, WholeTiles, StoreTile>(a, b, c, m, n, k) }
    }
}
