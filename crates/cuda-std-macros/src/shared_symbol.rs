//! Unique PTX names for `shared_array!`'s module-scope `.shared` declarations.
//!
//! A name must differ from every other `shared_array!` of the final PTX
//! module, which links the kernel crate with its dependencies: it is made of
//! the crate being compiled (name and a hash of its manifest directory and
//! version, from the variables cargo gives rustc) and a counter of the
//! expansions in this compilation.

use std::sync::atomic::{AtomicUsize, Ordering};

use proc_macro2::{Delimiter, Literal, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};

static EXPANSIONS: AtomicUsize = AtomicUsize::new(0);

/// FNV-1a, 32 bits: a short, stable tag for the crate's identity.
fn fnv1a(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5u32, |hash, byte| {
        (hash ^ byte as u32).wrapping_mul(0x0100_0193)
    })
}

fn crate_tag() -> String {
    let variable = |name: &str| std::env::var(name).unwrap_or_default();
    let name: String = variable("CARGO_CRATE_NAME")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let identity = format!("{}@{}", variable("CARGO_MANIFEST_DIR"), variable("CARGO_PKG_VERSION"));
    format!("{name}_{:08x}", fnv1a(&identity))
}

pub fn expand(input: TokenStream) -> TokenStream {
    let mut tokens: Vec<TokenTree> = input.into_iter().collect();
    let body = match tokens.pop() {
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => group.stream(),
        _ => {
            return quote! { ::core::compile_error!("unique_shared_symbol!: expected `callback { tokens }`"); };
        }
    };
    let callback: TokenStream = tokens.into_iter().collect();
    let number = EXPANSIONS.fetch_add(1, Ordering::Relaxed);
    let symbol = Literal::string(&format!("__cuda_std_shared_{}_{number}", crate_tag()));
    let module = format_ident!("__cuda_std_shared_array_{}", number, span = Span::call_site());
    quote! { #callback! { #symbol, #module, #body } }
}
