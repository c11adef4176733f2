//! Self-test checks of the matrix multiplies: every kernel and implementation
//! once on a small shape (edges included for the general kernels), against
//! the f64 CPU reference within γ_K·Σ|a·b|.

use half::f16;

use super::SelfTest;
use super::checks::{first, once, verified};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::input_values::matrix_value;
use crate::launchers::{self, GemmOp, GuideMultiply, cublas_sgemm, cublas_sgemm_aat, gemm_runners};
use crate::reference;
use crate::testbed::{Implementation, Testbed};

/// The checks of the matrix multiplies (the guide's, the general SGEMMs, cuBLAS), in the order
/// `ptxsuite selftest` runs them (gathered with the other families' by
/// [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[
    SelfTest {
        name: "guide matrix multiplies (C = AB, C = AAᵀ)",
        run: guide_multiplies,
    },
    SelfTest {
        name: "general SGEMM (tiled, register-blocked, split-K, f16 storage)",
        run: general_multiplies,
    },
    SelfTest {
        name: "register-blocked SGEMM on every tile (128 × 128, 128 × 64)",
        run: register_blocked_tiles,
    },
    SelfTest {
        name: "cuBLAS SGEMM and GemmEx",
        run: cublas_sgemm_checks,
    },
];

fn values(len: usize, salt: usize) -> Vec<f32> {
    (0..len).map(|i| matrix_value(i, salt)).collect()
}

/// A reference product: `(C, Σ|a·b|)` and its shape `(m, n, k)`.
struct Expected {
    c: Vec<f32>,
    scale: Vec<f64>,
    dims: (usize, usize, usize),
}

impl Expected {
    fn of(a: &[f32], b: &[f32], (m, n, k): (usize, usize, usize)) -> Self {
        let (c, scale) = reference::matmul(a, b, m, k, n);
        Self {
            c,
            scale,
            dims: (m, n, k),
        }
    }

    /// Checks the first `m × n` elements of `got` (filled with NaN before the launch).
    fn check(&self, what: String, got: &[f32]) -> Result<()> {
        let (m, n, k) = self.dims;
        verified(
            what,
            reference::matmul_mismatch(&got[..m * n], &self.c, &self.scale, k, n),
        )
    }
}

/// The guide's C = AB and C = AAᵀ kernels at M = 64, N = 96 (K = 32), Rust and CUDA C.
pub(super) fn guide_multiplies(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let gpu = dut.gpu();
    let (m, n, k) = (64usize, 96usize, 32usize);
    let (a_host, b_host) = (values(m * k, 1), values(k * n, 2));
    let a_transposed: Vec<f32> = (0..k * m).map(|i| a_host[(i % m) * k + i / m]).collect();
    let ab = Expected::of(&a_host, &b_host, (m, n, k));
    let aat = Expected::of(&a_host, &a_transposed, (m, m, k));
    let (a, b) = (
        DeviceBuffer::from_host(gpu, &a_host)?,
        DeviceBuffer::from_host(gpu, &b_host)?,
    );
    let mut c = DeviceBuffer::<f32>::uninit(gpu, m * n.max(m))?;
    for kernel in GuideMultiply::ALL {
        for imp in dut.ptx_implementations().0 {
            c.fill(f32::NAN)?;
            launchers::guide_multiply(dut, imp, kernel, &a, &b, &mut c, m as u32, n as u32)?;
            gpu.synchronize()?;
            let expected = if kernel.is_aat() { &aat } else { &ab };
            expected.check(format!("{} · {}", kernel.kernel(), imp.label()), &c.to_host()?)?;
        }
    }
    Ok(())
}

/// Shapes of the general kernels: edges in every dimension with unaligned rows, and exact tiles
/// (the whole-tile path) with an even and an odd number of k tiles.
const GEMM_SHAPES: [(usize, usize, usize); 3] = [(130, 127, 9), (128, 128, 32), (128, 256, 24)];

/// Shapes whose `_guarded_edges` grids have blocks inside `C` and blocks across
/// its edges on both tiles, with whole `k` tiles and a partial last one: rows
/// not 16-byte aligned (`k`, `n` odd, as 4095³) and aligned (multiples of 4).
const INSIDE_BLOCK_SHAPES: [(usize, usize, usize); 2] = [(257, 259, 35), (260, 196, 36)];

/// Every GEMM entry (the tiled and register-blocked SGEMMs and the f16-storage
/// variant in every implementation, and cuBLAS when `library`) on each shape.
fn gemm_entries(testbed: &Testbed, library: bool) -> Result<()> {
    let (mut runners, waived) = gemm_runners(first(testbed))?;
    let mut ran = false;
    for (m, n, k) in GEMM_SHAPES {
        let dims = (m as u32, n as u32, k as u32);
        let (a_host, b_host) = (values(m * k, 3), values(k * n, 4));
        let expected = Expected::of(&a_host, &b_host, (m, n, k));
        let widen = |v: &[f32]| v.iter().map(|x| f16::from_f32(*x).to_f32()).collect::<Vec<f32>>();
        let expected16 = Expected::of(&widen(&a_host), &widen(&b_host), (m, n, k));
        let mut got = vec![0.0f32; m * n];
        for runner in &mut runners {
            runner.load(&a_host, &b_host, dims)?;
            for entry in runner.entries() {
                if library != (entry.implementation == Implementation::Cublas) {
                    continue;
                }
                ran = true;
                runner.fill_c(f32::NAN)?;
                if let Err(e) = runner.time(&entry, &once()) {
                    if entry.op == GemmOp::CublasF16Storage {
                        continue; // an older cuBLAS without this kernel; the experiment says so too
                    }
                    return Err(e);
                }
                runner.read_c(&mut got)?;
                let reference = if entry.f16_inputs() { &expected16 } else { &expected };
                reference.check(
                    format!("{} · {} {m}x{n}x{k}", entry.kernel, entry.implementation.label()),
                    &got,
                )?;
            }
        }
    }
    match (
        ran,
        waived
            .into_iter()
            .find(|(i, _)| library == (*i == Implementation::Cublas)),
    ) {
        (false, Some((_, why))) => Err(Error::Waived(why)),
        _ => Ok(()),
    }
}

/// The register-blocked SGEMM on every tile (not only the one the rule picks
/// for these shapes on this GPU) and every entry that may run the shape
/// (fully guarded, guarded edges, whole tiles, split-K in two), in every implementation, on
/// [`GEMM_SHAPES`] and [`INSIDE_BLOCK_SHAPES`]: ragged edges, whole tiles of
/// one tile but not of the other, and blocks inside `C` with a partial last
/// `k` tile, rows unaligned and aligned.
pub(super) fn register_blocked_tiles(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let gpu = dut.gpu();
    for (m, n, k) in GEMM_SHAPES.into_iter().chain(INSIDE_BLOCK_SHAPES) {
        let dims = (m as u32, n as u32, k as u32);
        let (a_host, b_host) = (values(m * k, 5), values(k * n, 6));
        let expected = Expected::of(&a_host, &b_host, (m, n, k));
        let (a, b) = (
            DeviceBuffer::from_host(gpu, &a_host)?,
            DeviceBuffer::from_host(gpu, &b_host)?,
        );
        let mut c = DeviceBuffer::<f32>::uninit(gpu, m * n)?;
        for choice in launchers::REGISTER_BLOCKED_TILES {
            for entry in choice.entries_for(dims) {
                for imp in dut.ptx_implementations().0 {
                    c.fill(f32::NAN)?;
                    launchers::sgemm_register_blocked_with_tile(dut, imp, choice, entry, &a, &b, &mut c, dims)?;
                    gpu.synchronize()?;
                    expected.check(format!("{entry} · {} {m}x{n}x{k}", imp.label()), &c.to_host()?)?;
                }
            }
        }
    }
    Ok(())
}

/// The tiled, register-blocked (unsplit and split-K) and warp-tiled SGEMMs and the f16-storage variant, in
/// every implementation.
pub(super) fn general_multiplies(testbed: &Testbed) -> Result<()> {
    gemm_entries(testbed, false)
}

/// cuBLAS SGEMM and GemmEx (the general shapes) and SGEMM A·Aᵀ (the guide's).
pub(super) fn cublas_sgemm_checks(testbed: &Testbed) -> Result<()> {
    gemm_entries(testbed, true)?;
    let dut = first(testbed);
    let cublas = dut.cublas().map_err(Error::Waived)?;
    let gpu = dut.gpu();
    let (m, n, k) = GEMM_SHAPES[0];
    let (a_host, b_host) = (values(m * k, 5), values(k * n, 6));
    let (a, b) = (
        DeviceBuffer::from_host(gpu, &a_host)?,
        DeviceBuffer::from_host(gpu, &b_host)?,
    );
    let mut c = DeviceBuffer::<f32>::uninit(gpu, m * n.max(m))?;
    c.fill(f32::NAN)?;
    cublas_sgemm(cublas, &a, &b, &mut c, (m as u32, n as u32, k as u32))?;
    gpu.synchronize()?;
    Expected::of(&a_host, &b_host, (m, n, k)).check(format!("cublasSgemm {m}x{n}x{k}"), &c.to_host()?)?;
    let a_transposed: Vec<f32> = (0..k * m).map(|i| a_host[(i % m) * k + i / m]).collect();
    c.fill(f32::NAN)?;
    cublas_sgemm_aat(cublas, &a, &mut c, (m as u32, k as u32))?;
    gpu.synchronize()?;
    Expected::of(&a_host, &a_transposed, (m, m, k)).check(format!("cublasSgemm A·Aᵀ {m}x{k}"), &c.to_host()?)
}
