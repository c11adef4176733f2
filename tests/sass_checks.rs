//! SASS: the listing parsers on recorded `nvdisasm` and `cuobjdump` output
//! (tests/fixtures/sass/, made with the nvidia-cuda-nvcc, -nvdisasm and
//! -cuobjdump 13.5.37 wheels for sm_90), and the suite's own kernels
//! assembled for sm_90 where `ptxas` and a disassembler are present
//! (`PTXAS`, `NVDISASM`, `PATH`, …; see README). Without them the
//! end-to-end tests print SKIPPED, except under CI (`CI` set), where that
//! is a failure.

use std::io::Write;

use kernels_gpu::instruction_throughput::{THROUGHPUT_CHAINS, ThroughputKernel};
use ptxsuite::launchers::{LoopCounter, branch_kernel, measured_sass_opcodes};
use ptxsuite::ptx::{self, KERNELS_PTX, with_launch_bounds};
use ptxsuite::reference::BranchLength;
use ptxsuite::sass::{
    Disassembler, SassClass, SassCounts, SassFunction, SassModule, SassTools, ToolSearch, assembled, environment_tools,
    issue_limits, operation_ceiling, parse_listing, per_operation,
};

const NVDISASM: &str = include_str!("fixtures/sass/sm90_nvdisasm.txt");
const CUOBJDUMP: &str = include_str!("fixtures/sass/sm90_cuobjdump.txt");

fn function<'a>(functions: &'a [SassFunction], name: &str) -> &'a SassFunction {
    functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("{name} not in the listing"))
}

/// The counts of the steady loop of `f`: the loop holding the most of `opcodes`.
fn steady(f: &SassFunction, opcodes: &[&str]) -> (SassCounts, Option<u32>) {
    let found = f
        .steady_loop(|i| opcodes.iter().any(|o| i.is(o)))
        .unwrap_or_else(|| panic!("{}: no loop with {opcodes:?}", f.name));
    (SassCounts::of(found.instructions.iter().copied()), found.counter_step())
}

#[test]
fn the_recorded_listing_has_its_functions() {
    let functions = parse_listing(NVDISASM);
    let mut names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "f64_promoted_mul_throughput",
            "i32_add_throughput",
            "long_branch_divergent",
            "loop_counter_i32_unchecked",
            "loop_counter_u32",
            "short_branch_predicated",
            "u32_shift_throughput",
        ]
    );
    let add = function(&functions, "i32_add_throughput");
    assert_eq!(add.instructions.first().unwrap().address, 0);
    assert_eq!(add.instructions.first().unwrap().opcode, "LDC");
    assert!(
        add.instructions.windows(2).all(|w| w[0].address + 0x10 == w[1].address),
        "one every 16 bytes"
    );
    assert_eq!(add.loops().len(), 2, "the ×8 loop and its remainder loop");
}

#[test]
fn i32_adds_are_split_between_the_alu_and_the_fma_pipe() {
    let functions = parse_listing(NVDISASM);
    let (counts, step) = steady(function(&functions, "i32_add_throughput"), &["IADD3", "IMAD.IADD"]);
    assert_eq!(step, Some(8), "8 rounds per pass");
    assert_eq!(counts.instructions, 67);
    assert_eq!(counts.count(&["IADD3"]), 35, "34 adds and the counter");
    assert_eq!(counts.count(&["IMAD.IADD"]), 30);
    assert_eq!(
        counts.count(&["IADD3"]) + counts.count(&["IMAD.IADD"]) - 1,
        64,
        "one instruction per add"
    );
    let per_op = per_operation(&counts, 8.0 * THROUGHPUT_CHAINS as f64).unwrap();
    let ceiling = operation_ceiling(&per_op, issue_limits((9, 0)).unwrap()).unwrap();
    // 35 IADD3 + 1 ISETP on the ALU per 64 adds: 64 × 64 / 36 = 113.8 adds per clock per SM.
    assert!(ceiling.limit.starts_with("integer ALU"), "{ceiling:?}");
    assert!((ceiling.operations_per_clock_per_sm - 64.0 * 64.0 / 36.0).abs() < 1e-9);
}

#[test]
fn the_shift_s_add_goes_to_viadd_off_the_alu() {
    let functions = parse_listing(NVDISASM);
    let (counts, step) = steady(function(&functions, "u32_shift_throughput"), &["SHF"]);
    assert_eq!(step, Some(4));
    assert_eq!(counts.count(&["SHF.R.U32.HI"]), 32);
    assert_eq!(
        counts.count(&["VIADD"]) + counts.count(&["IADD3"]),
        33,
        "32 adds and the counter"
    );
    assert_eq!(counts.of_class(SassClass::IntegerAlu), 39, "SHF ×32, IADD3 ×6, ISETP");
    let per_op = per_operation(&counts, 4.0 * THROUGHPUT_CHAINS as f64).unwrap();
    let ceiling = operation_ceiling(&per_op, issue_limits((9, 0)).unwrap()).unwrap();
    assert!(
        (ceiling.operations_per_clock_per_sm - 64.0 * 32.0 / 39.0).abs() < 1e-9,
        "{ceiling:?}"
    );
}

#[test]
fn the_short_if_else_is_predicated_in_sass_and_the_long_one_branches() {
    let functions = parse_listing(NVDISASM);
    let (short, step) = steady(function(&functions, "short_branch_predicated"), &["FADD", "FMUL"]);
    assert_eq!(step, Some(4));
    assert_eq!(short.side_branches(), 0, "{}", short.listing());
    assert_eq!(short.convergence, 0);
    assert_eq!(
        short.predicated,
        16,
        "the add of each side, guarded: {}",
        short.listing()
    );
    let (long, _) = steady(function(&functions, "long_branch_divergent"), &["FFMA"]);
    assert_eq!(long.count(&["FFMA"]), 64);
    assert_eq!(long.side_branches(), 8, "{}", long.listing());
    assert_eq!((long.count(&["BSSY"]), long.count(&["BSYNC"])), (4, 4));
}

#[test]
fn signed_counters_save_instructions_in_sass() {
    let functions = parse_listing(NVDISASM);
    let per_element = |name: &str| {
        let (counts, _) = steady(function(&functions, name), &["STG"]);
        assert_eq!(counts.count(&["LDG"]), counts.count(&["STG"]));
        counts.instructions as f64 / counts.count(&["STG"]) as f64
    };
    assert_eq!(per_element("loop_counter_u32"), 27.0 / 4.0);
    assert_eq!(per_element("loop_counter_i32_unchecked"), 21.0 / 4.0);
}

#[test]
fn the_promoted_multiply_converts_twice_in_sass() {
    let functions = parse_listing(NVDISASM);
    let (counts, step) = steady(function(&functions, "f64_promoted_mul_throughput"), &["DMUL"]);
    assert_eq!(step, Some(2));
    for opcode in ["F2F.F64.F32", "DMUL", "F2F.F32.F64", "FMUL"] {
        assert_eq!(counts.count(&[opcode]), 16, "{opcode}: {}", counts.listing());
    }
    assert_eq!(counts.of_class(SassClass::Conversion), 32);
}

#[test]
fn cuobjdump_lists_the_same_instructions_as_nvdisasm() {
    let from_nvdisasm = parse_listing(NVDISASM);
    let from_cuobjdump = parse_listing(CUOBJDUMP);
    assert_eq!(from_cuobjdump.len(), 2);
    for name in ["i32_add_throughput", "short_branch_predicated"] {
        let a = function(&from_nvdisasm, name);
        let b = function(&from_cuobjdump, name);
        assert_eq!(a.instructions.len(), b.instructions.len(), "{name}");
        for (x, y) in a.instructions.iter().zip(&b.instructions) {
            assert_eq!(
                (x.address, &x.opcode, &x.guard, x.target),
                (y.address, &y.opcode, &y.guard, y.target)
            );
            if x.target.is_none() {
                assert_eq!(x.operands, y.operands, "{name} at {:#x}", x.address);
            }
        }
        let shape = |f: &SassFunction| {
            f.loops()
                .iter()
                .map(|l| {
                    (
                        l.header,
                        l.innermost,
                        l.instructions.iter().map(|i| i.address).collect::<Vec<_>>(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(shape(a), shape(b), "{name}");
    }
}

/// The tools, or `None` after saying the calling test is skipped; under CI a missing tool fails.
fn tools_or_skip(test: &str) -> Option<SassTools> {
    match environment_tools() {
        Ok(tools) => Some(tools),
        Err(waived) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must provide ptxas and nvdisasm: {waived}"
            );
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: SASS {waived}");
            None
        }
    }
}

/// The embedded PTX as the driver gets it on a cc 9.0 GPU, assembled for sm_90.
fn hopper_module(tools: &SassTools) -> std::sync::Arc<Result<SassModule, ptxsuite::sass::SassWaived>> {
    assembled(tools, &with_launch_bounds(KERNELS_PTX, (9, 0)), "sm_90", None)
}

#[test]
fn every_kernel_is_assembled_for_sm90_and_cached() {
    let Some(tools) = tools_or_skip("every_kernel_is_assembled_for_sm90_and_cached") else {
        return;
    };
    let module = hopper_module(&tools);
    let sass = module.as_ref().as_ref().expect("ptxas and the disassembler work");
    assert_eq!(sass.arch, "sm_90");
    for entry in ptx::entry_points(KERNELS_PTX) {
        let f = sass
            .function(&entry)
            .unwrap_or_else(|| panic!("{entry} missing from the SASS"));
        assert!(f.instructions.iter().any(|i| i.is_return()), "{entry} never exits");
    }
    assert!(
        std::sync::Arc::ptr_eq(&module, &hopper_module(&tools)),
        "assembled once"
    );
    let one = assembled(&tools, KERNELS_PTX, "sm_90", Some("i32_add_throughput"));
    let one = one.as_ref().as_ref().unwrap();
    assert_eq!(one.functions.len(), 1, "only the entry asked for");
    let sequence = |f: &SassFunction| {
        f.instructions
            .iter()
            .map(|i| (i.address, i.opcode.clone(), i.target))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        sequence(&one.functions[0]),
        sequence(sass.function("i32_add_throughput").unwrap())
    );
    let bad = assembled(&tools, ".version 7.0\n.target sm_75\nthis is not ptx", "sm_90", None);
    let why = bad.as_ref().as_ref().unwrap_err();
    assert!(why.why.contains("could not assemble"), "{why}");
}

#[test]
fn throughput_loops_hold_a_round_of_their_operation_per_counter_step() {
    let Some(tools) = tools_or_skip("throughput_loops_hold_a_round_of_their_operation_per_counter_step") else {
        return;
    };
    let module = hopper_module(&tools);
    let sass = module.as_ref().as_ref().unwrap();
    let mut lines = Vec::new();
    for kernel in ThroughputKernel::ALL {
        let opcodes = measured_sass_opcodes(kernel);
        let (counts, step) = steady(sass.function(kernel.entry()).unwrap(), opcodes);
        let step = step.unwrap_or_else(|| panic!("{kernel:?}: no loop counter found: {}", counts.listing()));
        let operations = step as usize * THROUGHPUT_CHAINS;
        let ceiling = per_operation(&counts, operations as f64)
            .filter(|_| counts.is_straight_line())
            .and_then(|per_op| operation_ceiling(&per_op, issue_limits((9, 0)).unwrap()))
            .map(|c| format!("{:.1} op/clk/SM ({})", c.operations_per_clock_per_sm, c.limit))
            .unwrap_or_else(|| format!("none ({} branches besides the back edge)", counts.side_branches()));
        lines.push(format!(
            "{kernel:?}: {operations} ops per pass, {:.2} SASS per op, ceiling {ceiling}: {}",
            counts.instructions as f64 / operations as f64,
            counts.listing()
        ));
        // One instruction of the measured opcode per operation where the operation is one instruction.
        use ThroughputKernel::*;
        let per_operation = match kernel {
            F32Add | F32Mul | F32Fma | F64Fma | F16x2Fma | I32Mul | I32Mad | U32Shift | U32Mask | RcpApprox
            | RsqrtApprox | SinApprox | CosApprox | Ex2Approx | Lg2Approx | ExpFast | DivApprox | U32Div | U32Rem
            | F64PromotedMul => Some(1),
            F32LiteralMul => Some(2),
            _ => None,
        };
        if let Some(n) = per_operation {
            assert_eq!(counts.count(opcodes), n * operations, "{}", lines.last().unwrap());
        }
    }
    let _ = writeln!(std::io::stderr(), "sm_90 throughput loops:\n{}", lines.join("\n"));
}

/// The Best Practices Guide §5.1.4 pairs (Rust) on sm_90: the exponentials
/// one `MUFU.EX2` per evaluation, `pow` one `MUFU.LG2` and one `MUFU.EX2`
/// (or only the `EX2` where the base is a constant), the cube root, `sinpi`
/// and the sines no `MUFU` at all, and `sincos` fewer instructions per
/// evaluation than separate `sin` and `cos`.
#[test]
fn math_function_pairs_on_sm90() {
    let Some(tools) = tools_or_skip("math_function_pairs_on_sm90") else {
        return;
    };
    let module = hopper_module(&tools);
    let sass = module.as_ref().as_ref().unwrap();
    let mut per_evaluation = Vec::new();
    let mut lines = Vec::new();
    for kernel in ThroughputKernel::MATH_FUNCTIONS {
        let opcodes = measured_sass_opcodes(kernel);
        let (counts, step) = steady(sass.function(kernel.entry()).unwrap(), opcodes);
        let step = step.unwrap_or_else(|| panic!("{kernel:?}: no loop counter found: {}", counts.listing()));
        let operations = step as usize * THROUGHPUT_CHAINS;
        let mufu = |op: &str| counts.count(&[op]) as f64 / operations as f64;
        use ThroughputKernel::*;
        let (ex2, lg2) = match kernel {
            Exp2 | Exp10 | Pow2 | Pow10 => (1.0, 0.0),
            PowCube | PowThird => (1.0, 1.0),
            _ => (0.0, 0.0),
        };
        assert_eq!(
            (mufu("MUFU.EX2"), mufu("MUFU.LG2")),
            (ex2, lg2),
            "{kernel:?}: {}",
            counts.listing()
        );
        if ex2 == 0.0 {
            assert_eq!(counts.count(&["MUFU"]), 0, "{kernel:?}: {}", counts.listing());
        }
        per_evaluation.push((kernel, counts.instructions as f64 / operations as f64));
        lines.push(format!(
            "{kernel:?}: {:.2} SASS per evaluation: {}",
            per_evaluation.last().unwrap().1,
            counts.listing()
        ));
    }
    let of = |k| per_evaluation.iter().find(|e| e.0 == k).unwrap().1;
    assert!(
        of(ThroughputKernel::Sincos) < of(ThroughputKernel::SinCos),
        "{}",
        lines.join("\n")
    );
    assert!(
        of(ThroughputKernel::CubeMul) < of(ThroughputKernel::PowCube),
        "{}",
        lines.join("\n")
    );
    let _ = writeln!(std::io::stderr(), "sm_90 math-function loops:\n{}", lines.join("\n"));
}

/// The OpenCL guide §3.1.1.1's rates (Rust) on sm_90: the square root one
/// `MUFU.RSQ` per operation, the minimum one `FMNMX`, the conversion round
/// trip one `F2I` and one `I2FP` (the integer-to-float form ptxas emits for sm_90)
/// per two counted conversions.
#[test]
fn sqrt_min_and_conversion_on_sm90() {
    let Some(tools) = tools_or_skip("sqrt_min_and_conversion_on_sm90") else {
        return;
    };
    let module = hopper_module(&tools);
    let sass = module.as_ref().as_ref().unwrap();
    use ThroughputKernel::*;
    for (kernel, opcode, per_operation) in [
        (Sqrt, "MUFU.RSQ", 1.0),
        (Fmin, "FMNMX", 1.0),
        (Convert, "F2I", 0.5),
        (Convert, "I2FP", 0.5),
    ] {
        let (counts, step) = steady(sass.function(kernel.entry()).unwrap(), measured_sass_opcodes(kernel));
        let step = step.unwrap_or_else(|| panic!("{kernel:?}: no loop counter: {}", counts.listing()));
        let operations = step as f64 * kernel.operations_per_round() as f64;
        assert_eq!(
            counts.count(&[opcode]) as f64 / operations,
            per_operation,
            "{kernel:?} {opcode}: {}",
            counts.listing()
        );
        let _ = writeln!(std::io::stderr(), "{kernel:?}: {}", counts.listing());
    }
    // The round trip's ceiling is F2I's 16 per clock (32 counted conversions):
    // I2FP is not charged to the conversion pipe (measured on an H100: 30.7).
    let (counts, step) = steady(sass.function(Convert.entry()).unwrap(), measured_sass_opcodes(Convert));
    let operations = step.unwrap() as f64 * Convert.operations_per_round() as f64;
    let ceiling = per_operation(&counts, operations)
        .and_then(|per_op| operation_ceiling(&per_op, issue_limits((9, 0)).unwrap()))
        .unwrap();
    assert!(ceiling.limit.starts_with("conversions"), "{ceiling:?}");
    assert!((ceiling.operations_per_clock_per_sm - 32.0).abs() < 1e-9, "{ceiling:?}");
}

#[test]
fn predication_and_loop_counters_on_sm90() {
    let Some(tools) = tools_or_skip("predication_and_loop_counters_on_sm90") else {
        return;
    };
    let module = hopper_module(&tools);
    let sass = module.as_ref().as_ref().unwrap();
    let (short, _) = steady(
        sass.function(branch_kernel(BranchLength::Short)).unwrap(),
        &["FADD", "FMUL"],
    );
    assert_eq!(short.side_branches(), 0, "{}", short.listing());
    assert!(short.predicated + short.selects >= 4, "{}", short.listing());
    let (long, _) = steady(sass.function(branch_kernel(BranchLength::Long)).unwrap(), &["FFMA"]);
    assert!(long.side_branches() >= 1, "{}", long.listing());
    let per = |counter: LoopCounter| {
        let (counts, _) = steady(sass.function(counter.kernel()).unwrap(), &["STG"]);
        counts.instructions as f64 / counts.count(&["STG"]) as f64
    };
    let all = LoopCounter::ALL.map(|c| (c, per(c)));
    let _ = writeln!(std::io::stderr(), "sm_90 SASS instructions per element: {all:?}");
    assert!(per(LoopCounter::I32Unchecked) < per(LoopCounter::U32));
}

#[test]
fn cuobjdump_lists_what_nvdisasm_lists_where_both_are_here() {
    let Some(tools) = tools_or_skip("cuobjdump_lists_what_nvdisasm_lists_where_both_are_here") else {
        return;
    };
    // cuobjdump is optional even under CI (its wheel is not installed there).
    let cuobjdump = match ToolSearch::from_environment().tool("cuobjdump") {
        Ok(tool) => tool,
        Err(why) => {
            let _ = writeln!(std::io::stderr(), "SKIPPED cuobjdump_lists_what_nvdisasm_lists: {why}");
            return;
        }
    };
    let mut search_path = tools.search_path.clone();
    search_path.extend(cuobjdump.path.parent().map(|p| p.to_path_buf()));
    let with_cuobjdump = SassTools {
        disassembler: Disassembler::Cuobjdump(cuobjdump),
        search_path,
        ..tools.clone()
    };
    let ptx = with_launch_bounds(KERNELS_PTX, (9, 0));
    let entry = Some(branch_kernel(BranchLength::Long));
    let a = ptxsuite::sass::assemble(&tools, &ptx, "sm_90", entry).expect("nvdisasm");
    let b = ptxsuite::sass::assemble(&with_cuobjdump, &ptx, "sm_90", entry).expect("cuobjdump");
    let sequence = |m: &SassModule| {
        m.functions[0]
            .instructions
            .iter()
            .map(|i| (i.address, i.opcode.clone(), i.guard.clone(), i.target))
            .collect::<Vec<_>>()
    };
    assert_eq!(sequence(&a), sequence(&b));
    assert!(b.tools.contains("cuobjdump"), "{}", b.tools);
}
