//! The module's `__constant__` array: data in the GPU's constant bank.
//!
//! Rust has no way to place a `static` in PTX's `.const` state space: rustc's
//! nvptx target puts every `static` (mutable or not) in `.global`, and a
//! by-value array kernel parameter indexed at run time is copied, word by
//! word, into local memory before it is read (`ld.param` then `st.local`
//! and `ld.local`). What works is PTX
//! itself: a file-scope `global_asm!` declares the array in `.const`
//! (LLVM's NVPTX back end copies module assembly into the PTX verbatim), and
//! [`constant_word`] reads it with an `ld.const` in inline assembly, which
//! ptxas turns into `LDC Rd, c[0x3][Ra]` (bank 3 holds a module's
//! `__constant__` data, as for CUDA C). The host fills the array through
//! `cuModuleGetGlobal(CONSTANT_SYMBOL)` and a copy.
//!
//! In the emulator the array is the slice registered with
//! [`Emulator::constant_words`](crate::emulator::Emulator::constant_words);
//! reads past it are faults.
//!
//! Only with the crate feature `constant-memory`: without it no `.const`
//! array is declared in the module.

/// Words (`u32`) in the constant array: 4 KiB of the 64 KiB constant memory.
pub const CONSTANT_WORDS: usize = 1024;

/// The array's PTX name, for `cuModuleGetGlobal` (a CUDA C module that
/// declares `__constant__ unsigned int ptx_device_constant_words[1024];` is
/// filled the same way).
pub const CONSTANT_SYMBOL: &str = "ptx_device_constant_words";

// The declaration must spell CONSTANT_SYMBOL and CONSTANT_WORDS (ptxsuite's tests/ptx_checks.rs holds it to them).
#[cfg(target_arch = "nvptx64")]
core::arch::global_asm!(".visible .const .align 4 .b32 ptx_device_constant_words[1024];");

/// Word `index` of the constant array (`ld.const.u32`): a read through the
/// SM's constant cache (the guides: as fast as a register when a warp's lanes
/// all read one address, serialised over the distinct addresses otherwise).
///
/// # Safety
/// `index < CONSTANT_WORDS`.
#[inline(always)]
#[track_caller]
pub unsafe fn constant_word(index: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let word: u32;
        // SAFETY: the caller keeps index inside the array; the constant bank is read-only during a launch.
        unsafe {
            core::arch::asm!(
                "{{ .reg .u64 %address; mov.u64 %address, ptx_device_constant_words; mad.wide.u32 %address, {index}, 4, %address; ld.const.u32 {word}, [%address]; }}",
                index = in(reg32) index,
                word = out(reg32) word,
                options(pure, readonly, nostack),
            );
        }
        word
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::thread_context::constant_load(index)
    }
}
