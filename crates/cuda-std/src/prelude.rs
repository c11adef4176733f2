//! `use cuda_std::prelude::*;`: what Rust-CUDA's prelude brings in.
//!
//! The kernel attribute and the `thread` module everywhere. `print!` and
//! `println!` are this crate's on the GPU (through `vprintf`) and `std`'s on
//! the host; `assert_eq!`/`assert_ne!` are the language's own (a glob import
//! may not shadow a macro of the standard prelude: the printing versions are
//! [`cuda_std::assert_eq!`](crate::assert_eq)). The heap types and `format!`
//! are `std`'s on the host and compile-time errors with the reason on the
//! GPU. Rust-CUDA's `f16` (the `half` crate) is not re-exported.

pub use crate::kernel;
pub use crate::thread;
pub use core::{assert_eq, assert_ne};

#[cfg(target_arch = "nvptx64")]
pub use crate::{print, println};
#[cfg(not(target_arch = "nvptx64"))]
pub use std::{print, println};

#[cfg(not(target_arch = "nvptx64"))]
pub use std::{
    borrow::ToOwned,
    boxed::Box,
    format,
    rc::Rc,
    string::{String, ToString},
    vec::Vec,
};

#[cfg(target_arch = "nvptx64")]
pub use crate::__format_needs_a_heap as format;
#[cfg(target_arch = "nvptx64")]
pub use crate::no_heap::{Box, Rc, String, Vec};
