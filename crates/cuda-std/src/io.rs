//! `print!`, `println!`, `assert_eq!` and `assert_ne!` from kernels
//! (Rust-CUDA's `cuda_std::io` and its macros).
//!
//! On the GPU a line is formatted by `core::fmt` into a 256-byte buffer on
//! the thread's stack (longer lines are cut at 255 bytes) and handed to the
//! `vprintf` system call the CUDA driver provides, as `"%s"`. The driver
//! keeps the output in a ring buffer (1 MiB by default) that it prints at
//! the next synchronisation; lines of different threads do not interleave.
//! It costs local memory and registers where it is used, and nothing where
//! it is not. On the host the macros are `std`'s `print!` and `println!`.

/// Bytes of one printed line on the GPU, the terminating NUL included.
pub const LINE_BYTES: usize = 256;

#[cfg(target_arch = "nvptx64")]
unsafe extern "C" {
    /// The CUDA driver's `printf` system call: a NUL-terminated format and a
    /// buffer of the arguments, each aligned to its size.
    fn vprintf(format: *const u8, arguments: *const u8) -> i32;
}

/// A line being formatted on the GPU: the bytes so far, cut at `LINE_BYTES - 1`.
#[cfg(target_arch = "nvptx64")]
struct Line {
    bytes: [u8; LINE_BYTES],
    len: usize,
}

#[cfg(target_arch = "nvptx64")]
impl core::fmt::Write for Line {
    fn write_str(&mut self, text: &str) -> core::fmt::Result {
        let room = LINE_BYTES - 1 - self.len;
        let taken = text.len().min(room);
        self.bytes[self.len..self.len + taken].copy_from_slice(&text.as_bytes()[..taken]);
        self.len += taken;
        Ok(())
    }
}

/// Prints formatted text (what [`print!`](crate::print) expands to).
#[doc(hidden)]
pub fn __print(arguments: core::fmt::Arguments<'_>) {
    #[cfg(target_arch = "nvptx64")]
    {
        let mut line = Line {
            bytes: [0; LINE_BYTES],
            len: 0,
        };
        let _ = core::fmt::write(&mut line, arguments);
        line.bytes[line.len] = 0;
        let argument: [*const u8; 1] = [line.bytes.as_ptr()];
        // SAFETY: a NUL-terminated "%s" and one pointer to a NUL-terminated string, alive during the call.
        unsafe { vprintf(c"%s".as_ptr().cast(), argument.as_ptr().cast()) };
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        use std::io::Write;
        let _ = std::io::stdout().write_fmt(arguments);
    }
}

/// Reports a failed `assert_eq!`/`assert_ne!` and panics (a trap on the GPU).
#[doc(hidden)]
#[track_caller]
pub fn __assertion_failed(
    comparison: &str,
    left: &dyn core::fmt::Debug,
    right: &dyn core::fmt::Debug,
    message: Option<core::fmt::Arguments<'_>>,
) -> ! {
    let location = core::panic::Location::caller();
    match message {
        Some(message) => crate::println!(
            "assertion `left {comparison} right` failed at {location}: {message}\n  left: {left:?}\n right: {right:?}"
        ),
        None => crate::println!(
            "assertion `left {comparison} right` failed at {location}\n  left: {left:?}\n right: {right:?}"
        ),
    }
    panic!("assertion `left {comparison} right` failed")
}

/// Prints to the console: on the GPU through `vprintf` (see the [module](crate::io)).
#[macro_export]
macro_rules! print {
    ($($argument:tt)*) => {
        $crate::io::__print(::core::format_args!($($argument)*))
    };
}

/// Prints a line to the console: on the GPU through `vprintf` (see the [module](crate::io)).
#[macro_export]
macro_rules! println {
    () => {
        $crate::io::__print(::core::format_args!("\n"))
    };
    ($($argument:tt)*) => {
        $crate::io::__print(::core::format_args!("{}\n", ::core::format_args!($($argument)*)))
    };
}

/// `assert_eq!` that prints both values (through [`println!`]) before it
/// panics, so the GPU's console says what failed before the launch traps.
#[macro_export]
macro_rules! assert_eq {
    ($left:expr, $right:expr $(,)?) => {
        match (&$left, &$right) {
            (left, right) => {
                if !(*left == *right) {
                    $crate::io::__assertion_failed("==", &*left, &*right, ::core::option::Option::None)
                }
            }
        }
    };
    ($left:expr, $right:expr, $($message:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                if !(*left == *right) {
                    $crate::io::__assertion_failed(
                        "==", &*left, &*right, ::core::option::Option::Some(::core::format_args!($($message)+)))
                }
            }
        }
    };
}

/// `assert_ne!` that prints both values before it panics (see [`assert_eq!`]).
#[macro_export]
macro_rules! assert_ne {
    ($left:expr, $right:expr $(,)?) => {
        match (&$left, &$right) {
            (left, right) => {
                if *left == *right {
                    $crate::io::__assertion_failed("!=", &*left, &*right, ::core::option::Option::None)
                }
            }
        }
    };
    ($left:expr, $right:expr, $($message:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                if *left == *right {
                    $crate::io::__assertion_failed(
                        "!=", &*left, &*right, ::core::option::Option::Some(::core::format_args!($($message)+)))
                }
            }
        }
    };
}
