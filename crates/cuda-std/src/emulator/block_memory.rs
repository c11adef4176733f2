//! Each emulated block's shared memory: the `shared_array!` arrays and the
//! dynamic shared memory, allocated once per launch and refilled with `0xFF`
//! bytes when a new block starts using them (blocks run one after another).

use super::launch_state::current;

/// Bytes of one word of the backing storage: the largest alignment offered.
const WORD_BYTES: usize = 16;

/// One `shared_array!`'s storage, by the address of its call site's marker.
struct StaticArray {
    site: usize,
    bytes: usize,
    words: Box<[u128]>,
}

/// A launch's shared memory.
pub(crate) struct BlockMemory {
    /// The block the contents belong to (linear index), if any yet.
    block: Option<u64>,
    dynamic_bytes: usize,
    dynamic: Box<[u128]>,
    statics: Vec<StaticArray>,
}

impl BlockMemory {
    pub fn new(dynamic_bytes: usize) -> Self {
        Self {
            block: None,
            dynamic_bytes,
            dynamic: vec![u128::MAX; dynamic_bytes.div_ceil(WORD_BYTES)].into_boxed_slice(),
            statics: Vec::new(),
        }
    }

    /// Refills everything with `0xFF` when `block` is not the block the contents belong to.
    fn enter_block(&mut self, block: u64) {
        if self.block != Some(block) {
            self.dynamic.fill(u128::MAX);
            for array in &mut self.statics {
                array.words.fill(u128::MAX);
            }
            self.block = Some(block);
        }
    }
}

/// The calling thread's block, as one number.
fn linear_block() -> u64 {
    let (x, y, z) = (
        ptx_device::block_idx_x(),
        ptx_device::block_idx_y(),
        ptx_device::block_idx_z(),
    );
    let (width, height) = (ptx_device::grid_dim_x() as u64, ptx_device::grid_dim_y() as u64);
    x as u64 + width * (y as u64 + height * z as u64)
}

/// The block's array for the `shared_array!` whose marker is at `site`.
#[track_caller]
pub(crate) fn static_array(site: usize, bytes: usize, align: usize) -> *mut u8 {
    assert!(
        align <= WORD_BYTES,
        "shared_array! of a type aligned to {align} bytes: the emulator aligns shared memory to {WORD_BYTES}"
    );
    let launch = current();
    let block = linear_block();
    let mut memory = launch.memory.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    memory.enter_block(block);
    if let Some(array) = memory.statics.iter_mut().find(|array| array.site == site) {
        assert_eq!(array.bytes, bytes, "one shared_array! with two sizes");
        return array.words.as_mut_ptr().cast();
    }
    let mut words = vec![u128::MAX; bytes.div_ceil(WORD_BYTES)].into_boxed_slice();
    let pointer = words.as_mut_ptr().cast();
    memory.statics.push(StaticArray { site, bytes, words });
    // The boxed words never move: the pointer stays valid for the launch.
    pointer
}

/// The block's dynamic shared memory.
#[track_caller]
pub(crate) fn dynamic() -> *mut u8 {
    let launch = current();
    let block = linear_block();
    let mut memory = launch.memory.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    memory.enter_block(block);
    memory.dynamic.as_mut_ptr().cast()
}

/// Bytes of dynamic shared memory of the launch.
#[track_caller]
pub(crate) fn dynamic_bytes() -> usize {
    current()
        .memory
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .dynamic_bytes
}
