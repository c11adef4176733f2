//! `threadIdx`, `blockIdx`, `blockDim` and `gridDim`, one function per component.

macro_rules! special_register {
    ($(#[$doc:meta])* $name:ident, $intrinsic:ident, $field:ident . $axis:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() -> u32 {
            #[cfg(target_arch = "nvptx64")]
            {
                // SAFETY: reading a PTX special register has no preconditions inside a kernel.
                unsafe { core::arch::nvptx::$intrinsic() as u32 }
            }
            #[cfg(not(target_arch = "nvptx64"))]
            {
                crate::emulator::thread_context::with(|t| t.$field.$axis)
            }
        }
    };
}

special_register!(
    /// `threadIdx.x` (PTX `%tid.x`).
    thread_idx_x,
    _thread_idx_x,
    thread_idx.x
);
special_register!(
    /// `threadIdx.y` (PTX `%tid.y`).
    thread_idx_y,
    _thread_idx_y,
    thread_idx.y
);
special_register!(
    /// `threadIdx.z` (PTX `%tid.z`).
    thread_idx_z,
    _thread_idx_z,
    thread_idx.z
);
special_register!(
    /// `blockIdx.x` (PTX `%ctaid.x`).
    block_idx_x,
    _block_idx_x,
    block_idx.x
);
special_register!(
    /// `blockIdx.y` (PTX `%ctaid.y`).
    block_idx_y,
    _block_idx_y,
    block_idx.y
);
special_register!(
    /// `blockIdx.z` (PTX `%ctaid.z`).
    block_idx_z,
    _block_idx_z,
    block_idx.z
);
special_register!(
    /// `blockDim.x` (PTX `%ntid.x`).
    block_dim_x,
    _block_dim_x,
    block_dim.x
);
special_register!(
    /// `blockDim.y` (PTX `%ntid.y`).
    block_dim_y,
    _block_dim_y,
    block_dim.y
);
special_register!(
    /// `blockDim.z` (PTX `%ntid.z`).
    block_dim_z,
    _block_dim_z,
    block_dim.z
);
special_register!(
    /// `gridDim.x` (PTX `%nctaid.x`).
    grid_dim_x,
    _grid_dim_x,
    grid_dim.x
);
special_register!(
    /// `gridDim.y` (PTX `%nctaid.y`).
    grid_dim_y,
    _grid_dim_y,
    grid_dim.y
);
special_register!(
    /// `gridDim.z` (PTX `%nctaid.z`).
    grid_dim_z,
    _grid_dim_z,
    grid_dim.z
);
