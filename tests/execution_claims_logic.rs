//! Pure host logic of the execution-claims kernels (no GPU, no emulator):
//! launch-shape checks, the throughput table, the ulp measure, the input
//! sweeps, the documented bounds, the binary16 rounding and the PTX loop finder.

use std::collections::HashSet;

use kernels_gpu::instruction_throughput::{ChainElement, THROUGHPUT_CHAINS, ThroughputKernel};
use kernels_gpu::math_accuracy::MathFunction;
use ptxsuite::launchers::{
    AnyChainParams, LoopCounter, divergence_shape, function_values_shape, hopper_peak_per_sm_per_clock,
    loop_counter_shape, suggested_params, throughput_shape, throughput_table,
};
use ptxsuite::ptx::{entry_text, loop_with_most, loops, opcode_of};
use ptxsuite::reference::{
    ArgumentRange, ErrorBound, Spacing, documented_bound, error_stats, f32_ulp_at, f64_to_f16_bits, input_sweep,
    sweep_spacing, ulp_error,
};

#[test]
fn throughput_shape_admits_an_exact_output_and_refuses_one_short() {
    let needed = 4 * 256 * THROUGHPUT_CHAINS;
    let shape = throughput_shape(ThroughputKernel::F32Fma, 4, needed, None).unwrap();
    assert_eq!((shape.grid.x, shape.block.x, shape.shared_bytes), (4, 256, 0));
    assert!(throughput_shape(ThroughputKernel::F32Fma, 4, needed - 1, None).is_err());
    assert!(throughput_shape(ThroughputKernel::F32Fma, 0, needed, None).is_err());
}

#[test]
fn throughput_shape_checks_divisors_and_shifts() {
    let len = 256 * THROUGHPUT_CHAINS;
    for kernel in [ThroughputKernel::U32Div, ThroughputKernel::U32Rem] {
        assert!(throughput_shape(kernel, 1, len, Some(0)).is_err(), "{kernel:?} by 0");
        assert!(throughput_shape(kernel, 1, len, None).is_err());
        assert!(throughput_shape(kernel, 1, len, Some(7)).is_ok());
    }
    for kernel in [ThroughputKernel::U32Shift, ThroughputKernel::U32Mask] {
        assert!(throughput_shape(kernel, 1, len, Some(32)).is_err(), "{kernel:?} by 32");
        assert!(throughput_shape(kernel, 1, len, Some(31)).is_ok());
        assert!(throughput_shape(kernel, 1, len, Some(0)).is_ok());
    }
}

#[test]
fn throughput_table_has_one_row_per_kernel_with_the_published_peaks() {
    let table = throughput_table();
    assert_eq!(table.len(), ThroughputKernel::ALL.len());
    let entries: HashSet<&str> = table.iter().map(|row| row.entry).collect();
    assert_eq!(entries.len(), table.len(), "entry names are unique");
    for row in &table {
        assert_eq!(row.operations_per_thread_per_iteration, THROUGHPUT_CHAINS as u32);
        assert!(row.entry.ends_with("_throughput"));
    }
    let peak = hopper_peak_per_sm_per_clock;
    assert_eq!(peak(ThroughputKernel::F32Fma), Some(128.0));
    assert_eq!(peak(ThroughputKernel::F64Fma), Some(64.0));
    assert_eq!(peak(ThroughputKernel::SinApprox), Some(16.0));
    assert_eq!(peak(ThroughputKernel::U32Div), None);
    assert_eq!(peak(ThroughputKernel::Sin), None);
}

#[test]
fn suggested_params_have_each_kernels_element_type() {
    for kernel in ThroughputKernel::ALL {
        for range in ArgumentRange::ALL {
            let matches = matches!(
                (suggested_params(kernel, range), kernel.element()),
                (AnyChainParams::F32(_), ChainElement::F32)
                    | (AnyChainParams::F64(_), ChainElement::F64)
                    | (AnyChainParams::I32(_), ChainElement::I32)
                    | (AnyChainParams::U32(_), ChainElement::U32 | ChainElement::F16x2)
            );
            assert!(matches, "{kernel:?}");
        }
    }
    let AnyChainParams::F32(large) = suggested_params(ThroughputKernel::Sin, ArgumentRange::Large) else {
        panic!("f32 parameters expected");
    };
    assert!(large.b > 131_072.0, "large sine arguments pass the Cody–Waite limit");
}

#[test]
fn function_values_shape_covers_n_and_checks_both_buffers() {
    let shape = function_values_shape(1000, 1000, 1000).unwrap();
    assert_eq!((shape.grid.x, shape.block.x), (4, 256));
    assert!(function_values_shape(0, 10, 10).is_err());
    assert!(function_values_shape(1000, 999, 1000).is_err());
    assert!(function_values_shape(1000, 1000, 999).is_err());
}

#[test]
fn divergence_shape_needs_one_float_per_thread() {
    assert!(divergence_shape("divergent_lane_paths", 3, 768).is_ok());
    assert!(divergence_shape("divergent_lane_paths", 3, 767).is_err());
    assert!(divergence_shape("divergent_lane_paths", 0, 768).is_err());
}

#[test]
fn loop_counter_shape_checks_the_last_index_and_the_counters_range() {
    let threads = 256u64;
    let (n, offset, stride) = (10, 5, threads);
    let last_out = stride * (n - 1) + threads - 1;
    let (out_len, in_len) = (last_out as usize + 1, (last_out + offset) as usize + 1);
    for counter in LoopCounter::ALL {
        assert!(loop_counter_shape(counter, 1, (n, offset, stride), out_len, in_len).is_ok());
        assert!(loop_counter_shape(counter, 1, (n, offset, stride), out_len - 1, in_len).is_err());
        assert!(loop_counter_shape(counter, 1, (n, offset, stride), out_len, in_len - 1).is_err());
        assert!(loop_counter_shape(counter, 1, (n, offset, threads - 1), usize::MAX, usize::MAX).is_err());
        assert!(loop_counter_shape(counter, 1, (0, offset, stride), out_len, in_len).is_err());
    }
    // An index past i32::MAX: refused for the i32 counters, admitted for u32 and usize.
    let big = (2, 0, 1u64 << 31);
    for counter in LoopCounter::ALL {
        let fits = loop_counter_shape(counter, 1, big, usize::MAX, usize::MAX).is_ok();
        assert_eq!(
            fits,
            matches!(counter, LoopCounter::U32 | LoopCounter::Usize),
            "{counter:?}"
        );
    }
    // Past u32::MAX: only usize.
    let bigger = (2, 0, 1u64 << 32);
    for counter in LoopCounter::ALL {
        let fits = loop_counter_shape(counter, 1, bigger, usize::MAX, usize::MAX).is_ok();
        assert_eq!(fits, counter == LoopCounter::Usize, "{counter:?}");
    }
}

#[test]
fn ulp_is_the_f32_spacing_at_the_exact_value() {
    assert_eq!(f32_ulp_at(1.0), 2f64.powi(-23));
    assert_eq!(f32_ulp_at(1.999), 2f64.powi(-23));
    assert_eq!(f32_ulp_at(-2.0), 2f64.powi(-22));
    assert_eq!(f32_ulp_at(0.75), 2f64.powi(-24));
    assert_eq!(f32_ulp_at(1e-40), 2f64.powi(-149));
    assert_eq!(f32_ulp_at(0.0), 2f64.powi(-149));
    assert!(f32_ulp_at(f64::INFINITY).is_nan());
}

#[test]
fn ulp_error_counts_spacings_from_the_exact_value() {
    let next = f32::from_bits(1.0f32.to_bits() + 1);
    assert_eq!(ulp_error(next, 1.0), 1.0);
    assert_eq!(ulp_error(1.0, 1.0 + 2f64.powi(-24)), 0.5);
    assert_eq!(ulp_error(1.0, 1.0), 0.0);
    assert_eq!(ulp_error(f32::INFINITY, f64::INFINITY), 0.0);
    assert_eq!(ulp_error(f32::NAN, 1.0), f64::INFINITY);
    assert_eq!(ulp_error(f32::INFINITY, 1.0), f64::INFINITY);
    assert_eq!(ulp_error(0.0, 2f64.powi(-149)), 1.0);
}

#[test]
fn error_stats_give_max_mean_and_the_worst_input() {
    let inputs = [1.0f32, 2.0, 3.0, 4.0];
    let one_ulp_up = |x: f32| f32::from_bits(x.to_bits() + 1);
    let got = [1.0, one_ulp_up(2.0), 3.0, f32::from_bits(4.0f32.to_bits() + 3)];
    let stats = error_stats(&inputs, &got, |x| x).unwrap();
    assert_eq!(stats.count, 4);
    assert_eq!(stats.max_ulp, 3.0);
    assert_eq!(stats.mean_ulp, 1.0);
    assert_eq!(stats.worst_input, 4.0);
    assert_eq!(stats.max_abs, 3.0 * 2f64.powi(-21));
    assert!(error_stats(&[], &[], |x| x).is_none());
}

#[test]
fn sweeps_are_deterministic_and_stay_in_their_intervals() {
    for function in MathFunction::ALL {
        for range in ArgumentRange::ALL {
            let sweep = input_sweep(function, range, 777);
            assert_eq!(sweep.len(), 777);
            assert_eq!(sweep, input_sweep(function, range, 777));
            let (low, high, symmetric) = match sweep_spacing(function, range) {
                Spacing::Linear { low, high } | Spacing::Log { low, high } => (low, high, false),
                Spacing::LogSymmetric { low, high } => (low, high, true),
            };
            for &x in &sweep {
                let magnitude = if symmetric { x.abs() as f64 } else { x as f64 };
                assert!(
                    magnitude >= low - 1e-6 * low.abs() && magnitude <= high + 1e-6 * high.abs(),
                    "{function:?} {range:?}: {x}"
                );
            }
            if symmetric {
                assert!(sweep.iter().any(|x| *x < 0.0) && sweep.iter().any(|x| *x > 0.0));
            }
        }
    }
    // The large sine sweep reaches past the accurate sine's Cody–Waite limit.
    let large = input_sweep(MathFunction::Sin, ArgumentRange::Large, 1000);
    assert!(large.iter().any(|x| x.abs() > 131_072.0));
}

#[test]
fn bounds_admit_what_they_document_and_no_more() {
    let x = 1.0f32;
    let ulp = 2f64.powi(-23);
    assert!(ErrorBound::Ulp(1.5).allows(x, 1.0, 1.0 + 1.4 * ulp));
    assert!(!ErrorBound::Ulp(1.5).allows(x, 1.0, 1.0 + 1.6 * ulp));
    assert!(ErrorBound::Absolute(1e-6).allows(x, 0.5, 0.5 + 0.9e-6));
    assert!(!ErrorBound::Absolute(1e-6).allows(x, 0.5, 0.5 + 1.1e-6));
    assert!(ErrorBound::Relative(1e-3).allows(x, 100.0, 100.09));
    assert!(!ErrorBound::Relative(1e-3).allows(x, 100.0, 100.11));
    let growing = ErrorBound::UlpGrowing {
        constant: 2.0,
        per_unit: 2.0,
    };
    assert!(growing.allows(10.0, 1.0, 1.0 + 21.0 * ulp));
    assert!(!growing.allows(1.0, 1.0, 1.0 + 5.0 * ulp));
    assert!(ErrorBound::Unbounded.allows(x, 0.0, 1.0));
    assert_eq!(
        documented_bound(MathFunction::SinApprox, ArgumentRange::Large),
        ErrorBound::Unbounded
    );
}

#[test]
fn f64_to_f16_rounds_once_to_nearest_even() {
    assert_eq!(f64_to_f16_bits(1.0), 0x3c00);
    assert_eq!(f64_to_f16_bits(-2.0), 0xc000);
    assert_eq!(f64_to_f16_bits(65504.0), 0x7bff);
    assert_eq!(f64_to_f16_bits(65520.0), 0x7c00, "halfway to 2^16 rounds to infinity");
    assert_eq!(f64_to_f16_bits(2f64.powi(-24)), 0x0001);
    assert_eq!(
        f64_to_f16_bits(2f64.powi(-25)),
        0x0000,
        "halfway to the smallest subnormal: even"
    );
    assert_eq!(f64_to_f16_bits(1.0 + 2f64.powi(-11)), 0x3c00, "a tie goes to even");
    assert_eq!(
        f64_to_f16_bits(1.0 + 3.0 * 2f64.powi(-11)),
        0x3c02,
        "a tie goes to even"
    );
    // 7130 is halfway between 7128 and 7132; a little more must round up, which
    // rounding through f32 (as `half::f16::from_f64` does) gets wrong.
    assert_eq!(f64_to_f16_bits(-(7130.0 + 10.0 * 2f64.powi(-24))), 0xeef7);
    assert_eq!(
        f64_to_f16_bits(2047.5 * 2f64.powi(-10)),
        0x4000,
        "a carry into the next binade"
    );
}

/// A made-up PTX function with a rotated loop (entered in the middle), a
/// remainder loop, a jump table and inline-asm comments.
const SAMPLE_PTX: &str = "\
.visible .entry sample(
\t.param .u32 sample_param_0
)
{
\t.reg .pred \t%p<4>;
// %bb.0:
\tld.param.b32 \t%r1, [sample_param_0];
\tbra.uni \t$L__BB0_2;
$L__BB0_1:                             //   in Loop: Header=BB0_2 Depth=1
\tadd.s32 \t%r1, %r1, -1;
\t@!%p1 bra \t$L__BB0_3;
$L__BB0_2:                             // =>This Inner Loop Header: Depth=1
\t// begin inline asm
\tsin.approx.f32 %r2, %r2;
\t// end inline asm
\tfma.rn.f32 \t%r3, %r2, %r2, %r3;
\tfma.rn.f32 \t%r4, %r2, %r2, %r4;
\tsetp.ne.b32 \t%p1, %r1, 0;
\tbra.uni \t$L__BB0_1;
$L__BB0_3:
\t.pragma \"nounroll\";
\tfma.rn.f32 \t%r3, %r2, %r2, %r3;
\t@%p2 bra \t$L__BB0_3;
\tret;
}
";

#[test]
fn loops_are_found_by_their_back_edges() {
    let body = entry_text(SAMPLE_PTX, "sample").unwrap();
    assert!(body.ends_with('}'));
    assert!(entry_text(SAMPLE_PTX, "other").is_none());
    let found = loops(body);
    assert_eq!(found.len(), 2, "{found:?}");
    // The rotated loop's header is the block it enters first, $L__BB0_2; its
    // latch $L__BB0_1 (above it in the text) belongs to it.
    let main = &found[0];
    assert_eq!(main.label, "$L__BB0_2");
    assert_eq!(main.len(), 7, "{:?}", main.instructions);
    assert_eq!(main.count("fma.rn.f32"), 2);
    assert_eq!(main.count("sin.approx"), 1);
    assert_eq!(main.count("bra"), 2);
    assert_eq!(main.instructions_per("fma.rn.f32"), Some(3.5));
    assert_eq!(main.instructions_per("st.global"), None);
    let remainder = &found[1];
    assert_eq!((remainder.label, remainder.len()), ("$L__BB0_3", 2));
    let steady = loop_with_most(body, "fma.rn.f32").unwrap();
    assert_eq!(steady.label, "$L__BB0_2");
    assert_eq!(opcode_of("ret;"), "ret");
    assert_eq!(opcode_of("@!%p1 bra \t$L__BB0_3;"), "bra");
    assert_eq!(opcode_of("fma.rn.f32 \t%r3, %r2, %r2, %r3;"), "fma.rn.f32");
}
