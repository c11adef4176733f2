//! The instruction-throughput kernels in the CPU emulator, against the CPU
//! references (plain loops): IEEE and integer kernels bit for bit, the
//! approximations against the exact value rounded once (which is what the
//! emulator's stand-ins return), the accurate functions within their bounds.

use half::f16;
use kernels_gpu::instruction_throughput::{
    self as throughput, ChainElement, ChainParams, THROUGHPUT_CHAINS, ThroughputKernel, chain_output_index,
};
use ptxsuite::device::{Dim3, GlobalMutPtr, fma_f16x2, pack_f16x2};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::launchers::{AnyChainParams, suggested_params};
use ptxsuite::reference::{self, ArgumentRange};

/// Blocks × threads of every emulated launch (two warps a block).
const BLOCKS: u32 = 2;
const BLOCK: u32 = 64;
const THREADS: u32 = BLOCKS * BLOCK;
/// Rounds: not a multiple of the GPU build's unroll factors.
const ITERATIONS: u32 = 37;

type Kernel<T> = unsafe fn(GlobalMutPtr<T>, T, T, T, T, u32);

fn f32_kernel(kernel: ThroughputKernel) -> Kernel<f32> {
    use ThroughputKernel::*;
    match kernel {
        F32Add => throughput::f32_add_throughput,
        F32Mul => throughput::f32_mul_throughput,
        F32Fma => throughput::f32_fma_throughput,
        RcpApprox => throughput::rcp_approx_throughput,
        RcpRn => throughput::rcp_rn_throughput,
        DivRn => throughput::div_rn_throughput,
        DivApprox => throughput::div_approx_throughput,
        RsqrtApprox => throughput::rsqrt_approx_throughput,
        RecipSqrtRn => throughput::recip_sqrt_rn_throughput,
        SinApprox => throughput::sin_approx_throughput,
        CosApprox => throughput::cos_approx_throughput,
        Ex2Approx => throughput::ex2_approx_throughput,
        Lg2Approx => throughput::lg2_approx_throughput,
        ExpFast => throughput::exp_fast_throughput,
        Sin => throughput::sin_throughput,
        ExpAccurate => throughput::exp_accurate_throughput,
        Exp => throughput::exp_throughput,
        F32LiteralMul => throughput::f32_literal_mul_throughput,
        F64PromotedMul => throughput::f64_promoted_mul_throughput,
        CubeMul => throughput::cube_mul_throughput,
        PowCube => throughput::pow_cube_throughput,
        Exp2 => throughput::exp2_throughput,
        Pow2 => throughput::pow2_throughput,
        Exp10 => throughput::exp10_throughput,
        Pow10 => throughput::pow10_throughput,
        Cbrt => throughput::cbrt_throughput,
        PowThird => throughput::pow_third_throughput,
        Sinpi => throughput::sinpi_throughput,
        SinPiX => throughput::sin_pi_x_throughput,
        Sincos => throughput::sincos_throughput,
        SinCos => throughput::sin_cos_throughput,
        Sqrt => throughput::sqrt_throughput,
        Fmin => throughput::fmin_throughput,
        Convert => throughput::convert_throughput,
        other => panic!("{other:?} is not an f32 kernel"),
    }
}

fn u32_kernel(kernel: ThroughputKernel) -> Kernel<u32> {
    use ThroughputKernel::*;
    match kernel {
        F16x2Fma => throughput::f16x2_fma_throughput,
        U32Div => throughput::u32_div_throughput,
        U32Rem => throughput::u32_rem_throughput,
        U32Shift => throughput::u32_shift_throughput,
        U32Mask => throughput::u32_mask_throughput,
        other => panic!("{other:?} is not a u32 kernel"),
    }
}

fn i32_kernel(kernel: ThroughputKernel) -> Kernel<i32> {
    use ThroughputKernel::*;
    match kernel {
        I32Add => throughput::i32_add_throughput,
        I32Mul => throughput::i32_mul_throughput,
        I32Mad => throughput::i32_mad_throughput,
        I16Mad => throughput::i16_mad_throughput,
        I8Mad => throughput::i8_mad_throughput,
        Mul24 => throughput::mul24_throughput,
        BarSync => throughput::bar_sync_throughput,
        other => panic!("{other:?} is not an i32 kernel"),
    }
}

/// Runs `kernel` over `BLOCKS × BLOCK` threads for `iterations` rounds; its output.
fn emulate<T: Copy + Default + Send + Sync>(kernel: Kernel<T>, params: ChainParams<T>, iterations: u32) -> Vec<T> {
    let mut out = vec![T::default(); THROUGHPUT_CHAINS * THREADS as usize];
    {
        let mut emu = Emulator::new();
        let out = emu.global_mut(&mut out);
        let ChainParams { start, step, a, b } = params;
        // SAFETY: the output holds THROUGHPUT_CHAINS values per thread; the emulator checks every store.
        emu.launch(LaunchConfig::new(Dim3::x(BLOCKS), Dim3::x(BLOCK), 0), || unsafe {
            kernel(out, start, step, a, b, iterations)
        })
        .unwrap();
    }
    out
}

fn f32_params(kernel: ThroughputKernel, range: ArgumentRange) -> ChainParams<f32> {
    match suggested_params(kernel, range) {
        AnyChainParams::F32(p) => p,
        other => panic!("{kernel:?}: {other:?}"),
    }
}

/// Kernels whose emulated result is exactly the reference: IEEE operations,
/// and approximations whose emulator stand-in is the exact value rounded once.
fn exact_in_emulator(kernel: ThroughputKernel) -> bool {
    !matches!(
        kernel,
        ThroughputKernel::ExpFast | ThroughputKernel::Sin | ThroughputKernel::Exp | ThroughputKernel::ExpAccurate
    )
}

#[test]
fn every_f32_kernel_matches_its_reference() {
    for kernel in ThroughputKernel::ALL
        .into_iter()
        .filter(|k| k.element() == ChainElement::F32)
    {
        let params = f32_params(kernel, ArgumentRange::Small);
        let got = emulate(f32_kernel(kernel), params, ITERATIONS);
        let expected = reference::f32_throughput_reference(kernel, params, THREADS, ITERATIONS).unwrap();
        assert!(got.iter().all(|v| v.is_finite()), "{kernel:?}: non-finite chain");
        if exact_in_emulator(kernel) {
            assert_eq!(got, expected, "{kernel:?}");
        } else {
            // Contracting maps: each round's error (≤ 1.6 ulp, or the fast
            // exponential's few ulp) stays of that order.
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert!(
                    (g - e).abs() <= 1e-5 * e.abs().max(1.0),
                    "{kernel:?} chain value {i}: {g} vs {e}"
                );
            }
        }
    }
}

/// The math-library pairs (Best Practices Guide §5.1.4): every kernel within
/// 10^-5 of its reference (each round the exact function rounded once; the
/// emulated `pow_fast` and `exp10_fast` are their instructions' stand-ins,
/// the cube root, `sinpi`, sine and cosine the device layer's own 1–1.6 ulp
/// functions), the chains spread out, and each pair's two kernels within
/// 10^-5 of each other: the recommended call computes what it replaces.
#[test]
fn every_math_function_kernel_matches_its_reference_and_its_partner() {
    let run = |kernel| {
        let params = f32_params(kernel, ArgumentRange::Small);
        (emulate(f32_kernel(kernel), params, ITERATIONS), params)
    };
    for pair in ThroughputKernel::MATH_FUNCTIONS.chunks(2) {
        let (first, params) = run(pair[0]);
        let (second, _) = run(pair[1]);
        for (kernel, got) in [(pair[0], &first), (pair[1], &second)] {
            let expected = reference::f32_throughput_reference(kernel, params, THREADS, ITERATIONS).unwrap();
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert!(
                    g.is_finite() && (g - e).abs() <= 1e-5 * e.abs().max(1.0),
                    "{kernel:?} chain value {i}: {g} vs {e}"
                );
            }
        }
        for (i, (a, b)) in first.iter().zip(&second).enumerate() {
            assert!(
                (a - b).abs() <= 1e-5 * a.abs().max(1.0),
                "{pair:?} chain value {i}: {a} vs {b}"
            );
        }
        // One round from different starts: the chains are not all one value.
        let (one, _) = (emulate(f32_kernel(pair[0]), params, 1), ());
        assert!(one.iter().any(|v| *v != one[0]), "{:?}: every chain alike", pair[0]);
    }
}

/// The OpenCL guide §3.1.1.1's square root, minimum and conversion: IEEE
/// and exact operations, so bit for bit the reference; the minimum and the
/// conversion alternate signs.
#[test]
fn sqrt_compare_and_convert_match_their_references_bit_for_bit() {
    for kernel in [
        ThroughputKernel::Sqrt,
        ThroughputKernel::Fmin,
        ThroughputKernel::Convert,
    ] {
        let params = f32_params(kernel, ArgumentRange::Small);
        for iterations in [1, ITERATIONS] {
            let got = emulate(f32_kernel(kernel), params, iterations);
            let expected = reference::f32_throughput_reference(kernel, params, THREADS, iterations).unwrap();
            assert_eq!(got, expected, "{kernel:?} after {iterations} rounds");
        }
    }
    let fmin = emulate(
        f32_kernel(ThroughputKernel::Fmin),
        f32_params(ThroughputKernel::Fmin, ArgumentRange::Small),
        1,
    );
    assert!(
        fmin.iter().all(|v| *v < 0.0),
        "one round of min(−v, 2) from positive starts is negative"
    );
    let convert = emulate(
        f32_kernel(ThroughputKernel::Convert),
        f32_params(ThroughputKernel::Convert, ArgumentRange::Small),
        1,
    );
    // Chain k starts at k + 1.5: one round gives −(k + 1).
    assert_eq!(convert[0], -1.0);
    assert!(convert.iter().all(|v| v.fract() == 0.0 && *v < 0.0));
}

#[test]
fn chains_store_at_their_coalesced_slots_and_differ() {
    // f32 add: chain k starts at fma(k, step, start), so every slot has its own value.
    let params = ChainParams {
        start: 0.0,
        step: 1.0,
        a: 0.5,
        b: 0.0,
    };
    let got = emulate(throughput::f32_add_throughput, params, 4);
    for t in 0..THREADS {
        for c in 0..THROUGHPUT_CHAINS {
            let k = t * THROUGHPUT_CHAINS as u32 + c as u32;
            assert_eq!(
                got[chain_output_index(c, t, THREADS)],
                k as f32 + 2.0,
                "thread {t} chain {c}"
            );
        }
    }
}

#[test]
fn f64_fma_matches_its_reference() {
    let AnyChainParams::F64(params) = suggested_params(ThroughputKernel::F64Fma, ArgumentRange::Small) else {
        panic!("f64 parameters expected");
    };
    let got = emulate(throughput::f64_fma_throughput, params, ITERATIONS);
    assert_eq!(
        got,
        reference::f64_fma_throughput_reference(params, THREADS, ITERATIONS)
    );
}

#[test]
fn integer_kernels_match_their_references() {
    for kernel in ThroughputKernel::ALL
        .into_iter()
        .filter(|k| k.element() == ChainElement::I32)
    {
        let AnyChainParams::I32(params) = suggested_params(kernel, ArgumentRange::Small) else {
            panic!("{kernel:?}: i32 parameters expected");
        };
        let got = emulate(i32_kernel(kernel), params, ITERATIONS);
        assert_eq!(
            got,
            reference::i32_throughput_reference(kernel, params, THREADS, ITERATIONS).unwrap(),
            "{kernel:?}"
        );
        match kernel {
            ThroughputKernel::I32Add => {}
            // 8- and 16-bit chains fall into a few common values within a few dozen rounds (and may meet 0),
            // so they are also checked after one round, while the chains still hold many values.
            ThroughputKernel::I16Mad | ThroughputKernel::I8Mad => {
                let early = emulate(i32_kernel(kernel), params, 1);
                assert_eq!(
                    early,
                    reference::i32_throughput_reference(kernel, params, THREADS, 1).unwrap(),
                    "{kernel:?}, one round"
                );
                let mut distinct = early.clone();
                distinct.sort_unstable();
                distinct.dedup();
                assert!(distinct.len() > 32, "{kernel:?}: {} distinct values", distinct.len());
                let bits = if kernel == ThroughputKernel::I8Mad { 8 } else { 16 };
                let fits = |v: &i32| (-(1 << (bits - 1))..(1 << (bits - 1))).contains(v);
                assert!(
                    got.iter().chain(&early).all(fits),
                    "{kernel:?}: a value wider than {bits} bits"
                );
            }
            _ => assert!(got.iter().all(|v| *v != 0), "{kernel:?}: a chain collapsed to 0"),
        }
    }
    for kernel in ThroughputKernel::ALL
        .into_iter()
        .filter(|k| k.element() == ChainElement::U32)
    {
        let AnyChainParams::U32(params) = suggested_params(kernel, ArgumentRange::Small) else {
            panic!("{kernel:?}: u32 parameters expected");
        };
        let got = emulate(u32_kernel(kernel), params, ITERATIONS);
        assert_eq!(
            got,
            reference::u32_throughput_reference(kernel, params, THREADS, ITERATIONS).unwrap(),
            "{kernel:?}"
        );
    }
}

#[test]
fn shift_and_mask_compute_what_division_and_modulo_by_a_power_of_two_do() {
    let params = |a| ChainParams {
        start: 7,
        step: 0x9E37_79B9,
        a,
        b: 12_345,
    };
    for s in [0u32, 1, 4, 13, 31] {
        let divided = emulate(throughput::u32_div_throughput, params(1 << s), ITERATIONS);
        let shifted = emulate(throughput::u32_shift_throughput, params(s), ITERATIONS);
        assert_eq!(divided, shifted, "v / 2^{s} against v >> {s}");
        let remainder = emulate(throughput::u32_rem_throughput, params(1 << s), ITERATIONS);
        let masked = emulate(throughput::u32_mask_throughput, params(s), ITERATIONS);
        assert_eq!(remainder, masked, "v % 2^{s} against v & (2^{s} - 1)");
    }
}

#[test]
fn packed_half_fma_matches_the_reference() {
    let AnyChainParams::U32(params) = suggested_params(ThroughputKernel::F16x2Fma, ArgumentRange::Small) else {
        panic!("u32 parameters expected");
    };
    let got = emulate(throughput::f16x2_fma_throughput, params, ITERATIONS);
    assert_eq!(
        got,
        reference::f16x2_fma_throughput_reference(params, THREADS, ITERATIONS)
    );
    // Both lanes settle near the fixed point b / (1 − a) = 1.
    for word in &got {
        for lane in [*word as u16, (*word >> 16) as u16] {
            let x = f16::from_bits(lane).to_f32();
            assert!((0.5..=1.05).contains(&x), "lane value {x}");
        }
    }
}

#[test]
fn emulated_half_fma_rounds_once_over_many_operands() {
    // A deterministic spread of binary16 operands, both signs, subnormals to
    // large: the device layer's software FMA against the `half` reference.
    let mut state = 0x1234_5678u32;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let finite = |bits: u16| if bits & 0x7c00 == 0x7c00 { bits & !0x4000 } else { bits };
    for _ in 0..200_000 {
        let word = |r: u32| pack_f16x2(finite(r as u16), finite((r >> 16) as u16));
        let (a, b, c) = (word(next()), word(next()), word(next()));
        assert_eq!(
            fma_f16x2(a, b, c),
            reference::fma_f16x2_reference(a, b, c),
            "fma({a:#010x}, {b:#010x}, {c:#010x})"
        );
    }
    // A tie: 1 + 2^-11 is halfway between 1 and 1 + 2^-10; ties go to even (1).
    let one = f16::from_f32(1.0).to_bits();
    let tiny = f16::from_f32(2f32.powi(-11)).to_bits();
    let both = |x| pack_f16x2(x, x);
    assert_eq!(fma_f16x2(both(one), both(one), both(tiny)), both(one));
}

#[test]
fn the_promoted_constant_changes_the_result() {
    // §7.2.3: v · 1.02 in f32 and in f64 (rounded back) differ; each matches its own reference.
    let params = f32_params(ThroughputKernel::F32LiteralMul, ArgumentRange::Small);
    let single = emulate(throughput::f32_literal_mul_throughput, params, ITERATIONS);
    let promoted = emulate(throughput::f64_promoted_mul_throughput, params, ITERATIONS);
    let differing = single.iter().zip(&promoted).filter(|(s, p)| s != p).count();
    assert!(differing > 0, "no chain differs");
    // One step of the guide's example, a = a * 1.02, over many a: the two roundings often differ.
    let different_steps = (1..100_000)
        .map(|i| 1.0 + i as f32 * 1e-5)
        .filter(|&x| x * 1.02f32 != ((x as f64) * 1.02) as f32)
        .count();
    assert!(different_steps > 1000, "{different_steps} of 99999 single steps differ");
}

#[test]
fn large_sine_arguments_stay_large_and_bounded() {
    // v ← sin(v) + 10^6 is chaotic at f32 resolution: check the range, and that
    // the accurate sine's (Payne–Hanek) results are those of the device layer.
    for kernel in [ThroughputKernel::Sin, ThroughputKernel::SinApprox] {
        let params = f32_params(kernel, ArgumentRange::Large);
        let got = emulate(f32_kernel(kernel), params, ITERATIONS);
        for v in got {
            assert!((v - params.b).abs() <= 1.0, "{kernel:?}: {v}");
        }
    }
}
