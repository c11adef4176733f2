//! Host-side arithmetic and checks that need no GPU: bandwidth formulas,
//! launch-bounds proofs, statistics, settings and experiment selection.

use ptxsuite::bandwidth::{effective_bandwidth_gbps, percent_of, theoretical_bandwidth_gbps};
use ptxsuite::experiments;
use ptxsuite::launchers::{offset_copy_shape, stride_copy_shape};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::stats::Summary;
use ptxsuite::{Error, ptx};

#[test]
fn theoretical_bandwidth_reproduces_the_guides_examples() {
    // GTX 280: 1107 MHz DDR, 512-bit bus -> 141.6 GB/s in the guide (141.696 before its truncation).
    let gtx280 = theoretical_bandwidth_gbps(1_107_000, 512);
    assert!((gtx280 - 141.696).abs() < 1e-9, "{gtx280}");
    // 8800 GTX: 900 MHz, 384-bit -> 86.4 GB/s.
    assert!((theoretical_bandwidth_gbps(900_000, 384) - 86.4).abs() < 1e-9);
    // H200 as its driver reports it: 3201 MHz, 6016-bit.
    assert!((theoretical_bandwidth_gbps(3_201_000, 6016) - 4814.304).abs() < 1e-6);
    assert_eq!(
        theoretical_bandwidth_gbps(0, 512),
        0.0,
        "unknown clock gives 0, not garbage"
    );
}

#[test]
fn effective_bandwidth_uses_1e9_and_counts_reads_plus_writes() {
    // The guide's 2048x2048 float copy: 2048^2 * 4 bytes read and written in 1 ms.
    let bytes = 2048u64 * 2048 * 4;
    let gbps = effective_bandwidth_gbps(bytes, bytes, 1e-3);
    assert!((gbps - 33.554432).abs() < 1e-9, "{gbps}");
    assert_eq!(effective_bandwidth_gbps(bytes, bytes, 0.0), 0.0);
    assert!((percent_of(70.8, 141.6) - 50.0).abs() < 1e-9);
    assert_eq!(percent_of(1.0, 0.0), 0.0);
}

#[test]
fn summary_gives_min_median_max() {
    let s = Summary::of(&[3.0, 1.0, 2.0]).unwrap();
    assert_eq!((s.min, s.median, s.max), (1.0, 2.0, 3.0));
    let even = Summary::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
    assert_eq!(even.median, 2.5);
    assert!(Summary::of(&[]).is_none());
    assert!(Summary::of(&[1.0, f64::NAN]).is_none());
}

#[test]
fn offset_copy_shape_admits_exact_fit_and_refuses_one_past() {
    let shape = offset_copy_shape(1024, 32, 1056, 1056).unwrap();
    assert_eq!((shape.grid.x, shape.block.x), (4, 256));
    assert!(matches!(
        offset_copy_shape(1024, 33, 1056, 1056),
        Err(Error::InvalidLaunch { .. })
    ));
    assert!(
        offset_copy_shape(1024, 0, 1056, 1023).is_err(),
        "the shorter buffer decides"
    );
    assert!(offset_copy_shape(1024, -1, 2048, 2048).is_err(), "negative offset");
    assert!(offset_copy_shape(1000, 0, 2048, 2048).is_err(), "not whole blocks");
    assert!(offset_copy_shape(0, 0, 2048, 2048).is_err(), "no threads");
    let huge = (1u64 << 31) + 256; // last index 2^31 + 255 does not fit an int
    assert!(
        offset_copy_shape(huge, 0, usize::MAX, usize::MAX).is_err(),
        "int index overflow"
    );
}

#[test]
fn stride_copy_shape_checks_the_last_strided_index() {
    // 256 threads at stride 4: the last element touched is 1020.
    assert!(stride_copy_shape(256, 4, 1021, 1021).is_ok());
    assert!(stride_copy_shape(256, 4, 1020, 4096).is_err());
    assert!(stride_copy_shape(256, 0, 4096, 4096).is_err());
    assert!(
        stride_copy_shape(1 << 24, 1 << 8, usize::MAX, usize::MAX).is_err(),
        "int index overflow"
    );
}

#[test]
fn experiment_selection_accepts_known_names_only() {
    // Every registered experiment, once, in registry order (README's table is checked against the
    // registry by `readme_lists_the_experiments_in_registry_order`, so a new experiment touches its
    // file, the registry line and its README row, and no list here).
    let all = experiments::select(None).unwrap();
    let names: Vec<&str> = all.iter().map(|e| e.name()).collect();
    let registry: Vec<&str> = experiments::EXPERIMENTS.iter().map(|e| e.name()).collect();
    assert_eq!(names, registry);
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "experiment names are unique");
    assert!(names.len() >= 25 && names.starts_with(&["offset", "stride", "shift"]));
    for name in &names {
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{name}: names are plain file-name words (plots are named after them)"
        );
        assert_eq!(experiments::select(Some(name)).unwrap()[0].name(), *name);
    }
    let one = experiments::select(Some("stride, stride")).unwrap();
    assert_eq!(one.len(), 1);
    let err = experiments::select(Some("offset,nope"))
        .err()
        .expect("nope is unknown")
        .to_string();
    assert!(err.contains("nope") && err.contains("offset, stride, shift"), "{err}");
    assert!(experiments::select(Some(",")).is_err());
}

#[test]
fn run_settings_validate_ranges() {
    assert!(RunSettings::default().validate().is_ok());
    let bad = |f: fn(&mut RunSettings)| {
        let mut s = RunSettings::default();
        f(&mut s);
        s.validate().is_err()
    };
    assert!(bad(|s| s.reps = 0));
    assert!(bad(|s| s.samples = 0));
    assert!(bad(|s| s.buffer_mib = Some(0)));
    assert!(bad(|s| s.buffer_mib = Some(1 << 40)));
}

#[test]
fn ptx_directives_and_driver_requirements_parse() {
    let text = "//\n.version 7.0\n.target sm_75\n.address_size 64\n.visible .entry foo(\n.visible .entry bar(\n";
    assert_eq!(ptx::isa_version(text), Some("7.0"));
    assert_eq!(ptx::target(text), Some("sm_75"));
    assert_eq!(ptx::entry_points(text), ["foo", "bar"]);
    assert_eq!(ptx::minimum_cuda_for_isa("7.0").as_deref(), Some("11.0"));
    assert_eq!(ptx::minimum_cuda_for_isa("8.7").as_deref(), Some("12.8"));
    assert_eq!(ptx::minimum_cuda_for_isa("9.0").as_deref(), Some("13.0"));
    assert_eq!(ptx::minimum_cuda_for_isa("x"), None);
}

#[test]
fn shift_shapes_check_reads_and_writes_separately() {
    use ptxsuite::launchers::{shift_copy_shape, texture_shift_copy_shape};
    assert!(
        shift_copy_shape(256, 32, 256, 288).is_ok(),
        "reads up to 287, writes up to 255"
    );
    assert!(shift_copy_shape(256, 33, 256, 288).is_err(), "reads 288");
    assert!(shift_copy_shape(256, 0, 255, 4096).is_err(), "writes 255");
    assert!(shift_copy_shape(256, -1, 256, 4096).is_err());
    // The texture fetch past the end reads 0: only the writes bound the launch.
    use ptxsuite::launchers::permuted_copy_shape;
    assert!(
        permuted_copy_shape(256, 31, 256, 256).is_ok(),
        "every key reads its own segment"
    );
    assert!(permuted_copy_shape(256, 32, 256, 256).is_err(), "key 32");
    assert!(permuted_copy_shape(256, -1, 256, 256).is_err(), "key -1");
    assert!(permuted_copy_shape(512, 0, 512, 511).is_err(), "reads 512 of 511");
    assert!(permuted_copy_shape(200, 0, 512, 512).is_err(), "not whole blocks");
    assert!(texture_shift_copy_shape(256, 1000, 256).is_ok());
    assert!(texture_shift_copy_shape(512, 0, 256).is_err());
    assert!(
        texture_shift_copy_shape(256, i32::MAX, 256).is_err(),
        "texel index overflows an int"
    );
}

#[test]
fn matvec_shapes_follow_the_versions() {
    use ptxsuite::launchers::{MatVecVersion, matvec_shape};
    let lens = (1100 * 60989, 1100, 60989);
    let naive = matvec_shape(MatVecVersion::RowPerThread, 1100, 60989, lens, 1056).unwrap();
    assert_eq!(
        (naive.grid.x, naive.block.x, naive.shared_bytes),
        (60989u32.div_ceil(256), 256, 0)
    );
    let rows = matvec_shape(MatVecVersion::GridStrideRows, 1100, 60989, lens, 1056).unwrap();
    assert_eq!(rows.grid.x, 239, "never more blocks than rows need");
    let warp = matvec_shape(MatVecVersion::WarpShuffle, 1100, 60989, lens, 1056).unwrap();
    assert_eq!((warp.grid.x, warp.shared_bytes), (1056, 256 * 4));
    let per_row = matvec_shape(MatVecVersion::WarpPerRow, 1100, 60989, lens, 1056).unwrap();
    assert_eq!(
        (per_row.grid.x, per_row.shared_bytes),
        (7624, 0),
        "one row per warp, 8 warps a block"
    );
    let small = matvec_shape(MatVecVersion::WarpPerRow, 1100, 20, (22000, 1100, 20), 1056).unwrap();
    assert_eq!(small.grid.x, 3, "8 warps per block: 20 rows need 3 blocks");
    // Wide rows are split among warps_per_row(width) warps, which share their sums in shared memory.
    for (width, grid, shared_bytes) in [(8192, 12800, 32), (4096, 6400, 32), (2048, 3200, 32), (8190, 1600, 0)] {
        let lens = (width as usize * 12800, width as usize, 12800);
        let split = matvec_shape(MatVecVersion::WarpPerRow, width, 12800, lens, 1056).unwrap();
        assert_eq!(
            (split.grid.x, split.block.x, split.shared_bytes),
            (grid, 256, shared_bytes),
            "width {width}"
        );
    }
    let few_rows = matvec_shape(MatVecVersion::TreeSequential, 1100, 10, (11000, 1100, 10), 1056).unwrap();
    assert_eq!(few_rows.grid.x, 10, "one block per row at most");
    assert!(matvec_shape(MatVecVersion::WarpShuffle, 1100, 10, (10999, 1100, 10), 1056).is_err());
    assert!(matvec_shape(MatVecVersion::WarpShuffle, 1100, 10, (11000, 1099, 10), 1056).is_err());
    assert!(matvec_shape(MatVecVersion::WarpShuffle, 1100, 10, (11000, 1100, 9), 1056).is_err());
    assert!(matvec_shape(MatVecVersion::WarpShuffle, 0, 10, (11000, 1100, 10), 1056).is_err());
}

#[test]
fn matvec_reference_and_tolerance() {
    use ptxsuite::reference::{matvec, matvec_mismatch};
    // [[1, 2], [3, 4]] . [5, 6] = [17, 39]
    let (w, scale) = matvec(&[1.0, 2.0, 3.0, 4.0], 2, 2, &[5.0, 6.0]);
    assert_eq!(w, [17.0, 39.0]);
    assert_eq!(scale, [17.0, 39.0]);
    assert!(matvec_mismatch(&[17.0, 39.0], &w, &scale, 2).is_none());
    assert!(matvec_mismatch(&[17.0, 39.01], &w, &scale, 2).is_some());
    assert!(
        matvec_mismatch(&[f32::NAN, 39.0], &w, &scale, 2).is_some(),
        "an unwritten row is caught"
    );
    assert!(
        matvec_mismatch(&[17.0], &w, &scale, 2).is_some(),
        "a missing row is caught"
    );
}

#[test]
fn transfer_sizes_grow_by_four_from_4_kib() {
    use ptxsuite::experiments::transfer_sizes;
    let sizes = transfer_sizes(1 << 30);
    assert_eq!(sizes.first(), Some(&4096));
    assert_eq!(sizes.last(), Some(&(1 << 30)));
    assert_eq!(sizes.len(), 10);
    assert!(sizes.windows(2).all(|w| w[1] == 4 * w[0]));
    assert_eq!(transfer_sizes(5000), [4096]);
}

#[test]
fn fma_chain_reference_iterates_the_affine_map() {
    use kernels_gpu::streams::{FMA_CHAIN_A, FMA_CHAIN_B};
    assert_eq!(ptxsuite::reference::fma_chain(0.5, 0), 0.5);
    assert_eq!(
        ptxsuite::reference::fma_chain(0.5, 1),
        0.5f32.mul_add(FMA_CHAIN_A, FMA_CHAIN_B)
    );
    // The fixed point of x = A x + B is B / (1 - A) = 10; long chains approach it.
    assert!((ptxsuite::reference::fma_chain(0.0, 200_000) - 10.0).abs() < 1e-2);
}

#[test]
fn points_from_times_withhold_every_figure_of_failed_results() {
    use ptxsuite::report::{Metric, Point, PointKey, Status, Work};
    // 1e9 bytes in 1, 2 and 4 ms: 1000, 500 and 250 GB/s.
    let work = Work::bytes(10, 1_000_000_000).with_flops(2_000_000_000);
    let ok = Point::timed(PointKey::Value(7), &Metric::Bandwidth, work, &[2.0, 1.0, 4.0], None).unwrap();
    let g = ok.value.unwrap();
    assert_eq!((g.min, g.median, g.max), (250.0, 500.0, 1000.0));
    assert_eq!(ok.time_ms.unwrap().median, 2.0);
    assert_eq!(ok.extra.get("GFLOP/s"), Some(&1000.0), "2e9 operations in 2 ms");
    assert!(ok.status.is_ok());
    let gflops = Point::timed(PointKey::Value(7), &Metric::Gflops, work, &[2.0], None).unwrap();
    assert_eq!(gflops.median(), Some(1000.0));
    assert_eq!(gflops.extra.get("GB/s"), Some(&500.0));
    let bad = Point::timed(
        PointKey::Value(7),
        &Metric::Bandwidth,
        work,
        &[2.0],
        Some("element 3".into()),
    )
    .unwrap();
    assert!(bad.value.is_none() && bad.extra.is_empty() && bad.median_ms().is_none());
    assert_eq!(bad.status, Status::Failed("element 3".into()));
    assert!(Point::timed(PointKey::Value(7), &Metric::Bandwidth, work, &[], None).is_none());
    assert!(Point::timed(PointKey::Value(7), &Metric::Bandwidth, work, &[f64::NAN], None).is_none());
}

#[test]
fn guide_multiply_shapes_need_tile_multiples_and_room() {
    use ptxsuite::launchers::{GuideMultiply, guide_multiply_shape};
    let fits = (64 * 32, 32 * 96, 64 * 96);
    let shape = guide_multiply_shape(GuideMultiply::SharedAb, 64, 96, fits).unwrap();
    assert_eq!(
        (shape.grid.x, shape.grid.y, shape.block.x, shape.block.y),
        (3, 2, 32, 32)
    );
    assert_eq!(shape.shared_bytes, 2 * 32 * 32 * 4);
    let padded = guide_multiply_shape(GuideMultiply::CoalescedAatPadded, 64, 0, (64 * 32, 0, 64 * 64)).unwrap();
    assert_eq!((padded.grid.x, padded.grid.y), (2, 2));
    assert_eq!(padded.shared_bytes, (32 * 32 + 32 * 33) * 4);
    for (m, n, lens) in [
        (48, 96, fits),                                       // M not a multiple of 32
        (64, 0, fits),                                        // empty
        (64, 96, (64 * 32 - 1, 32 * 96, 64 * 96)),            // A one short
        (64, 96, (64 * 32, 32 * 96, 64 * 96 - 1)),            // C one short
        (46368, 46368, (usize::MAX, usize::MAX, usize::MAX)), // C indices beyond i32
    ] {
        assert!(
            matches!(
                guide_multiply_shape(GuideMultiply::Simple, m, n, lens),
                Err(Error::InvalidLaunch { .. })
            ),
            "{m} x {n} with {lens:?} must be refused"
        );
    }
}

#[test]
fn gemm_buffers_and_error_bound() {
    use ptxsuite::launchers::check_gemm_buffers;
    use ptxsuite::reference::{dot_error_bound, matmul, matmul_element, matmul_mismatch};
    assert!(check_gemm_buffers("t", (3, 5, 7), (21, 35, 15)).is_ok());
    for (dims, lens) in [
        ((3, 5, 7), (20, 35, 15)),
        ((3, 5, 7), (21, 34, 15)),
        ((3, 5, 7), (21, 35, 14)),
        ((0, 5, 7), (21, 35, 15)),
        ((65536, 65536, 1), (usize::MAX, usize::MAX, usize::MAX)),
    ] {
        assert!(check_gemm_buffers("t", dims, lens).is_err(), "{dims:?} {lens:?}");
    }
    // γ_k grows linearly in k·u for small k·u.
    let u = f64::powi(2.0, -24);
    assert!((dot_error_bound(32) / (33.0 * u) - 1.0).abs() < 1e-5);
    assert!(dot_error_bound(8192) > 8192.0 * u);
    // The threaded reference agrees with one element computed alone, and a wrong element is caught.
    let (m, k, n) = (37, 19, 23);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 7) as f32 * 0.5).collect();
    let (c, scale) = matmul(&a, &b, m, k, n);
    for (row, col) in [(0, 0), (36, 22), (17, 5)] {
        assert_eq!(
            matmul_element(&a, &b, (k, n), row, col),
            (c[row * n + col], scale[row * n + col])
        );
    }
    assert!(matmul_mismatch(&c, &c, &scale, k, n).is_none());
    let mut wrong = c.clone();
    wrong[5 * n + 7] += 1.0;
    let why = matmul_mismatch(&wrong, &c, &scale, k, n).expect("caught");
    assert!(why.contains("C[5][7]"), "{why}");
}

mod selftest_registry {
    use ptxsuite::selftest::{Outcome, SELF_TESTS, Status, table};

    #[test]
    fn every_check_has_a_unique_name_and_the_required_paths_are_covered() {
        let names: Vec<&str> = SELF_TESTS.iter().map(|t| t.name).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for needed in [
            "offset_copy",
            "stride_copy",
            "shift_copy",
            "texture_shift_copy",
            "texture_2d_tile_sample",
            "vector_copy",
            "driver copy",
            "matrix-vector",
            "cuBLAS",
            "pageable",
            "pinned",
            "write-combined",
            "mapped",
            "zero-copy",
            "staged fma_chain",
            "time limit",
            "CUDA C twins",
            "cuda_std",
        ] {
            assert!(
                names.iter().any(|n| n.contains(needed)),
                "no check for {needed}: {names:?}"
            );
        }
    }

    #[test]
    fn the_table_lists_each_check_and_counts_them() {
        let outcomes = [
            Outcome {
                name: "vector_copy",
                status: Status::Ok,
                detail: "3 ms".into(),
            },
            Outcome {
                name: "cuBLAS SGEMV",
                status: Status::Waived,
                detail: "cuBLAS (libcublas) not found".into(),
            },
            Outcome {
                name: "shift_copy",
                status: Status::Failed,
                detail: "verification failed for shift_copy".into(),
            },
        ];
        let text = table(&outcomes);
        assert!(text.lines().next().unwrap().starts_with("check"), "{text}");
        assert!(text.contains("vector_copy   ok       3 ms"), "{text}");
        assert!(
            text.contains("cuBLAS SGEMV  waived   cuBLAS (libcublas) not found"),
            "{text}"
        );
        assert!(text.contains("shift_copy    FAILED   verification failed"), "{text}");
        assert!(text.ends_with("selftest: 1 ok, 1 FAILED, 1 waived\n"), "{text}");
    }
}

#[test]
fn nominal_shapes_are_the_launchers_blocks() {
    use kernels_gpu::sgemm::{SGEMM_THREADS, sgemm_shared_bytes};
    use ptxsuite::launchers::nominal_shape;
    let shape = |k: &str| {
        let s = nominal_shape(k);
        (s.block.count(), s.shared_bytes)
    };
    assert_eq!(shape("coalesced_multiply_aat_padded"), (1024, (32 * 32 + 32 * 33) * 4));
    assert_eq!(shape("simple_multiply"), (1024, 0));
    assert_eq!(
        shape("sgemm_register_blocked"),
        (SGEMM_THREADS as u64, sgemm_shared_bytes() as u32)
    );
    assert_eq!(
        shape("hgemm_f16_storage"),
        (SGEMM_THREADS as u64, sgemm_shared_bytes() as u32)
    );
    for whole in ["sgemm_register_blocked_whole_tiles", "hgemm_f16_storage_whole_tiles"] {
        assert_eq!(shape(whole), (SGEMM_THREADS as u64, sgemm_shared_bytes() as u32));
    }
    let narrow = kernels_gpu::sgemm::SGEMM_TILE_128X64.shared_bytes() as u32;
    assert_eq!(narrow, 2 * (16 * 132 + 16 * 64) * 4);
    for entry in [
        "sgemm_register_blocked_128x64",
        "sgemm_register_blocked_128x64_whole_tiles",
    ] {
        assert_eq!(shape(entry), (SGEMM_THREADS as u64, narrow), "{entry}");
    }
    assert_eq!(shape("tiled_sgemm"), (16 * 16, 2 * 16 * 16 * 4));
    assert_eq!(shape("matvec_tree_sequential"), (256, 256 * 4));
    assert_eq!(shape("matvec_row_per_thread"), (256, 0));
    assert_eq!(shape("offset_copy"), (256, 0));
    assert_eq!(shape("ptx_device_block_sum"), (256, 256 * 4));
    assert_eq!(
        shape("cuda_std_block_sum"),
        (256, 0),
        "its tile is a static .shared array"
    );
    assert_eq!(shape("cuda_std_vecadd"), (256, 0));
}

#[test]
fn compat_layer_shapes_cover_every_index_the_kernels_touch() {
    use ptxsuite::launchers::{CompatKernel, KernelLayer, block_sum_shape, vecadd_shape};
    for layer in KernelLayer::ALL {
        // 1000 elements: 4 blocks of 256, the last one partial.
        let shape = vecadd_shape(layer, 1000, (1000, 1000, 1000)).unwrap();
        assert_eq!((shape.grid.x, shape.block.x, shape.shared_bytes), (4, 256, 0));
        for short in [(999, 1000, 1000), (1000, 999, 1000), (1000, 1000, 999)] {
            assert!(vecadd_shape(layer, 1000, short).is_err(), "{short:?}");
        }
        assert!(vecadd_shape(layer, 0, (1, 1, 1)).is_err(), "no elements");
        assert!(
            vecadd_shape(layer, u32::MAX as u64 + 1, (usize::MAX, usize::MAX, usize::MAX)).is_err(),
            "the thread index is 32-bit"
        );
        let shape = block_sum_shape(layer, 1000, 1000, 4).unwrap();
        assert_eq!((shape.grid.x, shape.block.x), (4, 256));
        assert!(block_sum_shape(layer, 1000, 1000, 3).is_err(), "4 sums need 4 slots");
        assert!(block_sum_shape(layer, 1001, 1000, 4).is_err(), "past the input");
        let error = block_sum_shape(layer, 1001, 1000, 4).unwrap_err().to_string();
        assert!(error.contains(CompatKernel::BlockSum.entry(layer)), "{error}");
    }
    assert_eq!(
        block_sum_shape(KernelLayer::PtxDevice, 1, 1, 1).unwrap().shared_bytes,
        1024
    );
    assert_eq!(block_sum_shape(KernelLayer::CudaStd, 1, 1, 1).unwrap().shared_bytes, 0);
    for kernel in CompatKernel::ALL {
        for layer in KernelLayer::ALL {
            assert_eq!(CompatKernel::of_entry(kernel.entry(layer)), Some((kernel, layer)));
        }
    }
    assert_eq!(CompatKernel::of_entry("vector_copy"), None);
}

#[test]
fn launch_bounds_go_between_the_parameters_and_the_body_on_their_architectures_only() {
    let ptx = ".visible .entry sgemm_register_blocked(\n\t.param .u32 p\n)\n{\n\tret;\n}\n\
               .visible .entry other(\n)\n{\n\tret;\n}\n";
    let bounded = ptx::with_launch_bounds(ptx, (9, 0));
    assert_eq!(
        bounded,
        ".visible .entry sgemm_register_blocked(\n\t.param .u32 p\n)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\n\tret;\n}\n\
         .visible .entry other(\n)\n{\n\tret;\n}\n"
    );
    assert_eq!(
        ptx::with_launch_bounds(ptx, (8, 0)),
        ptx,
        "not tuned for sm_80: left unbounded"
    );
    assert_eq!(
        ptx::with_launch_bounds(".version 7.0\n", (9, 0)),
        ".version 7.0\n",
        "no bounded entry"
    );
}

#[test]
fn only_whole_tile_shapes_take_the_unguarded_register_blocked_entries() {
    use ptxsuite::launchers::whole_register_blocked_tiles;
    for dims in [(128, 128, 8), (4096, 4096, 4096), (256, 8192, 1000)] {
        assert!(whole_register_blocked_tiles(dims), "{dims:?}");
    }
    for dims in [
        (4095, 4095, 4095),
        (128, 128, 12),
        (127, 128, 8),
        (128, 129, 8),
        (64, 128, 8),
    ] {
        assert!(!whole_register_blocked_tiles(dims), "{dims:?}");
    }
}

#[test]
fn the_register_blocked_tile_fills_an_h100_at_every_measured_size() {
    use kernels_gpu::sgemm::{SGEMM_TILE_128X64, SGEMM_TILE_128X128};
    use ptxsuite::launchers::register_blocked_tile;
    const H100_SMS: u32 = 132;
    // 1024³: 64 blocks of 128 × 128 would leave 68 SMs idle; 128 × 64 makes 128.
    let choice = register_blocked_tile((1024, 1024, 1024), H100_SMS);
    assert_eq!(choice.tile, SGEMM_TILE_128X64);
    assert_eq!(choice.blocks((1024, 1024)), 128);
    assert_eq!(
        choice.entry_for((1024, 1024, 1024)),
        "sgemm_register_blocked_128x64_whole_tiles"
    );
    // From 2048³ the large tile gives every SM at least one block and keeps the busiest SM's work least.
    for size in [2048, 4095, 4096, 8192] {
        let choice = register_blocked_tile((size, size, size), H100_SMS);
        assert_eq!(choice.tile, SGEMM_TILE_128X128, "{size}³");
        assert!(choice.blocks((size, size)) >= 2 * H100_SMS as u64 - 8, "{size}³");
    }
    assert_eq!(
        register_blocked_tile((4095, 4095, 4095), H100_SMS).entry_for((4095, 4095, 4095)),
        "sgemm_register_blocked_guarded_edges",
        "4095³ has ragged edges: guards in the edge blocks only"
    );
    // The rule, computed here from first principles: the tile whose busiest SM has the fewest
    // outputs (the 128 × 64 tile's counted 1/0.9), ties to 128 × 128.
    for sms in [1u32, 28, 46, 80, 108, 114, 132, 144] {
        for size in [
            64u32, 100, 256, 500, 512, 768, 1000, 1024, 1536, 2048, 3000, 4095, 4096, 8192,
        ] {
            let s = size as u64;
            let work = |rows: u64, cols: u64| (s.div_ceil(rows) * s.div_ceil(cols)).div_ceil(sms as u64) * rows * cols;
            let (large, narrow) = (work(128, 128) as f64, work(128, 64) as f64 / 0.9);
            let expected = if narrow < large {
                SGEMM_TILE_128X64
            } else {
                SGEMM_TILE_128X128
            };
            assert_eq!(
                register_blocked_tile((size, size, size), sms).tile,
                expected,
                "{size}³ on {sms} SMs"
            );
        }
    }
    // One SM: the larger tile (ties go to it); a skinny C with few block rows takes the narrow tile.
    assert_eq!(register_blocked_tile((4096, 4096, 64), 1).tile, SGEMM_TILE_128X128);
    assert_eq!(
        register_blocked_tile((128, 8192, 4096), H100_SMS).tile,
        SGEMM_TILE_128X64
    );
}

#[test]
fn the_register_blocked_series_never_splits_k() {
    use kernels_gpu::sgemm::SGEMM_TILE_128X64;
    use ptxsuite::launchers::{adds_into_c, register_blocked_plan, register_blocked_tile};
    const H100_SMS: u32 = 132;
    // 1024³: 128 blocks of 128 × 64 on 132 SMs, one each, unsplit (split-K lost there on an H100).
    let plan = register_blocked_plan((1024, 1024, 1024), H100_SMS);
    assert_eq!((plan.choice.tile, plan.splits), (SGEMM_TILE_128X64, 1));
    assert_eq!(plan.blocks((1024, 1024)), 128);
    assert_eq!(plan.grid((1024, 1024)), (16, 8, 1));
    assert_eq!(
        plan.entry((1024, 1024, 1024)),
        "sgemm_register_blocked_128x64_whole_tiles"
    );
    assert_eq!(plan.label(), "128 × 64");
    // Every shape, every SM count: the tile rule's tile and entry, one block per tile of C.
    for sms in [1u32, 28, 46, 80, 108, 114, 132, 144] {
        for size in [64u32, 256, 500, 512, 768, 1000, 1024, 1536, 2048, 4095, 4096, 8192] {
            for k in [16u32, 255, 256, 1024] {
                let dims = (size, size, k);
                let plan = register_blocked_plan(dims, sms);
                assert_eq!(plan.splits, 1, "{size}² × {k} on {sms} SMs");
                assert_eq!(plan.choice, register_blocked_tile(dims, sms));
                assert_eq!(plan.entry(dims), plan.choice.entry_for(dims));
                assert!(!adds_into_c(plan.entry(dims)), "{size}² × {k} on {sms} SMs");
            }
        }
    }
}

#[test]
fn the_split_k_series_runs_the_128x64_tile_in_two_at_every_size() {
    use kernels_gpu::sgemm::SGEMM_TILE_128X64;
    use ptxsuite::launchers::{SPLIT_K_MIN_TILES, SPLIT_K_PLAN, SPLIT_K_SPLITS, adds_into_c, split_k_deep_enough};
    let plan = SPLIT_K_PLAN;
    assert_eq!((plan.choice.tile, plan.splits), (SGEMM_TILE_128X64, SPLIT_K_SPLITS));
    assert_eq!(
        SPLIT_K_SPLITS, 2,
        "only two partials sum to the same bits in either order"
    );
    // 1024³: 128 tiles of C, two blocks each, 32 k tiles a split.
    assert_eq!(plan.blocks((1024, 1024)), 256);
    assert_eq!(plan.grid((1024, 1024)), (16, 8, 2));
    assert_eq!(plan.label(), "128 × 64, split-K 2");
    for dims in [(1024, 1024, 1024), (4095, 4095, 4095), (1, 1, 1), (4096, 4096, 4096)] {
        assert_eq!(plan.entry(dims), "sgemm_register_blocked_128x64_split_k");
        assert!(adds_into_c(plan.entry(dims)));
    }
    // The experiment measures it where each split gets at least SPLIT_K_MIN_TILES k tiles of 16:
    // every size it runs.
    let shallow = (SPLIT_K_SPLITS * SPLIT_K_MIN_TILES - 1) * SGEMM_TILE_128X64.depth;
    assert!(!split_k_deep_enough(shallow));
    assert!(split_k_deep_enough(shallow + 1));
    for k in [1024, 2048, 4095, 4096, 8192] {
        assert!(split_k_deep_enough(k), "{k}");
    }
}

#[test]
fn the_register_blocked_launch_matches_the_chosen_tile_and_checks_buffers() {
    use ptxsuite::launchers::{SPLIT_K_PLAN, SgemmKernel, register_blocked_plan, sgemm_launch};
    for (dims, sms) in [
        ((1024, 1024, 1024), 132),
        ((4095, 4095, 4095), 132),
        ((67, 67, 67), 132),
        ((130, 70, 33), 8),
        ((700, 300, 999), 132),
    ] {
        let (m, n, k) = dims;
        let lens = ((m * k) as usize, (k * n) as usize, (m * n) as usize);
        // The register-blocked series (the rule's tile, unsplit), then its split-K series (128 × 64 in two).
        for (kernel, plan) in [
            (SgemmKernel::RegisterBlocked, register_blocked_plan(dims, sms)),
            (SgemmKernel::RegisterBlockedSplitK, SPLIT_K_PLAN),
        ] {
            let (entry, shape) = sgemm_launch(kernel, dims, lens, sms).unwrap();
            let choice = plan.choice;
            assert_eq!(entry, plan.entry(dims), "{kernel:?} {dims:?}");
            let (x, y) = choice.tile.grid(m, n);
            assert_eq!(
                (shape.grid.x, shape.grid.y, shape.grid.z, shape.block.x),
                (x, y, plan.splits, 256),
                "{kernel:?} {dims:?}"
            );
            assert_eq!(shape.shared_bytes as usize, choice.tile.shared_bytes());
            // Every C element is covered by the grid.
            assert!(x * choice.tile.cols >= n && y * choice.tile.rows >= m);
            let short = (lens.0, lens.1, lens.2 - 1);
            assert!(sgemm_launch(kernel, dims, short, sms).is_err(), "{kernel:?} {dims:?}");
        }
        assert_eq!(
            sgemm_launch(SgemmKernel::RegisterBlocked, dims, lens, sms)
                .unwrap()
                .1
                .grid
                .z,
            1,
            "{dims:?}: the register-blocked series never splits"
        );
    }
    let (entry, _) = sgemm_launch(SgemmKernel::Tiled, (64, 64, 64), (4096, 4096, 4096), 132).unwrap();
    assert_eq!(entry, "tiled_sgemm");
}

/// README's experiment table lists every experiment once, in the order `list` prints them.
#[test]
fn readme_lists_the_experiments_in_registry_order() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| experiment |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    let registry: Vec<&str> = experiments::EXPERIMENTS.iter().map(|e| e.name()).collect();
    assert_eq!(table, registry);
}
