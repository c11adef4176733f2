//! The guide's shared-memory matrix multiplies (Listings 3.7–3.11) in the
//! CPU emulator against the CPU reference (error within 1e-5 of Σ|a·b|).

use kernels_gpu::guide_multiply::{
    TILE_DIM, coalesced_multiply, coalesced_multiply_aat, coalesced_multiply_aat_padded, shared_ab_multiply,
    simple_multiply, simple_multiply_aat, tile_bytes,
};
use ptxsuite::device::{Dim3, GlobalMutPtr, GlobalPtr};
use ptxsuite::emulator::{Emulator, FaultKind, LaunchConfig};
use ptxsuite::reference::{matmul, matmul_aat};

const T: usize = TILE_DIM as usize;

fn values(len: usize, salt: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7919 + salt * 31) % 201) as f32 / 100.0 - 1.0)
        .collect()
}

fn assert_close(got: &[f32], expected: &[f32], scale: &[f64], what: &str) {
    for (i, ((g, e), s)) in got.iter().zip(expected).zip(scale).enumerate() {
        let error = (*g as f64 - *e as f64).abs();
        assert!(error <= 1e-5 * s + 1e-30, "{what}: element {i} is {g}, reference {e}");
    }
}

type AbKernel = unsafe fn(GlobalPtr<f32>, GlobalPtr<f32>, GlobalMutPtr<f32>, i32);
type AatKernel = unsafe fn(GlobalPtr<f32>, GlobalMutPtr<f32>, i32);

#[test]
fn c_equals_ab_versions_match_the_reference() {
    let (m, n) = (2 * T, 3 * T);
    let a = values(m * T, 1);
    let b = values(T * n, 2);
    let (expected, scale) = matmul(&a, &b, m, T, n);
    let kernels: [(&str, AbKernel, usize); 3] = [
        ("simple_multiply", simple_multiply, 0),
        ("coalesced_multiply", coalesced_multiply, tile_bytes(1, T)),
        ("shared_ab_multiply", shared_ab_multiply, tile_bytes(2, T)),
    ];
    for (name, kernel, shared) in kernels {
        let mut c = vec![f32::NAN; m * n];
        {
            let mut emu = Emulator::new();
            let (pa, pb, pc) = (emu.global(&a), emu.global(&b), emu.global_mut(&mut c));
            let config = LaunchConfig::new(
                Dim3::xy((n / T) as u32, (m / T) as u32),
                Dim3::xy(TILE_DIM, TILE_DIM),
                shared,
            );
            emu.launch(config, || unsafe { kernel(pa, pb, pc, n as i32) })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_close(&c, &expected, &scale, name);
    }
}

#[test]
fn c_equals_a_at_versions_match_the_reference() {
    let m = 3 * T;
    let a = values(m * T, 3);
    let (expected, scale) = matmul_aat(&a, m, T);
    let kernels: [(&str, AatKernel, usize); 3] = [
        ("simple_multiply_aat", simple_multiply_aat, 0),
        ("coalesced_multiply_aat", coalesced_multiply_aat, tile_bytes(2, T)),
        (
            "coalesced_multiply_aat_padded",
            coalesced_multiply_aat_padded,
            tile_bytes(1, T) + tile_bytes(1, T + 1),
        ),
    ];
    for (name, kernel, shared) in kernels {
        let mut c = vec![f32::NAN; m * m];
        {
            let mut emu = Emulator::new();
            let (pa, pc) = (emu.global(&a), emu.global_mut(&mut c));
            let config = LaunchConfig::new(
                Dim3::xy((m / T) as u32, (m / T) as u32),
                Dim3::xy(TILE_DIM, TILE_DIM),
                shared,
            );
            emu.launch(config, || unsafe { kernel(pa, pc, m as i32) })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_close(&c, &expected, &scale, name);
    }
}

#[test]
fn the_padded_tile_needs_its_extra_column_of_shared_memory() {
    let m = T;
    let a = values(m * T, 4);
    let mut c = vec![0.0f32; m * m];
    let mut emu = Emulator::new();
    let (pa, pc) = (emu.global(&a), emu.global_mut(&mut c));
    // Unpadded size: the padded transposed tile runs past it.
    let config = LaunchConfig::new(Dim3::xy(1, 1), Dim3::xy(TILE_DIM, TILE_DIM), tile_bytes(2, T));
    let err = emu
        .launch(config, || unsafe { coalesced_multiply_aat_padded(pa, pc, m as i32) })
        .unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::SharedOutOfBounds { .. })),
        "{err}"
    );
}
