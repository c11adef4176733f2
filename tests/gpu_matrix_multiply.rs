//! The matrix multiplies on a real GPU against the CPU reference (every
//! element within γ_K·Σ|a·b|), Rust and CUDA C twins, cuBLAS, the guide's
//! family's runners, and the launchers' refusals. Without a CUDA driver or device each test prints
//! `SKIPPED ...` (past the harness's output capture) and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, implementations, note_skipped};
use ptxsuite::gpu::DeviceBuffer;
use ptxsuite::launchers::{GuideMultiply, guide_multiply};
use ptxsuite::testbed::Implementation;
use ptxsuite::{Error, reference};

fn values(len: usize, salt: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ptxsuite::input_values::matrix_value(i, salt))
        .collect()
}

#[test]
fn gpu_guide_multiplies_match_reference() {
    let Some(dut) = gpu_or_skip("gpu_guide_multiplies_match_reference") else {
        return;
    };
    let implementations = implementations(&dut);
    let cublas = dut
        .cublas()
        .map_err(|e| note_skipped(&format!("cuBLAS skipped: {e}")))
        .ok();
    let k = 32usize;
    for (m, n) in [(96u32, 160u32), (256, 256), (32, 1024)] {
        let (mu, nu) = (m as usize, n as usize);
        let a_host = values(mu * k, 1);
        let b_host = values(k * nu, 2);
        let a = DeviceBuffer::from_host(dut.gpu(), &a_host).unwrap();
        let b = DeviceBuffer::from_host(dut.gpu(), &b_host).unwrap();
        let mut c = DeviceBuffer::<f32>::uninit(dut.gpu(), mu * nu.max(mu)).unwrap();
        for aat in [false, true] {
            let columns = if aat { mu } else { nu };
            let (expected, scale) = if aat {
                reference::matmul_aat(&a_host, mu, k)
            } else {
                reference::matmul(&a_host, &b_host, mu, k, nu)
            };
            let check = |c: &DeviceBuffer<f32>, what: String| {
                let got = c.to_host().unwrap();
                if let Some(why) = reference::matmul_mismatch(&got[..mu * columns], &expected, &scale, k, columns) {
                    panic!("{what} {m} x {n}: {why}");
                }
            };
            for kernel in GuideMultiply::ALL.into_iter().filter(|g| g.is_aat() == aat) {
                for &imp in &implementations {
                    c.fill(f32::NAN).unwrap();
                    guide_multiply(&dut, imp, kernel, &a, &b, &mut c, m, n).unwrap();
                    check(&c, format!("{imp:?} {kernel:?}"));
                }
            }
            if let Some(cublas) = &cublas {
                c.fill(f32::NAN).unwrap();
                if aat {
                    ptxsuite::launchers::cublas_sgemm_aat(cublas, &a, &mut c, (m, k as u32)).unwrap();
                } else {
                    ptxsuite::launchers::cublas_sgemm(cublas, &a, &b, &mut c, (m, n, k as u32)).unwrap();
                }
                check(&c, format!("cuBLAS aat={aat}"));
            }
        }
    }
}

/// Every runner of the guide's family loads a product, times each launch of
/// both tables (one time per sample), and reads back a `C` within the CPU
/// reference's bound; the plan holds every kernel of each table by Rust, and
/// cuBLAS where this device has it.
#[test]
fn gpu_guide_multiply_runner_times_and_checks_every_launch() {
    use ptxsuite::launchers::{GuideLaunch, guide_multiply_runners};
    use ptxsuite::run_settings::RunSettings;
    let Some(dut) = gpu_or_skip("gpu_guide_multiply_runner_times_and_checks_every_launch") else {
        return;
    };
    let settings = RunSettings {
        samples: 2,
        reps: 3,
        ..RunSettings::default()
    };
    let (side, k) = (96u32, 32usize);
    let s = side as usize;
    let (a_host, b_host) = (values(s * k, 1), values(k * s, 2));
    let (mut runners, waived) = guide_multiply_runners(&dut).unwrap();
    for (what, why) in &waived {
        note_skipped(&format!("{what} skipped: {why}"));
    }
    assert!(!runners.is_empty());
    let mut got = vec![0.0f32; s * s];
    for runner in &mut runners {
        let mut fresh = vec![0.0f32; s * s];
        assert!(runner.read_c(&mut fresh).is_err(), "nothing loaded yet");
        runner.load(&a_host, &b_host, side).unwrap();
        for aat in [false, true] {
            let (expected, scale) = if aat {
                reference::matmul_aat(&a_host, s, k)
            } else {
                reference::matmul(&a_host, &b_host, s, k, s)
            };
            let launches = runner.launches(aat);
            for kernel in GuideMultiply::ALL.into_iter().filter(|g| g.is_aat() == aat) {
                assert!(launches.contains(&GuideLaunch::Kernel(kernel, Implementation::Rust)));
            }
            assert_eq!(
                launches.contains(&GuideLaunch::Cublas { aat }),
                dut.cublas().is_ok(),
                "cuBLAS planned where it is available"
            );
            for launch in launches {
                runner.fill_c(f32::NAN).unwrap();
                let times = runner.time(launch, &settings).unwrap();
                assert_eq!(times.len(), 2, "{launch:?}");
                assert!(times.iter().all(|t| t.is_finite() && *t > 0.0), "{launch:?}: {times:?}");
                runner.read_c(&mut got).unwrap();
                if let Some(why) = reference::matmul_mismatch(&got, &expected, &scale, k, s) {
                    panic!("{launch:?} {side} x {side}: {why}");
                }
            }
        }
    }
}

#[test]
fn gpu_guide_multiply_refuses_bad_shapes() {
    let Some(dut) = gpu_or_skip("gpu_guide_multiply_refuses_bad_shapes") else {
        return;
    };
    let a = DeviceBuffer::<f32>::uninit(dut.gpu(), 64 * 32).unwrap();
    let b = DeviceBuffer::<f32>::uninit(dut.gpu(), 32 * 64).unwrap();
    let mut c = DeviceBuffer::<f32>::uninit(dut.gpu(), 64 * 64).unwrap();
    let rust = Implementation::Rust;
    for (m, n) in [(48u32, 64u32), (64, 0), (96, 64), (64, 96)] {
        let result = guide_multiply(&dut, rust, GuideMultiply::SharedAb, &a, &b, &mut c, m, n);
        assert!(
            matches!(result, Err(Error::InvalidLaunch { .. })),
            "{m} x {n} must be refused"
        );
    }
    let result = guide_multiply(&dut, rust, GuideMultiply::CoalescedAatPadded, &a, &b, &mut c, 96, 0);
    assert!(
        matches!(result, Err(Error::InvalidLaunch { .. })),
        "C = AAᵀ of 96 rows overflows C"
    );
}

#[test]
fn gpu_general_multiplies_match_reference_on_any_shape() {
    use half::f16;
    use ptxsuite::launchers::{SgemmKernel, hgemm_f16_storage, sgemm};
    let Some(dut) = gpu_or_skip("gpu_general_multiplies_match_reference_on_any_shape") else {
        return;
    };
    let implementations = implementations(&dut);
    let cublas = dut
        .cublas()
        .map_err(|e| note_skipped(&format!("cuBLAS skipped: {e}")))
        .ok();
    // Exact tiles (an even and an odd number of k tiles), edges in every dimension,
    // k % 4 != 0 and n % 4 != 0 (no 16-byte rows), one element.
    for (m, n, k) in [
        (256u32, 256u32, 64u32),
        (128, 384, 1000),
        (130, 127, 9),
        (33, 65, 17),
        (1, 1, 1),
        (300, 516, 1030),
        (128, 3, 200),
    ] {
        let (mu, nu, ku) = (m as usize, n as usize, k as usize);
        let a_host = values(mu * ku, 3);
        let b_host = values(ku * nu, 4);
        let (expected, scale) = reference::matmul(&a_host, &b_host, mu, ku, nu);
        let a = DeviceBuffer::from_host(dut.gpu(), &a_host).unwrap();
        let b = DeviceBuffer::from_host(dut.gpu(), &b_host).unwrap();
        let mut c = DeviceBuffer::<f32>::uninit(dut.gpu(), mu * nu).unwrap();
        let check = |c: &DeviceBuffer<f32>, expected: &[f32], scale: &[f64], what: String| {
            let got = c.to_host().unwrap();
            if let Some(why) = reference::matmul_mismatch(&got, expected, scale, ku, nu) {
                panic!("{what} {m} x {n} x {k}: {why}");
            }
        };
        for &imp in &implementations {
            for kernel in SgemmKernel::ALL {
                c.fill(f32::NAN).unwrap();
                sgemm(&dut, imp, kernel, &a, &b, &mut c, (m, n, k)).unwrap();
                check(&c, &expected, &scale, format!("{imp:?} {kernel:?}"));
            }
        }
        // f16 storage: the reference of the f16-rounded inputs.
        let a16: Vec<f16> = a_host.iter().map(|&x| f16::from_f32(x)).collect();
        let b16: Vec<f16> = b_host.iter().map(|&x| f16::from_f32(x)).collect();
        let widen = |v: &[f16]| v.iter().map(|h| h.to_f32()).collect::<Vec<f32>>();
        let (expected16, scale16) = reference::matmul(&widen(&a16), &widen(&b16), mu, ku, nu);
        let (a16, b16) = (
            DeviceBuffer::from_host(dut.gpu(), &a16).unwrap(),
            DeviceBuffer::from_host(dut.gpu(), &b16).unwrap(),
        );
        for &imp in &implementations {
            c.fill(f32::NAN).unwrap();
            hgemm_f16_storage(&dut, imp, &a16, &b16, &mut c, (m, n, k)).unwrap();
            check(&c, &expected16, &scale16, format!("{imp:?} f16 storage"));
        }
        if let Some(cublas) = &cublas {
            c.fill(f32::NAN).unwrap();
            ptxsuite::launchers::cublas_sgemm(cublas, &a, &b, &mut c, (m, n, k)).unwrap();
            check(&c, &expected, &scale, "cuBLAS".into());
            c.fill(f32::NAN).unwrap();
            match ptxsuite::launchers::cublas_gemm_f16_storage(cublas, &a16, &b16, &mut c, (m, n, k)) {
                Ok(()) => check(&c, &expected16, &scale16, "cuBLAS f16 storage".into()),
                Err(e) => note_skipped(&format!("cublasGemmEx f16 storage unsupported here: {e}")),
            }
        }
        // One element short anywhere is refused before the launch.
        if mu * ku == 1 {
            continue; // no shorter buffer to allocate
        }
        let short = DeviceBuffer::<f32>::uninit(dut.gpu(), mu * ku - 1).unwrap();
        let refused = sgemm(
            &dut,
            Implementation::Rust,
            SgemmKernel::RegisterBlocked,
            &short,
            &b,
            &mut c,
            (m, n, k),
        );
        assert!(
            matches!(refused, Err(Error::InvalidLaunch { .. })),
            "a short A must be refused"
        );
    }
}

#[test]
fn gpu_split_k_entry_matches_reference_and_repeats_bit_for_bit() {
    use ptxsuite::launchers::{REGISTER_BLOCKED_TILES, sgemm_register_blocked_with_tile};
    let Some(dut) = gpu_or_skip("gpu_split_k_entry_matches_reference_and_repeats_bit_for_bit") else {
        return;
    };
    let choice = REGISTER_BLOCKED_TILES
        .into_iter()
        .find(|c| c.split_k_entry.is_some())
        .expect("a tile with a split-K entry");
    let entry = choice.split_k_entry.expect("checked");
    // 1024³ (the size the register-blocked series once split on an H100), ragged edges with a partial
    // last k tile, and k shorter than a tile per split (an empty span). C starts as NaN: the launcher
    // must zero it.
    for (m, n, k) in [(1024u32, 1024u32, 1024u32), (300, 516, 1030), (130, 70, 17)] {
        let (mu, nu, ku) = (m as usize, n as usize, k as usize);
        let a_host = values(mu * ku, 5);
        let b_host = values(ku * nu, 6);
        let (expected, scale) = reference::matmul(&a_host, &b_host, mu, ku, nu);
        let a = DeviceBuffer::from_host(dut.gpu(), &a_host).unwrap();
        let b = DeviceBuffer::from_host(dut.gpu(), &b_host).unwrap();
        let mut c = DeviceBuffer::<f32>::uninit(dut.gpu(), mu * nu).unwrap();
        for &imp in &implementations(&dut) {
            let mut runs = Vec::new();
            for _ in 0..2 {
                c.fill(f32::NAN).unwrap();
                sgemm_register_blocked_with_tile(&dut, imp, choice, entry, &a, &b, &mut c, (m, n, k)).unwrap();
                let got = c.to_host().unwrap();
                if let Some(why) = reference::matmul_mismatch(&got, &expected, &scale, ku, nu) {
                    panic!("{imp:?} {entry} {m} x {n} x {k}: {why}");
                }
                runs.push(got.iter().map(|x| x.to_bits()).collect::<Vec<u32>>());
            }
            // Two partials into zero: the same bits whichever block adds first.
            assert_eq!(runs[0], runs[1], "{imp:?} {entry} {m} x {n} x {k}: two runs differ");
        }
    }
}
