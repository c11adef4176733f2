//! `offset_copy` and `stride_copy` for 2-, 8- and 16-byte elements (the
//! 4-byte versions are the guide's listings, in their own files).
//!
//! The OpenCL guide discusses coalescing for 4-, 8- and 16-byte words; these
//! kernels show how the element size changes the cost of misalignment and
//! stride today. 2-byte elements are `f16` data moved as raw `u16` bits.
//!
//! **Indexing, launch, safety**: exactly as `offset_copy` / `stride_copy`,
//! in elements of the given width.
//!
//! **Expected**: with 32-byte sectors, a misaligned warp touches one extra
//! sector whatever the width, so wider elements dilute the penalty; a stride
//! of `s` wastes `min(s, 32 / width)`-fold, so 16-byte elements lose less at
//! stride 2 than 2-byte ones do at stride 16.

use crate::device::{F32x4, GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

#[inline(always)]
unsafe fn offset_copy_body<T: Copy>(odata: GlobalMutPtr<T>, idata: GlobalPtr<T>, offset: i32) {
    let xid = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32 + offset;
    // SAFETY: forwarded from the kernel's contract.
    unsafe { odata.store(xid as isize, idata.load(xid as isize)) };
}

#[inline(always)]
unsafe fn stride_copy_body<T: Copy>(odata: GlobalMutPtr<T>, idata: GlobalPtr<T>, stride: i32) {
    let xid = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32 * stride;
    // SAFETY: forwarded from the kernel's contract.
    unsafe { odata.store(xid as isize, idata.load(xid as isize)) };
}

macro_rules! width_kernels {
    ($offset:ident, $stride:ident, $elem:ty, $what:literal) => {
        kernel! {
            #[doc = concat!("`offset_copy` for ", $what, " (see the module docs).")]
            ///
            /// # Safety
            /// `grid * block + offset <= len` of both buffers, `offset >= 0`.
            pub unsafe fn $offset(odata: GlobalMutPtr<$elem>, idata: GlobalPtr<$elem>, offset: i32) {
                // SAFETY: forwarded contract.
                unsafe { offset_copy_body(odata, idata, offset) }
            }
        }
        kernel! {
            #[doc = concat!("`stride_copy` for ", $what, " (see the module docs).")]
            ///
            /// # Safety
            /// `(grid * block - 1) * stride < len` of both buffers and fits an `i32`.
            pub unsafe fn $stride(odata: GlobalMutPtr<$elem>, idata: GlobalPtr<$elem>, stride: i32) {
                // SAFETY: forwarded contract.
                unsafe { stride_copy_body(odata, idata, stride) }
            }
        }
    };
}

width_kernels!(offset_copy_f16, stride_copy_f16, u16, "2-byte elements (f16 bits)");
width_kernels!(offset_copy_f64, stride_copy_f64, f64, "8-byte elements (f64)");
width_kernels!(offset_copy_f32x4, stride_copy_f32x4, F32x4, "16-byte elements (float4)");
