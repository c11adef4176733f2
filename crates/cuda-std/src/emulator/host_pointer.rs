//! A raw pointer the emulated threads of a launch may share.

/// A `*mut T` into host memory that every emulated thread of a launch may
/// use (a raw pointer is neither `Send` nor `Sync`, so a closure holding one
/// cannot be launched): what a device pointer is to the GPU's threads.
///
/// Writes through it from several threads race exactly as on the GPU: give
/// each thread its own elements.
#[derive(Debug)]
pub struct HostPointer<T>(*mut T);

impl<T> Clone for HostPointer<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for HostPointer<T> {}

// SAFETY: it is only an address; what the kernel does through it is the kernel's contract, as on the GPU.
unsafe impl<T> Send for HostPointer<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for HostPointer<T> {}

impl<T> HostPointer<T> {
    /// Wraps `pointer` (e.g. `vec.as_mut_ptr()`; keep the vector alive and
    /// untouched until the launch returns).
    pub const fn new(pointer: *mut T) -> Self {
        Self(pointer)
    }

    /// The pointer, to pass to the kernel.
    pub const fn get(self) -> *mut T {
        self.0
    }
}
