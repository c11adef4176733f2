//! The macros of `ptx-cuda-std` (the `cuda_std` library): use them through
//! that crate (`cuda_std::kernel`, `cuda_std::shared_array!`), whose
//! documentation describes them; this crate only exists because procedural
//! macros must live in a crate of their own.
//!
//! Every path the expansions name starts with `::cuda_std`, so the kernel
//! crate must know the library under that name (its `Cargo.toml` names the
//! dependency `cuda_std`, or depends on `ptx-cuda-std`, whose library is
//! called `cuda_std`).

use proc_macro::TokenStream;

mod address_space;
mod externally_visible;
mod gpu_only;
mod kernel;
mod shared_symbol;

/// Makes an `unsafe fn` a kernel: a PTX `.entry` on `nvptx64` with Rust-CUDA's
/// kernel ABI (a `&[T]` parameter becomes a pointer and a length), the same
/// function with its own signature on the host, where the emulator runs it.
/// See `cuda_std::kernel` for the rules and what is refused.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    kernel::expand(attr.into(), item.into()).into()
}

/// Gives a `shared_array!` its PTX name: expands `callback { tokens }` to
/// `callback! { "name", module_name, tokens }` with a name no other
/// `shared_array!` of the build has.
#[doc(hidden)]
#[proc_macro]
pub fn unique_shared_symbol(input: TokenStream) -> TokenStream {
    shared_symbol::expand(input.into()).into()
}

/// Rust-CUDA's `#[address_space(...)]` on a `static`: `global` is what a
/// `static` already is; `shared`, `constant` and `local` are compile-time
/// errors that say what to write instead (rustc's nvptx target puts every
/// `static` in global memory, and a silently misplaced shared array would
/// be shared by the whole grid).
#[proc_macro_attribute]
pub fn address_space(attr: TokenStream, item: TokenStream) -> TokenStream {
    address_space::expand(attr.into(), item.into()).into()
}

/// Rust-CUDA's `#[gpu_only]`: the function as written on the GPU; on the host
/// a function with the same signature that panics, saying so.
#[proc_macro_attribute]
pub fn gpu_only(attr: TokenStream, item: TokenStream) -> TokenStream {
    gpu_only::expand(attr.into(), item.into()).into()
}

/// Rust-CUDA's `#[externally_visible]`: with rustc's nvptx target a
/// `#[unsafe(no_mangle)] pub fn` of the kernel crate is already a visible
/// `.func` of the PTX module, so this only checks that the function is
/// `no_mangle`, as Rust-CUDA's does.
#[proc_macro_attribute]
pub fn externally_visible(attr: TokenStream, item: TokenStream) -> TokenStream {
    externally_visible::expand(attr.into(), item.into()).into()
}
