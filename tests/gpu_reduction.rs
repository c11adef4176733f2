//! The array sum's runners on a real GPU: every kernel in every
//! implementation the GPU has, timed, its sum against an f64 CPU sum.
//! Without a CUDA driver or device the test prints `SKIPPED ...` and passes.

mod gpu_support;

use gpu_support::gpu_or_skip;
use ptxsuite::launchers::reduction_runners;
use ptxsuite::run_settings::RunSettings;

#[test]
fn gpu_reduction_runners_sum_within_the_f32_bound() {
    let Some(dut) = gpu_or_skip("gpu_reduction_runners_sum_within_the_f32_bound") else {
        return;
    };
    let (mut runners, _waived) = reduction_runners(&dut).unwrap();
    let n = (1 << 22) + 77;
    let x: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0).collect();
    let exact: f64 = x.iter().map(|&v| v as f64).sum();
    let bound = n as f64 * f32::EPSILON as f64 * x.iter().map(|&v| (v as f64).abs()).sum::<f64>();
    let settings = RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    };
    let mut checked = 0;
    for runner in runners.iter_mut() {
        runner.load(&x).unwrap();
        for entry in runner.entries() {
            let times = runner.time(&entry, &settings).unwrap();
            assert!(times.iter().all(|t| t.is_finite() && *t > 0.0), "{entry:?}: {times:?}");
            let got = runner.read_sum(&entry).unwrap();
            assert!((got - exact).abs() <= bound, "{entry:?}: {got} vs {exact}");
            checked += 1;
        }
        // Ones add exactly (n < 2^24: every partial an integer below 2^24): any element lost or
        // counted twice shows, which the rounding bound above could hide.
        runner.load(&vec![1.0; n]).unwrap();
        for entry in runner.entries() {
            runner.time(&entry, &settings).unwrap();
            assert_eq!(
                runner.read_sum(&entry).unwrap(),
                n as f64,
                "{entry:?}: the sum of {n} ones"
            );
        }
    }
    assert!(checked >= 2, "at least the two Rust kernels");
}
