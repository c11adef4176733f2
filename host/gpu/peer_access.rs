use std::sync::Arc;

use cudarc::driver::{CudaContext, sys};
use serde::{Deserialize, Serialize};

use super::Gpu;
use crate::error::{DriverResultExt, Result};

/// What the driver says of the path from one GPU to another
/// (`cuDeviceCanAccessPeer`, `cuDeviceGetP2PAttribute`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerAttributes {
    /// Kernels on the source may read and write the destination's memory.
    pub access_supported: bool,
    /// Atomics on the peer's memory are done by the link, not emulated.
    pub native_atomics: bool,
    /// The driver's relative ranking of the link (lower is better).
    pub performance_rank: i32,
}

impl PeerAttributes {
    /// The attributes of `src` → `dst`.
    pub fn query(src: &Gpu, dst: &Gpu) -> Result<Self> {
        let (a, b) = (src.context().cu_device(), dst.context().cu_device());
        let attribute = |which| -> Result<i32> {
            let mut value = 0;
            // SAFETY: writes one int through a valid pointer for two valid device handles.
            unsafe { sys::cuDeviceGetP2PAttribute(&mut value, which, a, b) }
                .result()
                .during("cuDeviceGetP2PAttribute")?;
            Ok(value)
        };
        use sys::CUdevice_P2PAttribute::*;
        Ok(Self {
            access_supported: attribute(CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED)? != 0,
            native_atomics: attribute(CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED)? != 0,
            performance_rank: attribute(CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK)?,
        })
    }
}

/// Peer access from one GPU's context to another's (`cuCtxEnablePeerAccess`),
/// disabled on drop: while it lives, kernels and copies on `from` may use
/// `to`'s memory through its unified virtual addresses.
pub struct PeerAccess {
    from: Arc<CudaContext>,
    to: Arc<CudaContext>,
    /// Whether this value enabled it (and so disables it on drop).
    enabled_here: bool,
}

impl PeerAccess {
    /// Enables access from `from` to `to` (already enabled counts as success, and is left enabled).
    pub fn enable(from: &Gpu, to: &Gpu) -> Result<Self> {
        from.context().bind_to_thread().during("cuCtxSetCurrent")?;
        // SAFETY: both contexts are live; flags must be 0.
        let status = unsafe { sys::cuCtxEnablePeerAccess(to.context().cu_ctx(), 0) };
        let enabled_here = match status {
            sys::CUresult::CUDA_SUCCESS => true,
            sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED => false,
            other => {
                other.result().during("cuCtxEnablePeerAccess")?;
                false
            }
        };
        Ok(Self {
            from: from.context().clone(),
            to: to.context().clone(),
            enabled_here,
        })
    }
}

impl Drop for PeerAccess {
    fn drop(&mut self) {
        if self.enabled_here && self.from.bind_to_thread().is_ok() {
            // SAFETY: access was enabled by this value; both contexts are still alive (held by Arc).
            let _ = unsafe { sys::cuCtxDisablePeerAccess(self.to.cu_ctx()) };
        }
    }
}
