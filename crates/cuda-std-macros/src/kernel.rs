//! `#[kernel]`: one function written once, two expansions.
//!
//! * `nvptx64`: `#[unsafe(no_mangle)] unsafe extern "ptx-kernel" fn` (a PTX
//!   `.visible .entry`), through `cuda_std::__kernel_entry!`, which may use
//!   the unstable ABI on the kernel crate's behalf. Each `&[T]` parameter
//!   is passed as two parameters, `*const T` and `usize` (Rust-CUDA's kernel
//!   ABI), and rebuilt into the slice before the body runs.
//! * the host: the function with the signature as written (no ABI), which
//!   `cuda_std::emulator::launch` runs once per emulated thread.
//!
//! Both start by checking that every parameter type is `Copy` (the driver
//! copies parameters into every thread), with a message that says why.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Error, FnArg, GenericParam, ItemFn, ReturnType, Type};

pub fn expand(_hints: TokenStream, item: TokenStream) -> TokenStream {
    // Rust-CUDA's launch-dimension hints (`#[kernel(grid_dim = 1d)]`) are accepted
    // and, like the optimisations they fed in its own back end, have no effect here.
    let function: ItemFn = match syn::parse2(item) {
        Ok(function) => function,
        Err(error) => return error.to_compile_error(),
    };
    match rewrite(&function) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

/// Why a signature cannot be a kernel, as the compile error says it.
fn check_signature(function: &ItemFn) -> Result<(), Error> {
    let sig = &function.sig;
    if sig.unsafety.is_none() {
        return Err(Error::new(
            sig.fn_token.span(),
            "a #[kernel] must be an `unsafe fn`: nothing on the GPU checks its indices, so launching it \
             is the caller's promise that they stay inside the buffers (Rust-CUDA's rule as well)",
        ));
    }
    if let Some(token) = &sig.asyncness {
        return Err(Error::new(token.span(), "a #[kernel] cannot be `async`"));
    }
    if let Some(token) = &sig.constness {
        return Err(Error::new(token.span(), "a #[kernel] cannot be `const`"));
    }
    if let Some(variadic) = &sig.variadic {
        return Err(Error::new(variadic.span(), "a #[kernel] cannot be variadic"));
    }
    if let Some(generic) = sig
        .generics
        .params
        .iter()
        .find(|p| !matches!(p, GenericParam::Lifetime(_)))
    {
        return Err(Error::new(
            generic.span(),
            "a #[kernel] cannot be generic: a PTX `.entry` has one name and one parameter list; \
             write one kernel per type (a macro can stamp them out)",
        ));
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        return Err(Error::new(
            ty.span(),
            "a #[kernel] returns nothing: write its results through a pointer or slice parameter",
        ));
    }
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => {
                return Err(Error::new(
                    receiver.span(),
                    "a #[kernel] cannot be a method (no `self`)",
                ));
            }
            FnArg::Typed(typed) => check_parameter_type(&typed.ty)?,
        }
    }
    Ok(())
}

/// Parameter types the kernel ABI cannot carry as written.
fn check_parameter_type(ty: &Type) -> Result<(), Error> {
    match ty {
        Type::Reference(reference) if reference.mutability.is_some() => {
            let what = if matches!(*reference.elem, Type::Slice(_)) {
                "`&mut [T]`"
            } else {
                "`&mut T`"
            };
            Err(Error::new(
                ty.span(),
                format!(
                    "a #[kernel] cannot take {what}: every thread of the launch gets a copy of each parameter, \
                     so all of them would hold the same mutable reference; take `*mut T` (and a length) and \
                     write through it in `unsafe` blocks, as Rust-CUDA's kernel ABI guide says"
                ),
            ))
        }
        Type::Reference(reference) if is_str(&reference.elem) => Err(Error::new(
            ty.span(),
            "a #[kernel] cannot take `&str`: Rust-CUDA's kernel ABI splits slices only; take `&[u8]`",
        )),
        Type::ImplTrait(_) => Err(Error::new(
            ty.span(),
            "a #[kernel] cannot take `impl Trait`: that makes it generic, and a PTX `.entry` is not",
        )),
        _ => Ok(()),
    }
}

fn is_str(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none() && path.path.is_ident("str"))
}

/// `T` of a `&[T]` parameter type.
fn slice_element(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Reference(reference) if reference.mutability.is_none() => match &*reference.elem {
            Type::Slice(slice) => Some(&slice.elem),
            _ => None,
        },
        Type::Paren(inner) => slice_element(&inner.elem),
        _ => None,
    }
}

fn rewrite(function: &ItemFn) -> Result<TokenStream, Error> {
    check_signature(function)?;
    let ItemFn { attrs, vis, sig, block } = function;
    let name = &sig.ident;

    let mut checks = Vec::new();
    let mut entry_parameters = Vec::new();
    let mut prologue = Vec::new();
    for (position, input) in sig.inputs.iter().enumerate() {
        let FnArg::Typed(typed) = input else {
            unreachable!("check_signature refused receivers");
        };
        let (pattern, ty) = (&typed.pat, &typed.ty);
        checks.push(quote! { ::cuda_std::__private::kernel_parameter::<#ty>(); });
        match slice_element(ty) {
            Some(element) => {
                let pointer = format_ident!("__cuda_std_slice_{}_pointer", position);
                let length = format_ident!("__cuda_std_slice_{}_length", position);
                entry_parameters.push(quote! { #pointer: *const #element });
                entry_parameters.push(quote! { #length: usize });
                prologue.push(quote! {
                    #[allow(unused_unsafe)]
                    // SAFETY: the launch passes the slice as (pointer, length) of one live
                    // allocation, Rust-CUDA's kernel ABI; the kernel is `unsafe` for that reason.
                    let #pattern: #ty = unsafe { ::cuda_std::__private::slice_parameter(#pointer, #length) };
                });
            }
            None => entry_parameters.push(quote! { #pattern: #ty }),
        }
    }

    let mut host_sig = sig.clone();
    host_sig.abi = None;
    Ok(quote! {
        #[cfg(target_arch = "nvptx64")]
        ::cuda_std::__kernel_entry! {
            [#(#attrs)*] [#vis] #name [#(#entry_parameters),*] {
                #(#checks)*
                #(#prologue)*
                #block
            }
        }

        #[cfg(not(target_arch = "nvptx64"))]
        #(#attrs)*
        #vis #host_sig {
            #(#checks)*
            #block
        }
    })
}
