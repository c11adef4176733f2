//! `#[gpu_only]`: the GPU body, and on the host a function that says it is GPU-only.

use proc_macro2::TokenStream;
use quote::quote;
use syn::ItemFn;

pub fn expand(_attr: TokenStream, item: TokenStream) -> TokenStream {
    let function: ItemFn = match syn::parse2(item) {
        Ok(function) => function,
        Err(error) => return error.to_compile_error(),
    };
    let ItemFn { attrs, vis, sig, block } = &function;
    let message = format!("`{}` is #[gpu_only]: it runs on the GPU, not on the host", sig.ident);
    let mut host_sig = sig.clone();
    host_sig.abi = None;
    quote! {
        #[cfg(target_arch = "nvptx64")]
        #(#attrs)* #vis #sig #block

        #[cfg(not(target_arch = "nvptx64"))]
        #[allow(unused_variables)]
        #(#attrs)* #vis #host_sig {
            ::core::panic!(#message)
        }
    }
}
