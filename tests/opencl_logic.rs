//! The OpenCL layer's pure logic, without any OpenCL platform: PCI addresses,
//! device matching, ICD registration planning, build options, NDRanges and
//! the OpenCL launchers' shapes, and the twins' entry names against the Rust PTX.

use std::path::Path;

use kernels_gpu::device::Dim3;
use ptxsuite::gpu::LaunchShape;
use ptxsuite::launchers::opencl::{estimated_wave_groups, matvec_launch, nd_range, vector_copy_groups};
use ptxsuite::launchers::{MatVecVersion, SgemmKernel, offset_copy_shape, opencl_c_kernels, sgemm_shape};
use ptxsuite::opencl::{
    ClDeviceType, DeviceMatch, LocalMemory, MatvecReduction, NdRange, OPENCL_C_SOURCE, OPENCL_C_THROUGHPUT_SOURCE,
    OpenClDeviceInfo, PciAddress, match_device, name_versions, pci_bus_info_khr, plan_vendor_registration,
    registered_icd_files, twin_build_options, uuid_string, version_number,
};
use ptxsuite::ptx::{KERNELS_PTX, entry_points};

/// A device as NVIDIA's OpenCL describes an H100 (OpenCL C 1.2, no sub-groups).
fn nvidia_h100() -> OpenClDeviceInfo {
    OpenClDeviceInfo {
        platform_name: "NVIDIA CUDA".into(),
        platform_vendor: "NVIDIA Corporation".into(),
        platform_version: "OpenCL 3.0 CUDA 13.0.88".into(),
        name: "NVIDIA H100 80GB HBM3".into(),
        vendor: "NVIDIA Corporation".into(),
        version: "OpenCL 3.0 CUDA".into(),
        driver_version: "580.65.06".into(),
        opencl_c_version: "OpenCL C 1.2 ".into(),
        device_type: ClDeviceType::Gpu,
        extensions: [
            "cl_khr_fp64",
            "cl_khr_device_uuid",
            "cl_khr_pci_bus_info",
            "cl_nv_compiler_options",
            "cl_nv_pragma_unroll",
        ]
        .map(String::from)
        .to_vec(),
        opencl_c_features: vec!["__opencl_c_images".into(), "__opencl_c_fp64".into()],
        compute_units: 132,
        max_clock_mhz: 1980,
        max_work_group_size: 1024,
        local_memory_bytes: 49152,
        global_memory_bytes: 85 << 30,
        max_allocation_bytes: 21 << 30,
        base_address_align_bits: 4096,
        image_support: true,
        image1d_buffer_max_texels: 1 << 28,
        uuid: Some([0x11; 16]),
        pci_address: Some(PciAddress {
            domain: Some(0),
            bus: 0,
            device: 6,
            function: 0,
        }),
    }
}

fn pocl_cpu() -> OpenClDeviceInfo {
    OpenClDeviceInfo {
        platform_name: "Portable Computing Language".into(),
        platform_vendor: "The pocl project".into(),
        name: "pthread-skylake-avx512".into(),
        vendor: "AuthenticAMD".into(),
        opencl_c_version: "OpenCL C 1.2 PoCL".into(),
        device_type: ClDeviceType::Cpu,
        extensions: vec!["cl_khr_fp64".into()],
        uuid: None,
        pci_address: None,
        ..nvidia_h100()
    }
}

#[test]
fn opencl_pci_addresses_parse_in_cuda_and_nvidia_smi_forms() {
    let cuda = PciAddress::parse("0000:c1:00.0").unwrap();
    let smi = PciAddress::parse("00000000:C1:00.0").unwrap();
    assert_eq!(cuda, smi);
    assert_eq!(cuda.to_string(), "0000:c1:00.0");
    let short = PciAddress::parse("06:1f.7").unwrap();
    assert_eq!(
        (short.domain, short.bus, short.device, short.function),
        (None, 6, 31, 7)
    );
    for bad in [
        "",
        "0000:c1:00",
        "0000:c1:20.0",
        "0000:c1:00.8",
        "zz:00.0",
        "1:2:3:4.0",
        "0000:100:00.0",
    ] {
        assert_eq!(PciAddress::parse(bad), None, "{bad:?} should not parse");
    }
    // NVIDIA's attribute query: slot = device << 3 | function, no domain.
    let nv = PciAddress::from_nv_bus_and_slot(0xc1, (3 << 3) | 1);
    assert_eq!((nv.bus, nv.device, nv.function), (0xc1, 3, 1));
    assert!(nv.same_device(&PciAddress::parse("0000:c1:03.1").unwrap()));
    assert!(
        nv.same_device(&PciAddress::parse("0001:c1:03.1").unwrap()),
        "an unknown domain matches any"
    );
    assert!(
        !cuda.same_device(&PciAddress::parse("0001:c1:00.0").unwrap()),
        "known domains must agree"
    );
    assert!(!cuda.same_device(&PciAddress::parse("0000:c1:00.1").unwrap()));
    assert_eq!(nv.to_string(), "????:c1:03.1");
}

#[test]
fn opencl_device_matching_prefers_the_uuid_then_the_pci_address() {
    let (gpu, cpu) = (nvidia_h100(), pocl_cpu());
    let mut second_gpu = nvidia_h100();
    second_gpu.uuid = Some([0x22; 16]);
    second_gpu.pci_address = PciAddress::parse("0000:00:07.0");
    let devices = [&cpu, &gpu, &second_gpu];
    assert_eq!(
        match_device(&devices, [0x22; 16], "0000:00:06.0"),
        Ok((2, DeviceMatch::Uuid)),
        "the UUID wins over a PCI address naming another device"
    );
    assert_eq!(
        match_device(&devices, [0; 16], "0000:00:07.0"),
        Ok((2, DeviceMatch::PciAddress)),
        "an all-zero UUID is unknown: matched by PCI address"
    );
    assert_eq!(
        match_device(&devices, [0x33; 16], "0000:00:06.0"),
        Ok((1, DeviceMatch::PciAddress))
    );
    // Never the first GPU by default.
    let why = match_device(&devices, [0x33; 16], "0000:00:08.0").unwrap_err();
    assert!(
        why.contains("no OpenCL device matches UUID 33333333-3333-3333-3333-333333333333 or PCI address 0000:00:08.0"),
        "{why}"
    );
    assert!(
        why.contains("NVIDIA H100 80GB HBM3 on NVIDIA CUDA (11111111-1111-1111-1111-111111111111, PCI 0000:00:06.0)"),
        "{why}"
    );
    assert!(
        why.contains("pthread-skylake-avx512 on Portable Computing Language (no UUID, no PCI address)"),
        "{why}"
    );
    assert!(
        !why.contains("register_vendor_libraries"),
        "an NVIDIA platform is there: {why}"
    );
    // Only PoCL: the reason points at the missing NVIDIA registration.
    let why = match_device(&[&cpu], [0x11; 16], "garbage").unwrap_err();
    assert!(why.contains("not understood"), "{why}");
    assert!(why.contains("no NVIDIA OpenCL platform is registered"), "{why}");
}

#[test]
fn opencl_vendor_registration_is_planned_only_when_needed() {
    let pocl = vec![("pocl.icd".to_string(), "libpocl.so.2".to_string())];
    let nvidia_lib = Some("/usr/local/nvidia/lib64/libnvidia-opencl.so.1");
    let plan = plan_vendor_registration(false, &pocl, nvidia_lib).expect("NVIDIA must be registered");
    assert_eq!(
        plan.icd_files,
        vec![
            ("pocl.icd".to_string(), "libpocl.so.2".to_string()),
            (
                "ptxsuite-nvidia.icd".to_string(),
                "/usr/local/nvidia/lib64/libnvidia-opencl.so.1".to_string()
            ),
        ]
    );
    assert!(
        plan.note.contains("libnvidia-opencl.so.1") && plan.note.contains("pocl.icd"),
        "{}",
        plan.note
    );
    assert!(plan.note.contains("OCL_ICD_VENDORS"), "{}", plan.note);
    assert_eq!(
        plan_vendor_registration(true, &pocl, nvidia_lib),
        None,
        "the user's loader variables win"
    );
    assert_eq!(
        plan_vendor_registration(false, &pocl, None),
        None,
        "no NVIDIA library, nothing to register"
    );
    let registered = vec![("nvidia.icd".to_string(), "libnvidia-opencl.so.1".to_string())];
    assert_eq!(
        plan_vendor_registration(false, &registered, nvidia_lib),
        None,
        "already registered"
    );
    assert!(plan_vendor_registration(false, &[], nvidia_lib).is_some());
}

#[test]
fn opencl_registered_icd_files_are_read_from_a_vendors_directory() {
    let dir = std::env::temp_dir().join(format!("ptxsuite-opencl-logic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pocl.icd"), "libpocl.so.2\n").unwrap();
    std::fs::write(dir.join("b.icd"), "  /opt/lib/libb.so  \nignored second line\n").unwrap();
    std::fs::write(dir.join("empty.icd"), "\n").unwrap();
    std::fs::write(dir.join("README"), "not an icd file\n").unwrap();
    let files = registered_icd_files(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        files,
        vec![
            ("b.icd".to_string(), "/opt/lib/libb.so".to_string()),
            ("pocl.icd".to_string(), "libpocl.so.2".to_string()),
        ]
    );
    assert!(registered_icd_files(std::path::Path::new("/nonexistent/ptxsuite")).is_empty());
}

#[test]
fn opencl_build_options_pick_the_reduction_the_device_can_run() {
    // Always the argument types (checked against the Rust kernels).
    // NVIDIA: OpenCL C 1.2, no sub-groups; the verbose build log for register counts; `#pragma unroll`
    // honoured (cl_nv_pragma_unroll), so the divergence twins' path loops are unrolled 8 times.
    assert_eq!(
        twin_build_options(&nvidia_h100(), None),
        (
            "-cl-kernel-arg-info -cl-nv-verbose -D DIVERGENCE_PRAGMA_UNROLL".to_string(),
            MatvecReduction::LocalMemory
        )
    );
    assert_eq!(
        twin_build_options(&pocl_cpu(), None),
        ("-cl-kernel-arg-info".to_string(), MatvecReduction::LocalMemory)
    );
    let mut three = pocl_cpu();
    three.opencl_c_version = "OpenCL C 3.0".into();
    three.opencl_c_features.push("__opencl_c_subgroups".into());
    assert_eq!(
        twin_build_options(&three, None),
        (
            "-cl-kernel-arg-info -cl-std=CL3.0 -D MATVEC_SUB_GROUPS".to_string(),
            MatvecReduction::SubGroups
        )
    );
    assert_eq!(
        twin_build_options(&three, Some(MatvecReduction::LocalMemory)),
        ("-cl-kernel-arg-info".to_string(), MatvecReduction::LocalMemory)
    );
    let mut two = pocl_cpu();
    two.opencl_c_version = "OpenCL C 2.0 beignet".into();
    two.extensions.push("cl_khr_subgroups".into());
    assert_eq!(
        twin_build_options(&two, None),
        (
            "-cl-kernel-arg-info -cl-std=CL2.0 -D MATVEC_SUB_GROUPS".to_string(),
            MatvecReduction::SubGroups
        )
    );
    // cl_khr_subgroups on an OpenCL C 1.2 compiler cannot use the 2.0 built-ins.
    let mut old = pocl_cpu();
    old.extensions.push("cl_khr_subgroups".into());
    assert_eq!(twin_build_options(&old, None).1, MatvecReduction::LocalMemory);
    assert!(three.sub_groups() && two.sub_groups() && !nvidia_h100().sub_groups());
}

#[test]
fn opencl_device_info_decoders_read_the_drivers_layouts() {
    assert_eq!(version_number("1.2 PoCL"), Some((1, 2)));
    assert_eq!(version_number("3.0 CUDA 13.0.88"), Some((3, 0)));
    assert_eq!(version_number("three"), None);
    assert_eq!(nvidia_h100().opencl_c_version_number(), Some((1, 2)));
    assert_eq!(nvidia_h100().version_number(), Some((3, 0)));
    let mut features = Vec::new();
    for (version, name) in [
        (0x0030_0000u32, "__opencl_c_images"),
        (0x0030_0000, "__opencl_c_subgroups"),
    ] {
        features.extend_from_slice(&version.to_ne_bytes());
        let mut padded = [0u8; 64];
        padded[..name.len()].copy_from_slice(name.as_bytes());
        features.extend_from_slice(&padded);
    }
    assert_eq!(
        name_versions(&features),
        vec!["__opencl_c_images", "__opencl_c_subgroups"]
    );
    let words: Vec<u8> = [1u32, 0xc1, 3, 1].iter().flat_map(|w| w.to_ne_bytes()).collect();
    assert_eq!(pci_bus_info_khr(&words), PciAddress::parse("0001:c1:03.1"));
    assert_eq!(pci_bus_info_khr(&words[..12]), None);
    let uuid: [u8; 16] = std::array::from_fn(|i| i as u8 * 17);
    assert_eq!(uuid_string(&uuid), "00112233-4455-6677-8899-aabbccddeeff");
    assert!(nvidia_h100().is_nvidia() && !pocl_cpu().is_nvidia());
    assert!(nvidia_h100().fp64());
}

#[test]
fn opencl_nd_ranges_count_work_items_not_groups() {
    let copy = offset_copy_shape(1 << 20, 3, (1 << 20) + 3, (1 << 20) + 3).unwrap();
    assert_eq!(nd_range(&copy), NdRange::groups_1d(4096, 256));
    assert_eq!(nd_range(&copy).global, [1 << 20, 1, 1]);
    let tiled = sgemm_shape(SgemmKernel::Tiled, (33, 17, 5), (33 * 5, 5 * 17, 33 * 17)).unwrap();
    let range = nd_range(&tiled);
    assert_eq!(
        range,
        NdRange::groups_2d((2, 3), (16, 16)),
        "x covers n = 17 columns, y m = 33 rows"
    );
    assert_eq!(
        (
            range.dimensions,
            range.global,
            range.work_group_size(),
            range.work_groups()
        ),
        (2, [32, 48, 1], Some(256), Some(6))
    );
    let three_d = LaunchShape {
        grid: Dim3::new(2, 3, 4),
        block: Dim3::new(8, 4, 2),
        shared_bytes: 0,
    };
    assert_eq!(nd_range(&three_d).global, [16, 12, 8]);
    assert_eq!(nd_range(&three_d).dimensions, 3);
    assert_eq!(range.problem(), None);
    let ragged = NdRange {
        dimensions: 1,
        global: [300, 1, 1],
        local: Some([256, 1, 1]),
    };
    assert!(ragged.problem().unwrap().contains("not a positive multiple"));
    assert!(
        NdRange {
            dimensions: 4,
            ..ragged
        }
        .problem()
        .is_some()
    );
    // A NULL local size: any positive global size (the runtime picks a divisor), no size to check.
    let chosen = NdRange::runtime_local_1d(300);
    assert_eq!(
        (chosen.problem(), chosen.work_group_size(), chosen.work_groups()),
        (None, None, None)
    );
    assert!(
        NdRange::runtime_local_1d(0)
            .problem()
            .unwrap()
            .contains("global size 0")
    );
}

#[test]
fn opencl_matvec_launches_mirror_the_cuda_shapes_with_local_arguments() {
    let lens = (1100 * 61, 1100, 61);
    for version in MatVecVersion::ALL {
        let (range, local) = matvec_launch(version, 1100, 61, lens, 10).unwrap();
        assert_eq!(range.local, Some([256, 1, 1]), "{version:?}");
        let groups = range.global[0] / 256;
        let expected_groups = match version {
            MatVecVersion::RowPerThread | MatVecVersion::GridStrideRows => 1, // ceil(61 / 256), within the wave
            MatVecVersion::WarpPerRow => 8,                                   // ceil(61 / 8 warps)
            _ => 10,                                                          // min(61 rows, wave of 10)
        };
        assert_eq!(groups, expected_groups, "{version:?}");
        let expected_local = match version {
            MatVecVersion::RowPerThread | MatVecVersion::GridStrideRows => None,
            _ => Some(LocalMemory(1024)),
        };
        assert_eq!(local, expected_local, "{version:?}");
    }
    // 8192 columns: 8 warps per row, a row per work-group, as the CUDA grid.
    let (range, local) = matvec_launch(MatVecVersion::WarpPerRow, 8192, 61, (8192 * 61, 8192, 61), 10).unwrap();
    assert_eq!((range.global[0] / 256, local), (61, Some(LocalMemory(1024))));
    assert!(matvec_launch(MatVecVersion::RowPerThread, 10, 10, (99, 10, 10), 1).is_err());
}

#[test]
fn opencl_vector_copy_grid_is_capped_by_the_wave() {
    assert_eq!(vector_copy_groups(1, 1), 1);
    assert_eq!(vector_copy_groups(4 * 256, 1), 1);
    assert_eq!(vector_copy_groups(4 * 256 + 4, 1), 2);
    assert_eq!(
        vector_copy_groups(u64::MAX / 2, 1),
        1024,
        "one wave x VECTOR_COPY_MAX_WAVES"
    );
    assert_eq!(vector_copy_groups(u64::MAX / 2, u32::MAX), i32::MAX as u64);
    assert_eq!(estimated_wave_groups(&nvidia_h100(), 256), 132 * 8);
    assert_eq!(estimated_wave_groups(&nvidia_h100(), 4096), 132);
}

#[test]
fn opencl_twins_define_every_kernel_under_its_rust_entry_name() {
    let rust_entries = entry_points(KERNELS_PTX);
    let listed = opencl_c_kernels();
    for name in &listed {
        assert!(
            OPENCL_C_SOURCE.contains(&format!("__kernel void {name}("))
                || OPENCL_C_SOURCE.contains(&format!("({name}, "))
                || OPENCL_C_SOURCE.contains(&format!(", {name}, ")),
            "{name} is not defined in host/opencl_c/"
        );
        assert!(
            rust_entries.iter().any(|entry| entry == name),
            "{name} has no Rust kernel of that name to line up with"
        );
    }
    let defined = OPENCL_C_SOURCE.matches("__kernel void ").count();
    // Every listed kernel once, except: the six width kernels come from the macro's two
    // templates, matvec_warp_shuffle and matvec_warp_per_row have two versions each (#if), and the two
    // divergence if/else kernels come from one macro, the bank kernels' macros define 13 kernels from 7
    // templates, and local_array_spilled is defined only under -D LOCAL_ARRAY_SPILLED (a program of its own).
    assert_eq!(
        defined,
        listed.len() - 6 + 2 + 2 - 1 - 6 + 1,
        "a kernel the list does not name"
    );
}

/// The twins' program is its sources joined in this order (recorded when the
/// kernel list moved to the families): a reorder or a dropped file fails here.
#[test]
fn opencl_twins_program_joins_its_sources_in_the_recorded_order() {
    let recorded = [
        include_str!("../host/opencl_c/global_memory.cl"),
        include_str!("../host/opencl_c/matrix_vector.cl"),
        include_str!("../host/opencl_c/matrix_multiply.cl"),
        include_str!("../host/opencl_c/streams.cl"),
        include_str!("../host/opencl_c/divergence.cl"),
        include_str!("../host/opencl_c/shared_memory_banks.cl"),
        include_str!("../host/opencl_c/constant_memory.cl"),
        include_str!("../host/opencl_c/local_memory.cl"),
        include_str!("../host/opencl_c/reduction.cl"),
    ];
    assert_eq!(OPENCL_C_SOURCE, recorded.join("\n"));
}

/// Every `.cl` file in host/opencl_c/ joins a program: the twins' or, alone,
/// the throughput twins'. A new file that was not joined (or not recorded
/// above) fails here, naming it, before any device is needed.
#[test]
fn opencl_every_cl_file_joins_a_program() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("host/opencl_c");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("host/opencl_c/")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "{files:?}");
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a .cl file");
        assert!(
            OPENCL_C_SOURCE.contains(&text) || text == OPENCL_C_THROUGHPUT_SOURCE,
            "{} joins neither OPENCL_C_SOURCE (host/opencl/opencl_c_twins.rs) nor OPENCL_C_THROUGHPUT_SOURCE",
            file.display()
        );
    }
}

/// The bank and constant-memory twins record no block spans (OpenCL C has no
/// SM clock): their launchers' parameter lists are the Rust kernels' without
/// `spans` (and `constant_chase` takes its `__constant` table as its first).
#[test]
fn opencl_span_less_twins_take_their_rust_kernels_parameters_but_the_spans() {
    use kernels_gpu::constant_memory::{
        constant_chase_global_nc_params, constant_chase_params, constant_chase_shared_params,
    };
    use kernels_gpu::device::{KernelSignature, Param};
    use kernels_gpu::shared_memory_banks::{bank_read_b32_params, bank_read_permuted_params, bank_write_b128_params};
    use ptxsuite::launchers::opencl::{BANK_TWIN_PARAMS, CHASE_TWIN_PARAMS, SHARED_CHASE_TWIN_PARAMS};
    let without_spans =
        |params: &[Param]| -> Vec<Param> { params.iter().filter(|p| p.name != "spans").copied().collect() };
    // The permuted read calls its stride a multiplier: compare the kinds there.
    let kinds = |params: &[Param]| params.iter().map(|p| p.kind).collect::<Vec<_>>();
    assert_eq!(BANK_TWIN_PARAMS, without_spans(bank_read_b32_params::PARAMS));
    assert_eq!(BANK_TWIN_PARAMS, without_spans(bank_write_b128_params::PARAMS));
    assert_eq!(
        kinds(BANK_TWIN_PARAMS),
        kinds(&without_spans(bank_read_permuted_params::PARAMS))
    );
    assert_eq!(CHASE_TWIN_PARAMS[1..], without_spans(constant_chase_params::PARAMS));
    assert_eq!(
        CHASE_TWIN_PARAMS,
        without_spans(constant_chase_global_nc_params::PARAMS)
    );
    assert_eq!(
        SHARED_CHASE_TWIN_PARAMS,
        without_spans(constant_chase_shared_params::PARAMS)
    );
}

/// `local_array_spilled`'s twin gets the registers the Rust kernel's launch
/// bound leaves a thread (1024 threads, one block an SM: 64 of 64 Ki).
#[test]
fn opencl_spilled_twin_is_capped_at_the_launch_bounds_registers() {
    use kernels_gpu::launch_bounds::LAUNCH_BOUND_FOR_SPILLS;
    use ptxsuite::launchers::opencl::SPILL_REGISTER_CAP;
    assert_eq!(
        (
            LAUNCH_BOUND_FOR_SPILLS.max_threads,
            LAUNCH_BOUND_FOR_SPILLS.min_blocks_per_sm
        ),
        (1024, 1)
    );
    assert_eq!(SPILL_REGISTER_CAP, 64);
}
