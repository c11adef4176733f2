//! `#[externally_visible]`: a check that the function is `no_mangle`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Error, ItemFn};

pub fn expand(_attr: TokenStream, item: TokenStream) -> TokenStream {
    let function: ItemFn = match syn::parse2(item) {
        Ok(function) => function,
        Err(error) => return error.to_compile_error(),
    };
    let no_mangle = function.attrs.iter().any(|attr| {
        let text = quote!(#attr).to_string().replace(' ', "");
        text == "#[no_mangle]" || text == "#[unsafe(no_mangle)]"
    });
    if !no_mangle {
        return Error::new(
            function.sig.ident.span(),
            "#[externally_visible] needs `#[unsafe(no_mangle)]` too: the PTX names the function by its symbol",
        )
        .to_compile_error();
    }
    quote! { #function }
}
