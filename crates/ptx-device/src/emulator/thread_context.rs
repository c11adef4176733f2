//! The emulated thread's identity and the device-layer operations that use it.
//!
//! The device layer (`crate`) calls these functions on the host. Each
//! worker thread of a launch has a [`ThreadContext`] in thread-local storage.

use std::cell::RefCell;
use std::mem::{align_of, size_of};
use std::panic::Location;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::fault::FaultKind;
use super::grid_runner::LaunchState;
use super::memory_map::Lookup;
use super::rendezvous::BarrierError;
use crate::{Dim3, TextureObject};

/// Who the current emulated thread is, and the launch it belongs to.
pub(crate) struct ThreadContext {
    pub thread_idx: Dim3,
    pub block_idx: Dim3,
    pub block_dim: Dim3,
    pub grid_dim: Dim3,
    pub launch: Arc<LaunchState>,
}

thread_local! {
    static CONTEXT: RefCell<Option<ThreadContext>> = const { RefCell::new(None) };
}

/// Payload of the unwind that takes a thread out of an abandoned launch.
pub(crate) struct EmulatorAbort;

pub(crate) fn install(context: Option<ThreadContext>) {
    CONTEXT.with(|c| *c.borrow_mut() = context);
}

pub(crate) fn set_block(block_idx: Dim3) {
    CONTEXT.with(|c| {
        if let Some(t) = c.borrow_mut().as_mut() {
            t.block_idx = block_idx;
        }
    });
}

/// Runs `f` with the current thread's context.
pub(crate) fn with<R>(f: impl FnOnce(&ThreadContext) -> R) -> R {
    CONTEXT.with(|c| match c.borrow().as_ref() {
        Some(t) => f(t),
        None => panic!("{}", FaultKind::OutsideLaunch),
    })
}

/// Records a fault for the current thread, abandons the launch and unwinds out of the kernel.
pub(crate) fn fault(kind: FaultKind) -> ! {
    with(|t| t.launch.record_fault(t.block_idx, t.thread_idx, kind));
    std::panic::resume_unwind(Box::new(EmulatorAbort))
}

pub(crate) fn sync_threads(site: &'static Location<'static>) {
    let launch = with(|t| t.launch.clone());
    match launch.barrier.meet(0, 0, site) {
        Ok(_) => {}
        Err(BarrierError::Aborted) => std::panic::resume_unwind(Box::new(EmulatorAbort)),
        Err(BarrierError::Fault(kind)) => fault(kind),
    }
}

fn element_address<T>(base: *const T, index: isize) -> usize {
    (base as usize).wrapping_add_signed(index.wrapping_mul(size_of::<T>() as isize))
}

fn check_global<T>(base: *const T, index: isize, write: bool) -> usize {
    let addr = element_address(base, index);
    let kind = with(|t| match t.launch.memory.lookup(base as usize, addr, size_of::<T>()) {
        Lookup::Inside(region) if write && !region.writable => Some(FaultKind::WriteToReadOnly { index }),
        Lookup::Inside(_) if !addr.is_multiple_of(align_of::<T>()) => Some(FaultKind::Misaligned {
            address: addr,
            align: align_of::<T>(),
        }),
        Lookup::Inside(_) => None,
        Lookup::Outside { base_region } => Some(FaultKind::GlobalOutOfBounds {
            write,
            index,
            elem_bytes: size_of::<T>(),
            buffer_bytes: base_region.map(|r| r.bytes),
        }),
    });
    match kind {
        Some(kind) => fault(kind),
        None => addr,
    }
}

pub(crate) fn global_load<T: Copy>(base: *const T, index: isize) -> T {
    let addr = check_global(base, index, false);
    // SAFETY: check_global proved [addr, addr + size_of::<T>()) lies in a live, aligned, registered slice.
    unsafe { std::ptr::read_volatile(addr as *const T) }
}

pub(crate) fn global_store<T: Copy>(base: *mut T, index: isize, value: T) {
    let addr = check_global(base as *const T, index, true);
    // SAFETY: check_global proved the element lies in a live, aligned, writable registered slice.
    unsafe { std::ptr::write_volatile(addr as *mut T, value) }
}

/// `atom.global.add.f32`: adds `value` to the element with a compare-and-swap
/// loop (concurrent additions are serialized, none is lost) and returns the old value.
/// As the GPU's `ATOMG/REDG.ADD.F32.FTZ.RN`: subnormal inputs and results become
/// zeros of their sign.
pub(crate) fn global_atomic_add_f32(base: *mut f32, index: isize, value: f32) -> f32 {
    let flush = |x: f32| if x.is_subnormal() { 0.0f32.copysign(x) } else { x };
    let addr = check_global(base as *const f32, index, true);
    // SAFETY: check_global proved a live, 4-byte-aligned, writable f32 in a registered slice; a
    // plain access racing with this one is the kernel's data race, as on the GPU.
    let word = unsafe { AtomicU32::from_ptr(addr as *mut u32) };
    let previous = word.try_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
        Some(flush(flush(f32::from_bits(bits)) + flush(value)).to_bits())
    });
    f32::from_bits(previous.unwrap_or_else(|bits| bits))
}

pub(crate) fn shared_base<T>() -> *mut T {
    with(|t| t.launch.shared_memory_base() as *mut T)
}

fn check_shared<T>(base: *mut T, index: usize, write: bool) -> *mut T {
    let (start, shared_bytes) = with(|t| (t.launch.shared_memory_base() as usize, t.launch.shared_bytes));
    let offset = (base as usize).wrapping_sub(start);
    let end = index
        .checked_mul(size_of::<T>())
        .and_then(|o| o.checked_add(offset))
        .and_then(|o| o.checked_add(size_of::<T>()));
    match end {
        Some(end) if end <= shared_bytes && offset <= shared_bytes => {
            let addr = start + end - size_of::<T>();
            if !addr.is_multiple_of(align_of::<T>()) {
                fault(FaultKind::Misaligned {
                    address: addr,
                    align: align_of::<T>(),
                });
            }
            addr as *mut T
        }
        _ => fault(FaultKind::SharedOutOfBounds {
            write,
            index,
            elem_bytes: size_of::<T>(),
            shared_bytes,
        }),
    }
}

pub(crate) fn shared_load<T: Copy>(base: *mut T, index: usize) -> T {
    let ptr = check_shared(base, index, false);
    // SAFETY: check_shared proved the element lies inside this launch's shared-memory allocation.
    unsafe { std::ptr::read_volatile(ptr) }
}

pub(crate) fn shared_store<T: Copy>(base: *mut T, index: usize, value: T) {
    let ptr = check_shared(base, index, true);
    // SAFETY: check_shared proved the element lies inside this launch's shared-memory allocation.
    unsafe { std::ptr::write_volatile(ptr, value) }
}

#[cfg(feature = "constant-memory")]
pub(crate) fn constant_load(index: u32) -> u32 {
    let found = with(|t| match &t.launch.memory.constant {
        // SAFETY: index < words: inside the slice registered for the emulator's lifetime.
        Some(table) if (index as usize) < table.words => Ok(unsafe { *table.data.add(index as usize) }),
        table => Err(table.as_ref().map_or(0, |t| t.words)),
    });
    match found {
        Ok(word) => word,
        Err(words) => fault(FaultKind::ConstantOutOfBounds { index, words }),
    }
}

pub(crate) fn texture_fetch(texture: TextureObject, index: i32) -> [f32; 4] {
    let found = with(|t| {
        t.launch.memory.texture(texture).map(|tex| {
            let mut texel = [0.0f32; 4];
            if index >= 0 && (index as usize) < tex.texels {
                for (c, value) in texel.iter_mut().enumerate().take(tex.channels) {
                    // SAFETY: index < texels and c < channels: inside the registered slice of texels * channels f32s.
                    *value = unsafe { *tex.data.add(index as usize * tex.channels + c) };
                }
            }
            texel
        })
    });
    match found {
        Some(texel) => texel,
        None => fault(FaultKind::UnknownTexture { handle: texture.0 }),
    }
}

/// A point-sampled 2-D fetch with unnormalized coordinates and clamp
/// addressing: texel `(clamp(floor(u)), clamp(floor(v)))`.
pub(crate) fn texture_fetch_2d(texture: TextureObject, u: f32, v: f32) -> [f32; 4] {
    let found = with(|t| {
        t.launch.memory.texture(texture).map(|tex| {
            let rows = tex.texels / tex.width.max(1);
            let clamp = |c: f32, n: usize| (c.floor().max(0.0) as usize).min(n.saturating_sub(1));
            let (x, y) = (clamp(u, tex.width), clamp(v, rows));
            let mut texel = [0.0f32; 4];
            if tex.texels > 0 {
                for (c, value) in texel.iter_mut().enumerate().take(tex.channels) {
                    // SAFETY: x < width and y < rows: inside the registered slice of texels * channels f32s.
                    *value = unsafe { *tex.data.add((y * tex.width + x) * tex.channels + c) };
                }
            }
            texel
        })
    });
    match found {
        Some(texel) => texel,
        None => fault(FaultKind::UnknownTexture { handle: texture.0 }),
    }
}

/// `shfl.sync.down` over the current thread's warp: the value of lane `lane + delta`, or our own.
pub(crate) fn shfl_down(value: u32, delta: u32, site: &'static Location<'static>) -> u32 {
    let (launch, linear) = with(|t| {
        let b = t.block_dim;
        let linear = t.thread_idx.x + b.x * (t.thread_idx.y + b.y * t.thread_idx.z);
        (t.launch.clone(), linear)
    });
    let (warp, lane) = ((linear / 32) as usize, linear % 32);
    let exchange = &launch.warps[warp];
    match exchange.meet(lane, value, site) {
        Ok(values) => match lane.checked_add(delta) {
            Some(source) if source < launch.warp_lanes(warp) => values[source as usize],
            _ => value,
        },
        Err(BarrierError::Aborted) => std::panic::resume_unwind(Box::new(EmulatorAbort)),
        Err(BarrierError::Fault(kind)) => fault(kind),
    }
}
