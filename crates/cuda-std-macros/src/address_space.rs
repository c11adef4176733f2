//! `#[address_space(...)]` on a `static`: what rustc's nvptx target can and cannot do.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Error, Ident, ItemStatic};

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let space: Ident = match syn::parse2(attr) {
        Ok(space) => space,
        Err(error) => return error.to_compile_error(),
    };
    let item_static: ItemStatic = match syn::parse2(item) {
        Ok(item_static) => item_static,
        Err(error) => return error.to_compile_error(),
    };
    let refusal = match space.to_string().as_str() {
        "global" => return quote! { #item_static },
        "shared" => {
            "#[address_space(shared)]: rustc's nvptx target places every `static` in global memory, where it \
             would be one array for the whole grid instead of one per block; declare the array with \
             `let tile = cuda_std::shared_array![T; N];` (a `*mut T` into real `.shared` memory) or use \
             `cuda_std::shared::dynamic_shared_mem::<T>()`"
        }
        "constant" => {
            "#[address_space(constant)]: rustc's nvptx target cannot place a `static` in the constant bank; \
             ptx-device's `constant-memory` feature declares a `.const` array the host fills \
             (`ptx_device::constant_word`)"
        }
        "local" => "#[address_space(local)]: a `static` cannot live in per-thread local memory; use a local variable",
        other => {
            return Error::new(
                space.span(),
                format!("unknown address space `{other}`: expected global, shared, constant or local"),
            )
            .to_compile_error();
        }
    };
    Error::new(space.span(), refusal).to_compile_error()
}
