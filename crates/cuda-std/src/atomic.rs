//! Atomic floats with a CUDA scope (Rust-CUDA's `cuda_std::atomic`).
//!
//! Each type is an `f32` or `f64` in memory (`#[repr(C)]`, its alignment),
//! whose operations are single PTX instructions at the type's scope:
//! `atom.<order>.<scope>.add.f32` for `fetch_add`, `ld.<order>.<scope>`
//! for `load`, `st.<order>.<scope>` for `store`, with `Relaxed`, `Acquire`,
//! `Release` and `AcqRel` as PTX's `.relaxed`, `.acquire`, `.release`,
//! `.acq_rel` and `SeqCst` as `fence.sc.<scope>` before the access (the PTX
//! memory model's mapping of C++'s orders, sm_70 and newer). Addresses are
//! generic, so an atomic in shared memory works too.
//!
//! On the host they are the same bits behind `AtomicU32`/`AtomicU64`, with
//! a compare-and-swap loop for the arithmetic (what the emulator runs).
//!
//! Integer atomics need nothing from this crate: rustc's nvptx target
//! compiles `core::sync::atomic` to PTX `atom` instructions. Rust-CUDA's
//! lower layers (`atomic::mid`, `atomic::intrinsics`) are not offered.

use core::cell::UnsafeCell;
use core::sync::atomic::Ordering;

/// `fetch_update`'s failure ordering for `order`, as `core` requires it.
#[cfg(not(target_arch = "nvptx64"))]
fn failure_order(order: Ordering) -> Ordering {
    match order {
        Ordering::Release | Ordering::Relaxed => Ordering::Relaxed,
        Ordering::Acquire | Ordering::AcqRel => Ordering::Acquire,
        _ => Ordering::SeqCst,
    }
}

/// One `atom.<order>.<scope>.<op>.<kind> {previous}, [{address}], {value};`
/// with the order `$order` (`SeqCst`: `fence.sc.<scope>` then `.acq_rel`).
#[cfg(target_arch = "nvptx64")]
macro_rules! ordered_atom {
    ($order:expr, $scope:literal, $op:literal, $kind:literal, $($operands:tt)*) => {
        // SAFETY: the pointer is the atomic's own, valid and aligned for its lifetime.
        unsafe {
            match $order {
                Ordering::Relaxed => core::arch::asm!(
                    concat!("atom.relaxed.", $scope, ".", $op, ".", $kind, " {previous}, [{address}], {value};"), $($operands)*),
                Ordering::Acquire => core::arch::asm!(
                    concat!("atom.acquire.", $scope, ".", $op, ".", $kind, " {previous}, [{address}], {value};"), $($operands)*),
                Ordering::Release => core::arch::asm!(
                    concat!("atom.release.", $scope, ".", $op, ".", $kind, " {previous}, [{address}], {value};"), $($operands)*),
                Ordering::AcqRel => core::arch::asm!(
                    concat!("atom.acq_rel.", $scope, ".", $op, ".", $kind, " {previous}, [{address}], {value};"), $($operands)*),
                _ => core::arch::asm!(
                    concat!("fence.sc.", $scope, "; atom.acq_rel.", $scope, ".", $op, ".", $kind, " {previous}, [{address}], {value};"),
                    $($operands)*),
            }
        }
    };
}

macro_rules! atomic_float {
    (
        $(#[$doc:meta])* $name:ident, $float:ident, $bits:ident, $atomic_bits:ident, $align:literal,
        $scope:literal, $ptx_float:literal, $ptx_bits:literal, $reg:ident, [$($unsafety:tt)?]
    ) => {
        $(#[$doc])*
        #[repr(C, align($align))]
        pub struct $name {
            value: UnsafeCell<$float>,
        }

        // SAFETY: every access goes through atomic instructions (or the host's atomics).
        unsafe impl Sync for $name {}

        // The block-scoped types' `# Safety` sections are built with `concat!`, which the lint does not read.
        #[allow(clippy::missing_safety_doc)]
        impl $name {
            /// A new atomic holding `value`.
            pub const fn new(value: $float) -> Self {
                Self { value: UnsafeCell::new(value) }
            }

            /// The value, consuming the atomic.
            pub fn into_inner(self) -> $float {
                self.value.into_inner()
            }

            #[cfg(not(target_arch = "nvptx64"))]
            fn bits(&self) -> &core::sync::atomic::$atomic_bits {
                // SAFETY: same size and alignment as the float; only accessed atomically.
                unsafe { &*(self.value.get() as *const core::sync::atomic::$atomic_bits) }
            }

            #[cfg(not(target_arch = "nvptx64"))]
            fn update(&self, order: Ordering, op: impl Fn($float) -> $float) -> $float {
                let previous = self
                    .bits()
                    .try_update(order, failure_order(order), |bits| Some(op($float::from_bits(bits)).to_bits()));
                $float::from_bits(previous.unwrap_or_else(|bits| bits))
            }

            /// Adds `value`; returns the value before (`atom.add`).
            $(#[doc = concat!("\n# Safety\n`", stringify!($unsafety), "` because it is block-scoped: threads of other blocks touching it concurrently are not ordered with this block's.")])?
            #[inline(always)]
            pub $($unsafety)? fn fetch_add(&self, value: $float, order: Ordering) -> $float {
                #[cfg(target_arch = "nvptx64")]
                {
                    let previous: $float;
                    ordered_atom!(order, $scope, "add", $ptx_float,
                        previous = out($reg) previous, address = in(reg64) self.value.get(), value = in($reg) value,
                        options(nostack));
                    previous
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    self.update(order, |current| current + value)
                }
            }

            /// Subtracts `value` (adds `-value`, as CUDA has no float `atom.sub`); returns the value before.
            $(#[doc = concat!("\n# Safety\n`", stringify!($unsafety), "`: as `fetch_add`.")])?
            #[inline(always)]
            pub $($unsafety)? fn fetch_sub(&self, value: $float, order: Ordering) -> $float {
                #[allow(unused_unsafe)]
                // SAFETY: forwarded contract.
                unsafe { self.fetch_add(-value, order) }
            }

            /// Bitwise and of the bits with `value`'s; returns the value before (`atom.and`).
            $(#[doc = concat!("\n# Safety\n`", stringify!($unsafety), "`: as `fetch_add`.")])?
            #[inline(always)]
            pub $($unsafety)? fn fetch_and(&self, value: $float, order: Ordering) -> $float {
                #[cfg(target_arch = "nvptx64")]
                {
                    let previous: $bits;
                    ordered_atom!(order, $scope, "and", $ptx_bits,
                        previous = out($reg) previous, address = in(reg64) self.value.get(), value = in($reg) value.to_bits(),
                        options(nostack));
                    $float::from_bits(previous)
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    $float::from_bits(self.bits().fetch_and(value.to_bits(), order))
                }
            }

            /// Bitwise or of the bits with `value`'s; returns the value before (`atom.or`).
            $(#[doc = concat!("\n# Safety\n`", stringify!($unsafety), "`: as `fetch_add`.")])?
            #[inline(always)]
            pub $($unsafety)? fn fetch_or(&self, value: $float, order: Ordering) -> $float {
                #[cfg(target_arch = "nvptx64")]
                {
                    let previous: $bits;
                    ordered_atom!(order, $scope, "or", $ptx_bits,
                        previous = out($reg) previous, address = in(reg64) self.value.get(), value = in($reg) value.to_bits(),
                        options(nostack));
                    $float::from_bits(previous)
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    $float::from_bits(self.bits().fetch_or(value.to_bits(), order))
                }
            }

            /// Bitwise exclusive or of the bits with `value`'s; returns the value before (`atom.xor`).
            $(#[doc = concat!("\n# Safety\n`", stringify!($unsafety), "`: as `fetch_add`.")])?
            #[inline(always)]
            pub $($unsafety)? fn fetch_xor(&self, value: $float, order: Ordering) -> $float {
                #[cfg(target_arch = "nvptx64")]
                {
                    let previous: $bits;
                    ordered_atom!(order, $scope, "xor", $ptx_bits,
                        previous = out($reg) previous, address = in(reg64) self.value.get(), value = in($reg) value.to_bits(),
                        options(nostack));
                    $float::from_bits(previous)
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    $float::from_bits(self.bits().fetch_xor(value.to_bits(), order))
                }
            }

            /// Reads the value (`ld.relaxed` / `ld.acquire`; `SeqCst` fences first).
            ///
            /// # Panics
            /// For `Release` and `AcqRel`, as `core`'s atomics.
            $(#[doc = concat!("\n# Safety\n`", stringify!($unsafety), "`: as `fetch_add`.")])?
            #[inline(always)]
            pub $($unsafety)? fn load(&self, order: Ordering) -> $float {
                #[cfg(target_arch = "nvptx64")]
                {
                    let bits: $bits;
                    let address = self.value.get();
                    // SAFETY: the pointer is the atomic's own, valid and aligned.
                    unsafe {
                        match order {
                            Ordering::Relaxed => core::arch::asm!(concat!("ld.relaxed.", $scope, ".", $ptx_bits, " {bits}, [{address}];"),
                                bits = out($reg) bits, address = in(reg64) address, options(nostack)),
                            Ordering::Acquire => core::arch::asm!(concat!("ld.acquire.", $scope, ".", $ptx_bits, " {bits}, [{address}];"),
                                bits = out($reg) bits, address = in(reg64) address, options(nostack)),
                            Ordering::SeqCst => core::arch::asm!(concat!("fence.sc.", $scope, "; ld.acquire.", $scope, ".", $ptx_bits, " {bits}, [{address}];"),
                                bits = out($reg) bits, address = in(reg64) address, options(nostack)),
                            _ => panic!("there is no Release or AcqRel atomic load"),
                        }
                    }
                    $float::from_bits(bits)
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    $float::from_bits(self.bits().load(order))
                }
            }

            /// Writes the value (`st.relaxed` / `st.release`; `SeqCst` fences first).
            ///
            /// # Panics
            /// For `Acquire` and `AcqRel`, as `core`'s atomics.
            $(#[doc = concat!("\n# Safety\n`", stringify!($unsafety), "`: as `fetch_add`.")])?
            #[inline(always)]
            pub $($unsafety)? fn store(&self, value: $float, order: Ordering) {
                #[cfg(target_arch = "nvptx64")]
                {
                    let (bits, address) = (value.to_bits(), self.value.get());
                    // SAFETY: the pointer is the atomic's own, valid and aligned.
                    unsafe {
                        match order {
                            Ordering::Relaxed => core::arch::asm!(concat!("st.relaxed.", $scope, ".", $ptx_bits, " [{address}], {bits};"),
                                bits = in($reg) bits, address = in(reg64) address, options(nostack)),
                            Ordering::Release => core::arch::asm!(concat!("st.release.", $scope, ".", $ptx_bits, " [{address}], {bits};"),
                                bits = in($reg) bits, address = in(reg64) address, options(nostack)),
                            Ordering::SeqCst => core::arch::asm!(concat!("fence.sc.", $scope, "; st.relaxed.", $scope, ".", $ptx_bits, " [{address}], {bits};"),
                                bits = in($reg) bits, address = in(reg64) address, options(nostack)),
                            _ => panic!("there is no Acquire or AcqRel atomic store"),
                        }
                    }
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    self.bits().store(value.to_bits(), order)
                }
            }
        }
    };
}

atomic_float!(
    /// An `f32` updated atomically by every thread of the launch (device scope, PTX `.gpu`).
    AtomicF32,
    f32,
    u32,
    AtomicU32,
    4,
    "gpu",
    "f32",
    "b32",
    reg32,
    []
);
atomic_float!(
    /// An `f64` updated atomically by every thread of the launch (device scope, PTX `.gpu`).
    AtomicF64,
    f64,
    u64,
    AtomicU64,
    8,
    "gpu",
    "f64",
    "b64",
    reg64,
    []
);
atomic_float!(
    /// An `f32` updated atomically by the threads of one block (PTX `.cta`,
    /// cheaper); `unsafe` because threads of other blocks racing on it are not
    /// ordered.
    BlockAtomicF32, f32, u32, AtomicU32, 4, "cta", "f32", "b32", reg32, [unsafe]
);
atomic_float!(
    /// An `f64` updated atomically by the threads of one block (PTX `.cta`).
    BlockAtomicF64, f64, u64, AtomicU64, 8, "cta", "f64", "b64", reg64, [unsafe]
);
atomic_float!(
    /// An `f32` updated atomically across the system: host and peer GPUs
    /// through mapped memory too (PTX `.sys`).
    SystemAtomicF32,
    f32,
    u32,
    AtomicU32,
    4,
    "sys",
    "f32",
    "b32",
    reg32,
    []
);
atomic_float!(
    /// An `f64` updated atomically across the system (PTX `.sys`).
    SystemAtomicF64,
    f64,
    u64,
    AtomicU64,
    8,
    "sys",
    "f64",
    "b64",
    reg64,
    []
);
