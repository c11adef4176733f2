//! The constant-memory kernels' OpenCL C twins (`host/opencl_c/constant_memory.cl`):
//! the CUDA launcher's checks without the spans ([`chase_shape`]), the same
//! work-groups and grid, the table checked on its way in and passed as a
//! `__constant` (or `__global`) argument, launched on an OpenCL queue.

use kernels_gpu::device::{Param, ParamKind};

use super::{ConstantSpace, chase_shape, check_chase_links};
use crate::error::Result;
use crate::launchers::opencl_nd_range::nd_range;
use crate::opencl::{ClBuffer, ClContext, ClQueue, LocalMemory, OpenClTwins};

/// The OpenCL C twins of the constant-memory chases (`constant_memory.cl`): kernels of the twins'
/// program (gathered with the other families' by
/// [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)).
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] =
    &["constant_chase", "constant_chase_global_nc", "constant_chase_shared"];

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

/// `constant_chase` and `constant_chase_global_nc`'s parameters: the table
/// (`__constant` or `__global`), then the Rust kernels' without `spans`
/// (OpenCL C has no SM clock to record them with).
pub const CHASE_TWIN_PARAMS: &[Param] = &[
    param("links", ParamKind::Pointer),
    param("distinct", ParamKind::U32),
    param("steps", ParamKind::U32),
    param("sums", ParamKind::Pointer),
];

/// `constant_chase_shared`'s parameters before its `__local` copy of the table.
pub const SHARED_CHASE_TWIN_PARAMS: &[Param] = &[
    param("links", ParamKind::Pointer),
    param("words", ParamKind::U32),
    param("distinct", ParamKind::U32),
    param("steps", ParamKind::U32),
    param("sums", ParamKind::Pointer),
];

/// A chase table in an OpenCL buffer, checked on the way in as
/// [`ChaseTable`](super::ChaseTable) is: the twins follow its links unchecked.
pub struct ClChaseTable {
    links: ClBuffer<u32>,
}

impl ClChaseTable {
    /// Checks `links` (32 to `CONSTANT_WORDS` words, each below their count) and copies them to the device.
    pub fn upload(context: &ClContext, queue: &ClQueue, links: &[u32]) -> Result<Self> {
        check_chase_links(links)?;
        Ok(Self {
            links: ClBuffer::from_host(context, queue, links)?,
        })
    }

    pub fn words(&self) -> usize {
        self.links.len()
    }
}

/// Launches the OpenCL C chase of `space` over `table`: lane `l` of every
/// warp (work-items of a work-group, 32 at a time) starts at word
/// `l % distinct` and takes `steps` steps; work-item `t`'s sum of visited
/// words lands in `sums[t]` (`reference::constant_chase_sum`).
pub fn constant_chase(
    twins: &OpenClTwins,
    queue: &ClQueue,
    (space, table): (ConstantSpace, &ClChaseTable),
    (distinct, steps): (u32, u32),
    (group_size, groups): (u32, u32),
    sums: &mut ClBuffer<u32>,
) -> Result<()> {
    let shape = chase_shape(space, table.words(), distinct, (group_size, groups), sums.len())?;
    let range = nd_range(&shape);
    let links = &table.links;
    match space {
        ConstantSpace::Constant | ConstantSpace::GlobalReadOnly => {
            let twin = twins.kernel_taking(space.kernel(), CHASE_TWIN_PARAMS)?;
            // SAFETY: (const uint*, uint, uint, uint*) is the twin's signature (kernel_taking checked it); every
            // link of the checked table is inside it; the shape check proved a sum per work-item.
            unsafe { queue.launch(twin, &range, &[links, &distinct, &steps, &*sums])? };
        }
        ConstantSpace::Shared => {
            let twin = twins.kernel_taking(space.kernel(), SHARED_CHASE_TWIN_PARAMS)?;
            let words = table.words() as u32;
            let copy = LocalMemory(shape.shared_bytes as usize);
            // SAFETY: as above, with the table's words and a __local copy of 4 * words bytes.
            unsafe { queue.launch(twin, &range, &[links, &words, &distinct, &steps, &*sums, &copy])? };
        }
    }
    Ok(())
}
