//! The accuracy kernel in the CPU emulator, and the device layer's sine and
//! exponentials against the C library's `f64` functions on the host.

use kernels_gpu::math_accuracy::{MathFunction, math_function_values};
use ptxsuite::device::{
    CODY_WAITE_LIMIT, Dim3, EXP_ACCURATE_MAX_ULP, EXP_MAX_ULP, SIN_MAX_ULP, exp, exp_accurate, sin,
};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::reference::{ArgumentRange, documented_bound, error_stats, input_sweep, math_function_exact, ulp_error};

/// `out[i] = function(inp[i])` in the emulator, over `inputs`.
fn emulate(function: u32, inputs: &[f32]) -> Vec<f32> {
    let mut out = vec![-1.0f32; inputs.len()];
    {
        let mut emu = Emulator::new();
        let inp = emu.global(inputs);
        let out = emu.global_mut(&mut out);
        let n = inputs.len() as u32;
        // SAFETY: threads past n do nothing; the emulator checks every access.
        emu.launch(
            LaunchConfig::new(Dim3::x(n.div_ceil(256)), Dim3::x(256), 0),
            || unsafe { math_function_values(out, inp, n, function) },
        )
        .unwrap();
    }
    out
}

#[test]
fn every_function_is_within_its_bound_over_both_sweeps() {
    for function in MathFunction::ALL {
        for range in ArgumentRange::ALL {
            let inputs = input_sweep(function, range, 1000);
            let got = emulate(function as u32, &inputs);
            let bound = documented_bound(function, range);
            for (&x, &y) in inputs.iter().zip(&got) {
                let exact = math_function_exact(function, x as f64);
                assert!(
                    bound.allows(x, y, exact),
                    "{function:?} at {x:e}: {y:e} vs {exact:e} ({bound:?})"
                );
            }
            let stats = error_stats(&inputs, &got, |x| math_function_exact(function, x)).unwrap();
            assert_eq!(stats.count, 1000);
            assert!(stats.max_ulp.is_finite(), "{function:?} {range:?}: {stats:?}");
        }
    }
}

#[test]
fn an_unknown_function_writes_nan() {
    let got = emulate(99, &[1.0, 2.0, 3.0]);
    assert!(got.iter().all(|y| y.is_nan()));
}

#[test]
fn only_n_elements_are_written() {
    let inputs = [0.5f32; 300];
    let mut out = vec![-1.0f32; 300];
    {
        let mut emu = Emulator::new();
        let inp = emu.global(&inputs);
        let out = emu.global_mut(&mut out);
        // SAFETY: as above.
        emu.launch(LaunchConfig::new(Dim3::x(2), Dim3::x(256), 0), || unsafe {
            math_function_values(out, inp, 290, MathFunction::RcpApprox as u32)
        })
        .unwrap();
    }
    assert!(out[..290].iter().all(|&y| y == 2.0));
    assert!(out[290..].iter().all(|&y| y == -1.0));
}

/// The accurate sine's error at `x`, in ulp of sin(x).
fn sine_error(x: f32) -> f64 {
    ulp_error(sin(x), (x as f64).sin())
}

#[test]
fn accurate_sine_is_within_its_bound_for_small_and_large_arguments() {
    // A dense sweep of both reduction paths: [−2^17, 2^17] (Cody–Waite) and
    // 2^17 up to the largest float, both signs, log-spaced (Payne–Hanek).
    let small = (0..200_001).map(|i| (i as f64 / 100_000.0 - 1.0) * CODY_WAITE_LIMIT as f64);
    let large = (0..200_000).map(|i| {
        let magnitude = (17.0 + 111.0 * i as f64 / 200_000.0).exp2().min(f32::MAX as f64);
        if i % 2 == 0 { magnitude } else { -magnitude }
    });
    for x in small.chain(large).map(|x| x as f32) {
        let error = sine_error(x);
        assert!(error <= SIN_MAX_ULP, "sin({x:e}): {error} ulp");
    }
}

#[test]
fn accurate_sine_keeps_its_bound_next_to_multiples_of_half_pi() {
    // The floats nearest k·π/2 (and their neighbours) leave the smallest
    // remainders: the hardest cases for range reduction, on both paths.
    for k in (1..2_000_000u64)
        .step_by(997)
        .chain((1u64 << 40..).step_by(1 << 37).take(2000))
    {
        let nearest = (k as f64 * std::f64::consts::FRAC_PI_2) as f32;
        for x in [nearest.next_down(), nearest, nearest.next_up()] {
            let error = sine_error(x);
            assert!(error <= SIN_MAX_ULP, "sin({x:e}) near {k}·π/2: {error} ulp");
        }
    }
}

#[test]
fn accurate_exp_is_within_its_bound_where_it_is_normal() {
    for i in 0..400_000 {
        let x = (-87.0 + 175.0 * i as f64 / 400_000.0) as f32;
        let error = ulp_error(exp_accurate(x), (x as f64).exp());
        assert!(error <= EXP_ACCURATE_MAX_ULP, "exp({x:e}): {error} ulp");
    }
}

#[test]
fn exp_in_the_emulator_is_its_reduction_s_error_from_the_exact_value() {
    // The emulator's ex2.approx is correctly rounded, so what `exp` adds past
    // half an ulp is its reduction's: 0.69 ulp, 1.39 where j is clamped
    // (x > 87.34). On the GPU, MUFU.EX2's error replaces the half ulp.
    let mut worst: f64 = 0.0;
    for i in 0..400_000 {
        let x = (-87.0 + 175.7 * i as f64 / 400_000.0) as f32;
        let error = ulp_error(exp(x), (x as f64).exp());
        let reduction = if x > 87.34 { 1.39 } else { 0.69 };
        assert!(error <= 0.5 + reduction, "exp({x:e}): {error} ulp");
        worst = worst.max(error);
    }
    assert!(worst <= EXP_MAX_ULP && worst > 0.5, "worst {worst} ulp");
    // Subnormal results: within one subnormal ulp; beyond, exactly 0.
    for i in 0..10_000 {
        let x = (-103.9 + 16.5 * i as f64 / 10_000.0) as f32;
        let exact = (x as f64).exp();
        let got = exp(x) as f64;
        if exact < f32::MIN_POSITIVE as f64 {
            assert!(
                (got - exact).abs() <= 2f64.powi(-149),
                "exp({x:e}) = {got:e}, exact {exact:e}"
            );
        }
    }
    for x in [-104.0f32, -150.0, -1e30, f32::NEG_INFINITY] {
        assert_eq!(exp(x).to_bits(), 0, "exp({x:e})");
    }
    for x in [88.73f32, 100.0, 1e30, f32::INFINITY] {
        assert_eq!(exp(x), f32::INFINITY, "exp({x:e})");
    }
    assert!(exp(f32::NAN).is_nan());
}

#[test]
fn the_two_exponentials_agree_within_their_bounds() {
    // exp (CUDA's expf algorithm) and exp_accurate (FMAs only) differ by at
    // most the sum of their emulated errors.
    for i in 0..100_000 {
        let x = (-87.0 + 175.0 * i as f64 / 100_000.0) as f32;
        let exact = (x as f64).exp();
        let gap = (exp(x) as f64 - exp_accurate(x) as f64).abs();
        let spacing = (exact as f32).next_up() as f64 - exact as f32 as f64;
        assert!(
            gap <= (1.9 + EXP_ACCURATE_MAX_ULP) * spacing * 1.0001,
            "exp({x:e}): gap {gap:e}"
        );
    }
}
