use std::ffi::c_void;

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::device::{CONSTANT_SYMBOL, CONSTANT_WORDS, GlobalMutPtr, GlobalPtr, WARP_SIZE};

use super::block_grid::block_grid;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, Gpu, LaunchShape, Module};
use crate::testbed::{DeviceUnderTest, Implementation};

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
            ConstantSpace::Constant => "constant_chase",
            ConstantSpace::GlobalReadOnly => "constant_chase_global_nc",
            ConstantSpace::Shared => "constant_chase_shared",
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
        Ok(Self {
            links: DeviceBuffer::from_host(gpu, links)?,
        })
    }

    pub fn words(&self) -> usize {
        self.links.len()
    }
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
    let span_words = BLOCK_SPAN_WORDS as u64 * blocks as u64;
    if (spans_len as u64) < span_words || (sums_len as u64) < threads {
        return Err(invalid(
            space,
            format!(
                "{blocks} blocks of {block_threads} need {span_words} span words and {threads} sums; the buffers hold {spans_len} and {sums_len}"
            ),
        ));
    }
    Ok(LaunchShape {
        shared_bytes: match space {
            ConstantSpace::Shared => (table_words * 4) as u32,
            _ => 0,
        },
        ..shape
    })
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
    let kernel = dut.kernel(implementation, space.kernel())?;
    let mut links: GlobalPtr<u32> = table.links.as_global();
    let mut words = table.words() as u32;
    let (mut distinct, mut steps) = (distinct, steps);
    let mut spans_ptr: GlobalMutPtr<u64> = spans.as_global_mut();
    let mut sums_ptr: GlobalMutPtr<u32> = sums.as_global_mut();
    let (links, words, distinct, steps, spans, sums) = (
        (&raw mut links).cast::<c_void>(),
        (&raw mut words).cast::<c_void>(),
        (&raw mut distinct).cast::<c_void>(),
        (&raw mut steps).cast::<c_void>(),
        (&raw mut spans_ptr).cast::<c_void>(),
        (&raw mut sums_ptr).cast::<c_void>(),
    );
    match space {
        ConstantSpace::Constant => {
            module_for(dut, implementation)?
                .global_symbol(CONSTANT_SYMBOL)?
                .copy_from_device_async(&table.links, dut.gpu().stream())?;
            let mut params = [distinct, steps, spans, sums];
            // SAFETY: matches constant_chase(uint, uint, u64*, uint*); the constant array now
            // starts with the checked table and holds only checked tables' links (or zeros)
            // past it, all below CONSTANT_WORDS; the shape check sized the outputs.
            unsafe { kernel.launch(dut.gpu().stream(), shape, &mut params) }
        }
        ConstantSpace::GlobalReadOnly => {
            let mut params = [links, distinct, steps, spans, sums];
            // SAFETY: matches constant_chase_global_nc(const uint*, uint, uint, u64*, uint*);
            // every link of the checked table is inside it; the shape check sized the outputs.
            unsafe { kernel.launch(dut.gpu().stream(), shape, &mut params) }
        }
        ConstantSpace::Shared => {
            let mut params = [links, words, distinct, steps, spans, sums];
            // SAFETY: matches constant_chase_shared(const uint*, uint, uint, uint, u64*, uint*);
            // the table's links are below `words`, the shape gives 4 * words bytes of shared memory.
            unsafe { kernel.launch(dut.gpu().stream(), shape, &mut params) }
        }
    }
}
