//! The emulator's barrier, shared-memory, texture and fault semantics, with
//! small kernels written here against the device layer.

use ptxsuite::device::{
    Dim3, GlobalMutPtr, GlobalPtr, TextureObject, block_dim_x, block_idx_x, dynamic_shared_memory, sync_threads,
    tex1d_fetch_f32x4, thread_idx_x,
};
use ptxsuite::emulator::{Emulator, EmulatorError, FaultKind, LaunchConfig};

/// Reverses each block's slice through shared memory: correct only if the barrier really waits.
fn reverse_in_block(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>) {
    let shared = dynamic_shared_memory::<f32>();
    let t = thread_idx_x() as usize;
    let n = block_dim_x() as usize;
    let base = (block_idx_x() as usize * n) as isize;
    // SAFETY: the emulator checks every access.
    unsafe {
        shared.store(t, inp.load(base + t as isize));
        sync_threads();
        out.store(base + t as isize, shared.load(n - 1 - t));
    }
}

#[test]
fn barrier_makes_shared_memory_writes_visible_across_the_block() {
    let input: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let mut output = vec![0.0; 256];
    {
        let mut emu = Emulator::new();
        let inp = emu.global(&input);
        let out = emu.global_mut(&mut output);
        emu.launch(LaunchConfig::new(Dim3::x(4), Dim3::x(64), 64 * 4), || {
            reverse_in_block(out, inp)
        })
        .unwrap();
    }
    for block in 0..4 {
        for t in 0..64 {
            assert_eq!(output[block * 64 + t], input[block * 64 + 63 - t]);
        }
    }
}

#[test]
fn shared_memory_past_the_launch_size_is_reported() {
    let input = vec![1.0f32; 64];
    let mut output = vec![0.0; 64];
    let mut emu = Emulator::new();
    let inp = emu.global(&input);
    let out = emu.global_mut(&mut output);
    // Only 32 floats of shared memory for 64 threads.
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(1), Dim3::x(64), 32 * 4), || {
            reverse_in_block(out, inp)
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { index: 32.., .. })),
        "{err}"
    );
}

#[test]
fn early_return_before_a_barrier_is_a_deadlock() {
    let mut emu = Emulator::new();
    let mut sink = vec![0u32; 64];
    let out = emu.global_mut(&mut sink);
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(1), Dim3::x(64), 0), || {
            if thread_idx_x() >= 60 {
                return; // these threads never reach the barrier
            }
            sync_threads();
            // SAFETY: checked by the emulator.
            unsafe { out.store(thread_idx_x() as isize, 1) };
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::BarrierDeadlock { .. })),
        "{err}"
    );
}

#[test]
#[allow(clippy::if_same_then_else)] // two textually equal branches: two different barrier call sites
fn barriers_at_different_call_sites_are_divergence() {
    let emu = Emulator::new();
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(1), Dim3::x(32), 0), || {
            if thread_idx_x() % 2 == 0 {
                sync_threads();
            } else {
                sync_threads();
            }
        })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::BarrierDivergence { .. })),
        "{err}"
    );
}

#[test]
fn write_through_a_read_only_buffer_is_reported() {
    let data = vec![0.0f32; 8];
    let mut emu = Emulator::new();
    let ptr = emu.global(&data);
    let as_mut = GlobalMutPtr::from_raw(ptr.as_raw() as *mut f32);
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(1), Dim3::x(8), 0), || unsafe {
            as_mut.store(thread_idx_x() as isize, 1.0)
        })
        .unwrap_err();
    assert!(matches!(err.faults()[0].kind, FaultKind::WriteToReadOnly { .. }));
}

#[test]
fn a_panicking_kernel_is_a_fault_not_a_crash() {
    let emu = Emulator::new();
    let err = emu
        .launch(LaunchConfig::new(Dim3::x(2), Dim3::x(4), 0), || {
            if block_idx_x() == 1 && thread_idx_x() == 3 {
                panic!("trap in block 1");
            }
        })
        .unwrap_err();
    let fault = &err.faults()[0];
    assert_eq!((fault.block, fault.thread), (Dim3::new(1, 0, 0), Dim3::new(3, 0, 0)));
    assert!(matches!(&fault.kind, FaultKind::KernelPanic { message } if message.contains("trap in block 1")));
}

#[test]
fn texture_fetch_reads_texels_and_returns_zero_out_of_range() {
    let texels: Vec<f32> = (0..40).map(|i| i as f32 * 2.0).collect();
    let mut output = vec![-5.0f32; 48];
    {
        let mut emu = Emulator::new();
        let tex: TextureObject = emu.texture_f32(&texels);
        let out = emu.global_mut(&mut output);
        emu.launch(LaunchConfig::new(Dim3::x(3), Dim3::x(16), 0), || {
            let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32;
            // SAFETY: 48 threads, 48 output elements.
            unsafe { out.store(i as isize, tex1d_fetch_f32x4(tex, i)[0]) };
        })
        .unwrap();
    }
    for (i, v) in output.iter().enumerate() {
        let expected = if i < 40 { i as f32 * 2.0 } else { 0.0 };
        assert_eq!(*v, expected, "texel {i}");
    }
}

#[test]
fn invalid_configurations_are_rejected_before_running() {
    let emu = Emulator::new();
    for config in [
        LaunchConfig::new(Dim3::x(0), Dim3::x(32), 0),
        LaunchConfig::new(Dim3::x(1), Dim3::x(2048), 0),
        LaunchConfig::new(Dim3::x(1), Dim3::x(32), 1 << 20),
    ] {
        assert!(
            matches!(emu.launch(config, || {}), Err(EmulatorError::InvalidConfig(_))),
            "{config:?}"
        );
    }
}

#[test]
fn multi_dimensional_indices_cover_the_grid_once() {
    let mut hits = vec![0u32; 24 * 8]; // grid (3,2) of blocks (8,4): 24 x 8 threads
    {
        let mut emu = Emulator::new();
        let out = emu.global_mut(&mut hits);
        emu.launch(LaunchConfig::new(Dim3::xy(3, 2), Dim3::xy(8, 4), 0), || {
            use ptxsuite::device::{block_dim_y, block_idx_y, grid_dim_x, thread_idx_y};
            let x = block_idx_x() * block_dim_x() + thread_idx_x();
            let y = block_idx_y() * block_dim_y() + thread_idx_y();
            let width = grid_dim_x() * block_dim_x();
            // SAFETY: x < 24, y < 8: index < 192.
            unsafe { out.store((y * width + x) as isize, 1) };
        })
        .unwrap();
    }
    assert!(hits.iter().all(|&h| h == 1));
}
