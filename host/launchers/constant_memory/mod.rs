//! The constant-memory chases of the guides' constant-cache claim: the
//! typed, bounds-checked launcher ([`constant_chase`]) and its checks, the
//! OpenCL C twins' launcher ([`opencl`]), and the family's runners, one per
//! programming model ([`ChaseRunner`]).

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;

pub use cuda_runner::CudaChaseRunner;
pub use opencl_runner::OpenClChaseRunner;
pub use runner::{ChaseCase, ChaseRunner, ChaseTiming, constant_chase_runners};

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::constant_memory::{
    constant_chase_global_nc_params, constant_chase_params, constant_chase_shared_params,
};
use kernels_gpu::device::{CONSTANT_SYMBOL, CONSTANT_WORDS, KernelSignature, WARP_SIZE};

use super::block_grid::block_grid;
use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu, LaunchShape, Module};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the constant-memory chases: the module must define each (gathered with the
/// other families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["constant_chase", "constant_chase_global_nc", "constant_chase_shared"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    nominal_shape: Some(nominal_shape),
    memory_claims: true,
};

/// The block of the constant-memory experiment's throughput series (and the kernel table).
pub const CONSTANT_CHASE_BLOCK_THREADS: u32 = 256;

/// The words of the table the constant-memory experiment walks (1 KiB).
pub const CONSTANT_CHASE_TABLE_WORDS: usize = 256;

/// Where the constant-memory series' kernels read their table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstantSpace {
    /// The module's `__constant__` array (`ld.const`, SASS `LDC`).
    Constant,
    /// Global memory through the read-only data cache (`ld.global.nc`).
    GlobalReadOnly,
    /// A copy in shared memory (`ld.shared`).
    Shared,
}

impl ConstantSpace {
    pub const ALL: [Self; 3] = [Self::Constant, Self::GlobalReadOnly, Self::Shared];

    pub fn kernel(self) -> &'static str {
        match self {
            ConstantSpace::Constant => constant_chase_params::NAME,
            ConstantSpace::GlobalReadOnly => constant_chase_global_nc_params::NAME,
            ConstantSpace::Shared => constant_chase_shared_params::NAME,
        }
    }
}

/// A table of links for the constant-memory kernels, checked on the way in
/// (every link names a word of the table, which fits the constant array) and
/// kept in device memory: the kernels follow links without bounds checks,
/// so only a checked table may reach them.
pub struct ChaseTable {
    links: DeviceBuffer<u32>,
}

impl ChaseTable {
    /// Checks `links` (at least 32 and at most `CONSTANT_WORDS` words, each
    /// below their count) and copies them to the GPU.
    pub fn upload(gpu: &Gpu, links: &[u32]) -> Result<Self> {
        check_chase_links(links)?;
        Ok(Self {
            links: DeviceBuffer::from_host(gpu, links)?,
        })
    }

    pub fn words(&self) -> usize {
        self.links.len()
    }
}

/// Checks a chase table: 32 to `CONSTANT_WORDS` words, each linking to a
/// word of the table (the kernels follow links without bounds checks).
pub(super) fn check_chase_links(links: &[u32]) -> Result<()> {
    if links.len() < WARP_SIZE as usize || links.len() > CONSTANT_WORDS {
        return Err(Error::InvalidInput(format!(
            "a chase table of {} words: it needs 32 to {CONSTANT_WORDS}",
            links.len()
        )));
    }
    if let Some((word, link)) = links.iter().enumerate().find(|&(_, &l)| l as usize >= links.len()) {
        return Err(Error::InvalidInput(format!(
            "word {word} of a {}-word chase table links to {link}, outside it",
            links.len()
        )));
    }
    Ok(())
}

fn invalid(space: ConstantSpace, reason: String) -> Error {
    Error::InvalidLaunch {
        kernel: space.kernel(),
        reason,
    }
}

/// Checks a constant-chase launch: `blocks` blocks of `block_threads`
/// threads (a multiple of 32, at most 1024), `1 <= distinct <= 32` lane
/// groups (all start inside a table of at least 32 words), a span per
/// block and a sum per thread; the shared version gets the table's bytes of
/// dynamic shared memory.
pub fn constant_chase_shape(
    space: ConstantSpace,
    table_words: usize,
    distinct: u32,
    (block_threads, blocks): (u32, u32),
    spans_len: usize,
    sums_len: usize,
) -> Result<LaunchShape> {
    let shape = chase_shape(space, table_words, distinct, (block_threads, blocks), sums_len)?;
    let span_words = BLOCK_SPAN_WORDS as u64 * blocks as u64;
    if (spans_len as u64) < span_words {
        return Err(invalid(
            space,
            format!("{blocks} blocks need {span_words} span words; the buffer holds {spans_len}"),
        ));
    }
    Ok(shape)
}

/// The shape a constant chase is reported with (occupancy, resources): one
/// full block of [`CONSTANT_CHASE_BLOCK_THREADS`], the shared version with
/// its 1 KiB table; `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let space = ConstantSpace::ALL.into_iter().find(|c| c.kernel() == entry)?;
    let threads = CONSTANT_CHASE_BLOCK_THREADS;
    constant_chase_shape(
        space,
        CONSTANT_CHASE_TABLE_WORDS,
        1,
        (threads, 1),
        BLOCK_SPAN_WORDS,
        threads as usize,
    )
    .ok()
}

/// [`constant_chase_shape`] without the spans (the OpenCL C twins record none).
pub(super) fn chase_shape(
    space: ConstantSpace,
    table_words: usize,
    distinct: u32,
    (block_threads, blocks): (u32, u32),
    sums_len: usize,
) -> Result<LaunchShape> {
    let shape = block_grid(space.kernel(), (block_threads, blocks), 1024, true)?;
    if !(1..=WARP_SIZE).contains(&distinct) {
        return Err(invalid(
            space,
            format!("{distinct} distinct addresses: a warp has 1 to 32"),
        ));
    }
    if table_words < WARP_SIZE as usize || table_words > CONSTANT_WORDS {
        return Err(invalid(
            space,
            format!("a table of {table_words} words: 32 to {CONSTANT_WORDS}"),
        ));
    }
    let threads = blocks as u64 * block_threads as u64;
    if (sums_len as u64) < threads {
        return Err(invalid(
            space,
            format!("{blocks} blocks of {block_threads} need {threads} sums; the buffer holds {sums_len}"),
        ));
    }
    Ok(LaunchShape {
        shared_bytes: chase_shared_bytes(space, table_words),
        ..shape
    })
}

/// The dynamic shared memory a chase of `space` over a table of
/// `table_words` words takes: the table's bytes for the shared version, none otherwise.
fn chase_shared_bytes(space: ConstantSpace, table_words: usize) -> u32 {
    match space {
        ConstantSpace::Shared => (table_words * 4) as u32,
        _ => 0,
    }
}

/// The module whose kernels `implementation` launches (its `__constant__`
/// array is the one they read).
fn module_for(dut: &DeviceUnderTest, implementation: Implementation) -> Result<&Module> {
    match implementation {
        Implementation::Rust | Implementation::CudaC => dut.module(implementation).map_err(Error::Waived),
        other => Err(Error::MissingKernel(format!(
            "constant_chase ({} has no PTX kernels)",
            other.label()
        ))),
    }
}

/// Launches the constant-memory chase of `space` over `table`: lane `l` of
/// every warp starts at word `l % distinct` and takes `steps` steps; block
/// `b`'s span (`kernels_gpu::block_span`) lands in `spans[4b..]`, thread `t`'s sum of visited words in
/// `sums[t]` (`reference::constant_chase_sum`). For [`ConstantSpace::Constant`]
/// the table is first copied into the module's `__constant__` array, in
/// stream order (outside the kernel's timed steps).
#[allow(clippy::too_many_arguments)]
pub fn constant_chase(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    space: ConstantSpace,
    table: &ChaseTable,
    distinct: u32,
    steps: u32,
    (block_threads, blocks): (u32, u32),
    spans: &mut DeviceBuffer<u64>,
    sums: &mut DeviceBuffer<u32>,
) -> Result<()> {
    let shape = constant_chase_shape(
        space,
        table.words(),
        distinct,
        (block_threads, blocks),
        spans.len(),
        sums.len(),
    )?;
    let (links, words) = (table.links.as_global(), table.words() as u32);
    let (spans, sums) = (spans.as_global_mut(), sums.as_global_mut());
    match space {
        ConstantSpace::Constant => {
            module_for(dut, implementation)?
                .global_symbol(CONSTANT_SYMBOL)?
                .copy_from_device_async(&table.links, dut.gpu().stream())?;
            let args = (distinct, steps, spans, sums);
            // SAFETY: the constant array now starts with the checked table and holds only checked
            // tables' links (or zeros) past it, all below CONSTANT_WORDS; the shape check sized the outputs.
            unsafe { dut.launch::<constant_chase_params>(implementation, shape, args) }
        }
        ConstantSpace::GlobalReadOnly => {
            let args = (links, distinct, steps, spans, sums);
            // SAFETY: every link of the checked table is inside it; the shape check sized the outputs.
            unsafe { dut.launch::<constant_chase_global_nc_params>(implementation, shape, args) }
        }
        ConstantSpace::Shared => {
            let args = (links, words, distinct, steps, spans, sums);
            // SAFETY: the table's links are below `words`, the shape gives 4 * words bytes of shared memory.
            unsafe { dut.launch::<constant_chase_shared_params>(implementation, shape, args) }
        }
    }
}
