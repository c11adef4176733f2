//! The prelude's heap names on the GPU: each is a compile-time error that
//! says why (the PTX build links `core` only, so Rust-CUDA's device
//! allocator and `alloc` are not there). On the host the prelude has
//! `std`'s.
#![cfg(target_arch = "nvptx64")]

use crate::refusal::NeedsHeap;

/// Not on the GPU: see [`NeedsHeap`].
pub type Vec<T> = <T as NeedsHeap>::Unavailable;
/// Not on the GPU: see [`NeedsHeap`].
pub type Box<T> = <T as NeedsHeap>::Unavailable;
/// Not on the GPU: see [`NeedsHeap`].
pub type Rc<T> = <T as NeedsHeap>::Unavailable;
/// Not on the GPU: see [`NeedsHeap`].
pub type String = <str as NeedsHeap>::Unavailable;

/// Not on the GPU: `format!` builds a heap `String`.
#[doc(hidden)]
#[macro_export]
macro_rules! __format_needs_a_heap {
    ($($argument:tt)*) => {
        ::core::compile_error!(
            "no heap on the GPU here: `format!` builds a String, and the PTX build links `core` only; \
             print with cuda_std::println!, or format into a fixed buffer with core::fmt::Write"
        )
    };
}
