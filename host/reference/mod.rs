//! CPU reference implementations: what each kernel must produce, written as
//! plain loops over the thread index, independent of the device layer.

mod global_copy;

pub use global_copy::{offset_copy, stride_copy};
