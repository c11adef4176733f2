use std::fmt;

use crate::Dim3;

/// What went wrong in one emulated thread.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum FaultKind {
    /// A global load or store outside every registered buffer.
    GlobalOutOfBounds {
        /// A store (else a load).
        write: bool,
        /// Element index the kernel used, relative to its pointer.
        index: isize,
        /// Bytes per element.
        elem_bytes: usize,
        /// Length in bytes of the buffer the pointer points into, if any.
        buffer_bytes: Option<usize>,
    },
    /// A store through a buffer registered read-only.
    WriteToReadOnly {
        /// Element index the kernel used, relative to its pointer.
        index: isize,
    },
    /// An access whose address is not a multiple of the element's alignment.
    Misaligned {
        /// The address accessed.
        address: usize,
        /// The alignment the element type needs, in bytes.
        align: usize,
    },
    /// A shared-memory access past the launch's dynamic shared memory.
    SharedOutOfBounds {
        /// A store (else a load).
        write: bool,
        /// Element index, relative to the [`SharedPtr`](crate::SharedPtr) used.
        index: usize,
        /// Bytes per element.
        elem_bytes: usize,
        /// The launch's dynamic shared memory, in bytes.
        shared_bytes: usize,
    },
    /// A read of the constant array past the words registered for the launch.
    ConstantOutOfBounds {
        /// The word read.
        index: u32,
        /// Words registered with the emulator.
        words: usize,
    },
    /// A texture handle that was not registered.
    UnknownTexture {
        /// The handle passed to the kernel.
        handle: u64,
    },
    /// Some threads wait at a barrier that others will never reach.
    BarrierDeadlock {
        /// Who waits where, and who returned.
        detail: String,
    },
    /// Threads of one block wait at different `sync_threads` calls.
    BarrierDivergence {
        /// Source location of the barrier the first threads wait at.
        first: String,
        /// Source location of the other barrier.
        second: String,
    },
    /// A barrier did not complete in time.
    BarrierTimeout {
        /// Source location of the barrier.
        site: String,
    },
    /// The kernel panicked (it would trap on the GPU).
    KernelPanic {
        /// The panic's message.
        message: String,
    },
    /// A device-layer function was called with no launch in progress.
    OutsideLaunch,
}

/// A fault and the thread it happened in.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    /// `blockIdx` of the faulting thread.
    pub block: Dim3,
    /// `threadIdx` of the faulting thread.
    pub thread: Dim3,
    /// What it did.
    pub kind: FaultKind,
}

/// Why an emulated launch failed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum EmulatorError {
    /// The launch configuration itself is invalid (as `cuLaunchKernel` would say).
    InvalidConfig(String),
    /// The kernel faulted; the first faults recorded, and how many in all.
    Faults {
        /// The first faults, in the order they were recorded (at most 8).
        first: Vec<Fault>,
        /// All faults recorded before the launch stopped.
        total: usize,
    },
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::GlobalOutOfBounds {
                write,
                index,
                elem_bytes,
                buffer_bytes,
            } => {
                let what = if *write { "write" } else { "read" };
                match buffer_bytes {
                    Some(bytes) => write!(
                        f,
                        "out-of-bounds global {what} of element {index} ({elem_bytes} B each) from a buffer of {} elements",
                        bytes / elem_bytes.max(&1)
                    ),
                    None => write!(
                        f,
                        "global {what} of element {index} through a pointer into no registered buffer"
                    ),
                }
            }
            FaultKind::WriteToReadOnly { index } => {
                write!(f, "write of element {index} through a read-only buffer")
            }
            FaultKind::Misaligned { address, align } => {
                write!(f, "misaligned access at {address:#x} (needs {align}-byte alignment)")
            }
            FaultKind::SharedOutOfBounds {
                write,
                index,
                elem_bytes,
                shared_bytes,
            } => write!(
                f,
                "out-of-bounds shared-memory {} of element {index} ({elem_bytes} B each); the launch has {shared_bytes} B of dynamic shared memory",
                if *write { "write" } else { "read" }
            ),
            FaultKind::ConstantOutOfBounds { index, words } => write!(
                f,
                "read of constant word {index}; the launch registered {words} constant words"
            ),
            FaultKind::UnknownTexture { handle } => write!(f, "texture handle {handle} was not registered"),
            FaultKind::BarrierDeadlock { detail } => write!(f, "barrier deadlock: {detail}"),
            FaultKind::BarrierDivergence { first, second } => write!(
                f,
                "barrier divergence: threads of one block wait at sync_threads at {first} and at {second}"
            ),
            FaultKind::BarrierTimeout { site } => {
                write!(
                    f,
                    "sync_threads at {site} did not complete within the emulator's timeout"
                )
            }
            FaultKind::KernelPanic { message } => write!(f, "kernel panicked (a trap on the GPU): {message}"),
            FaultKind::OutsideLaunch => write!(f, "device function called outside an emulated launch"),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "thread ({},{},{}) of block ({},{},{}): {}",
            self.thread.x, self.thread.y, self.thread.z, self.block.x, self.block.y, self.block.z, self.kind
        )
    }
}

impl fmt::Display for EmulatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmulatorError::InvalidConfig(why) => write!(f, "invalid launch configuration: {why}"),
            EmulatorError::Faults { first, total } => {
                write!(f, "emulated kernel faulted {total} time(s)")?;
                for fault in first {
                    write!(f, "\n  {fault}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for EmulatorError {}

impl EmulatorError {
    /// The recorded faults (empty for an invalid configuration).
    pub fn faults(&self) -> &[Fault] {
        match self {
            EmulatorError::Faults { first, .. } => first,
            EmulatorError::InvalidConfig(_) => &[],
        }
    }

    /// Whether any recorded fault is of a kind `is` accepts.
    pub fn has_fault(&self, is: impl Fn(&FaultKind) -> bool) -> bool {
        self.faults().iter().any(|f| is(&f.kind))
    }
}
