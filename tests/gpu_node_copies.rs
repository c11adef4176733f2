//! The node-copies family's runners on real GPUs: the implementations and
//! waivers each `--impl` set gives (`node_copy_runners`); on one GPU every
//! copy between host and device memory (copy engines each way and both at
//! once, `vector_copy` reading and writing mapped host memory, a part of an
//! array by an explicit grid) timed and read back against the CPU, and the
//! copies a runner must refuse; on two GPUs (skipped with fewer) the copies
//! between them: copy engines, pulls and pushes once peer access is on, and a
//! copy split between both GPUs at once. Without a CUDA driver or device (or
//! one that cannot map host memory) each test prints `SKIPPED ...` and passes.

mod gpu_support;

use gpu_support::{assert_runners_follow, gpu_or_skip, mapped_gpu_or_skip, note_skipped};
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::gpu::Gpu;
use ptxsuite::launchers::{KernelSet, NodeArray, NodeCopy, NodeCopyRunner, node_copy_runners};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{DeviceSelection, DeviceUnderTest, Implementation, ImplementationSet, Testbed};

/// Floats per array: whole float4s, and two halves that stay 16-byte aligned.
const LEN: usize = 1 << 16;

fn settings() -> RunSettings {
    RunSettings {
        samples: 3,
        reps: 2,
        ..RunSettings::default()
    }
}

fn source(gpu: usize) -> Vec<f32> {
    (0..LEN)
        .map(|i| (i % 977) as f32 * 0.25 - 3.0 + gpu as f32 * 1000.0)
        .collect()
}

fn contents(runner: &mut dyn NodeCopyRunner, array: NodeArray) -> Vec<f32> {
    let mut out = vec![0f32; array.len()];
    runner.read(array, 0, &mut out).unwrap();
    out
}

/// `got` equals `expected` bit for bit.
fn check(what: &str, got: &[f32], expected: &[f32]) {
    assert_eq!(got.len(), expected.len(), "{what}");
    let wrong = got.iter().zip(expected).position(|(g, e)| g.to_bits() != e.to_bits());
    assert_eq!(wrong, None, "{what}: first wrong element");
}

/// Fills `copy`'s destination with -1, times `copy` and checks that the
/// destination then holds `expected`; the milliseconds per sample.
fn time_and_check(
    runner: &mut dyn NodeCopyRunner,
    copy: &NodeCopy,
    settings: &RunSettings,
    what: &str,
    expected: &[f32],
) -> Vec<f64> {
    let (_, to, ..) = copy.ends();
    runner.fill(to, -1.0).unwrap();
    let times = runner.time(copy, settings).unwrap();
    check(what, &contents(runner, to), expected);
    times
}

/// The first `n` floats of `source`, the rest -1.
fn head_of(source: &[f32], n: usize) -> Vec<f32> {
    (0..source.len())
        .map(|i| if i < n { source[i] } else { -1.0 })
        .collect()
}

/// Rust alone never waives the twins; with the twins, CUDA C runs where NVRTC
/// built it and is waived only where it was selected but missing.
#[test]
fn gpu_node_copy_runners_follow_the_implementation_set() {
    let Some(all) = gpu_or_skip("gpu_node_copy_runners_follow_the_implementation_set") else {
        return;
    };
    let has_cuda_c = all.ptx_implementations().0.contains(&Implementation::CudaC);
    drop(all);
    for list in ["rust", "rust,cuda-c", "all"] {
        let set = ImplementationSet::parse(list).unwrap();
        let devices = [DeviceUnderTest::open(CudaOrdinal(0), &set).unwrap()];
        for kernels in [KernelSet::Rust, KernelSet::WithTwins] {
            let (runners, waived) = node_copy_runners(&devices, kernels).unwrap();
            assert_eq!(runners.len(), 1);
            assert_eq!(runners[0].gpus(), 1);
            assert_runners_follow(list, has_cuda_c, kernels, runners[0].implementations(), &waived);
        }
    }
    assert!(node_copy_runners(&[], KernelSet::Rust).is_err(), "no GPU");
}

/// Every copy between host and device memory on one GPU, timed by the runner, leaves what the CPU expects.
#[test]
fn gpu_node_copy_runner_moves_between_host_and_gpu() {
    let Some(dut) = mapped_gpu_or_skip("gpu_node_copy_runner_moves_between_host_and_gpu") else {
        return;
    };
    let settings = settings();
    let devices = [dut];
    let (mut runners, _) = node_copy_runners(&devices, KernelSet::WithTwins).unwrap();
    let runner = runners[0].as_mut();
    let source = source(0);
    let host_in = runner.host_array(0, LEN).unwrap();
    runner.write(host_in, &source).unwrap();
    let host_out = runner.host_array(0, LEN).unwrap();
    let device_in = runner.device_array(0, LEN).unwrap();
    runner.write(device_in, &source).unwrap();
    let device_out = runner.device_array(0, LEN).unwrap();
    let n = LEN / 2;
    let head = head_of(&source, n);
    let engine = |from, to, start, count| NodeCopy::Engine {
        issuer: 0,
        from,
        to,
        start,
        count,
    };
    // Copy engines, one way each, the first half.
    let upload = engine(host_in, device_out, 0, n);
    let times = time_and_check(runner, &upload, &settings, "upload", &head);
    assert_eq!(times.len(), 3);
    assert!(times.iter().all(|t| t.is_finite() && *t > 0.0), "{times:?}");
    let download = engine(device_in, host_out, 0, n);
    time_and_check(runner, &download, &settings, "download", &head);
    // Both ways at once, the whole arrays.
    runner.fill(device_out, -1.0).unwrap();
    runner.fill(host_out, -1.0).unwrap();
    let both = [engine(host_in, device_out, 0, LEN), engine(device_in, host_out, 0, LEN)];
    let samples = runner.time_together(&both, 0, &settings).unwrap();
    assert_eq!(samples.total.len(), 3);
    assert_eq!(samples.lanes.len(), 2);
    assert!(samples.total.iter().all(|g| g.is_finite() && *g > 0.0), "{samples:?}");
    check("both ways: up", &contents(runner, device_out), &source);
    check("both ways: down", &contents(runner, host_out), &source);
    for implementation in runner.implementations().to_vec() {
        let kernel = |from, to, start, count, blocks| NodeCopy::Kernel {
            issuer: 0,
            implementation,
            from,
            to,
            start,
            count,
            blocks,
        };
        let what = |copy: &str| format!("{implementation} {copy}");
        let reads_mapped = kernel(host_in, device_out, 0, n, None);
        time_and_check(runner, &reads_mapped, &settings, &what("reads mapped"), &head);
        let writes_mapped = kernel(device_in, host_out, 0, n, None);
        time_and_check(runner, &writes_mapped, &settings, &what("writes mapped"), &head);
        // The second half only, by a grid of 3 blocks.
        let second_half = kernel(device_in, device_out, n, LEN - n, Some(3));
        let tail: Vec<f32> = (0..LEN).map(|i| if i < n { -1.0 } else { source[i] }).collect();
        time_and_check(runner, &second_half, &settings, &what("second half"), &tail);
    }
    let mut part = vec![0f32; 5];
    runner.read(host_in, 7, &mut part).unwrap();
    check("a part of host memory", &part, &source[7..12]);
    runner.read(device_in, LEN - 5, &mut part).unwrap();
    check("a part of device memory", &part, &source[LEN - 5..]);
}

/// Copies that cannot run where their arrays are, sets that overlap, kernels the runner was not
/// given, GPUs it does not have and reads past an array are refused, not launched.
#[test]
fn gpu_node_copy_runner_refuses_what_it_cannot_run() {
    let Some(dut) = mapped_gpu_or_skip("gpu_node_copy_runner_refuses_what_it_cannot_run") else {
        return;
    };
    let settings = settings();
    let devices = [dut];
    let (mut runners, _) = node_copy_runners(&devices, KernelSet::Rust).unwrap();
    let runner = runners[0].as_mut();
    let host = runner.host_array(0, LEN).unwrap();
    let other_host = runner.host_array(0, LEN).unwrap();
    let device = runner.device_array(0, LEN).unwrap();
    let other = runner.device_array(0, LEN).unwrap();
    let engine = |from, to, start, count| NodeCopy::Engine {
        issuer: 0,
        from,
        to,
        start,
        count,
    };
    let kernel = |implementation, from, to| NodeCopy::Kernel {
        issuer: 0,
        implementation,
        from,
        to,
        start: 0,
        count: LEN,
        blocks: None,
    };
    let refused = |runner: &mut dyn NodeCopyRunner, copy: NodeCopy, what: &str| {
        assert!(runner.time(&copy, &settings).is_err(), "{what}");
    };
    refused(runner, engine(host, other_host, 0, LEN), "host to host");
    refused(runner, engine(device, device, 0, LEN), "onto itself");
    refused(runner, engine(host, device, 1, LEN), "past the end");
    refused(
        runner,
        kernel(Implementation::CudaC, device, other),
        "not its implementation",
    );
    let overlapping = [
        engine(device, other, 0, LEN / 2 + 4),
        engine(host, other, LEN / 2, LEN / 2),
    ];
    assert!(
        runner.time_together(&overlapping, 0, &settings).is_err(),
        "overlapping writes"
    );
    assert!(runner.time_together(&[], 0, &settings).is_err(), "nothing at once");
    assert!(runner.device_array(1, LEN).is_err(), "a GPU it does not have");
    assert!(runner.path(0, 1).is_err(), "a GPU it does not have");
    assert!(runner.write(device, &[0.0; 3]).is_err(), "a write of the wrong length");
    assert!(runner.write(host, &[0.0; 3]).is_err(), "a write of the wrong length");
    let mut past = vec![0f32; 8];
    assert!(runner.read(device, LEN - 4, &mut past).is_err(), "a read past the end");
    assert!(runner.read(host, LEN - 4, &mut past).is_err(), "a read past the end");
}

/// The first two GPUs of the machine, or `None` (after SKIPPED) with fewer.
fn two_gpus(test: &str) -> Option<Testbed> {
    gpu_or_skip(test)?;
    let count = Gpu::device_count().unwrap();
    if count < 2 {
        note_skipped(&format!("SKIPPED {test}: needs 2 GPUs, this machine has {count}"));
        return None;
    }
    let selection = DeviceSelection::parse("0,1").unwrap();
    Some(Testbed::open(&selection, &ImplementationSet::default()).unwrap())
}

/// Between two GPUs: a copy engine each way always; with peer access, kernels pulling and pushing
/// (refused before access is on), and one copy made half by each GPU at once.
#[test]
fn gpu_node_copy_runner_copies_between_two_gpus() {
    let Some(testbed) = two_gpus("gpu_node_copy_runner_copies_between_two_gpus") else {
        return;
    };
    let settings = settings();
    let (mut runners, _) = node_copy_runners(testbed.devices(), KernelSet::Rust).unwrap();
    let runner = runners[0].as_mut();
    let sources = [source(0), source(1)];
    let mut on = Vec::new();
    for (gpu, source) in sources.iter().enumerate() {
        let array = runner.device_array(gpu, LEN).unwrap();
        runner.write(array, source).unwrap();
        on.push((array, runner.device_array(gpu, LEN).unwrap()));
    }
    let [(source_0, received_0), (source_1, received_1)] = [on[0], on[1]];
    let engine = |issuer, from, to, start, count| NodeCopy::Engine {
        issuer,
        from,
        to,
        start,
        count,
    };
    let kernel = |issuer, from, to, start, count| NodeCopy::Kernel {
        issuer,
        implementation: Implementation::Rust,
        from,
        to,
        start,
        count,
        blocks: None,
    };
    let ce_0_to_1 = engine(0, source_0, received_1, 0, LEN);
    time_and_check(runner, &ce_0_to_1, &settings, "CE 0 → 1", &sources[0]);
    let ce_1_to_0 = engine(0, source_1, received_0, 0, LEN);
    time_and_check(runner, &ce_1_to_0, &settings, "CE 1 → 0 by GPU 0's engine", &sources[1]);
    let pull = kernel(1, source_0, received_1, 0, LEN);
    assert!(runner.time(&pull, &settings).is_err(), "no peer access enabled yet");
    let access = [runner.path(0, 1).unwrap(), runner.path(1, 0).unwrap()];
    if !access.iter().all(|a| a.access_supported) {
        note_skipped("SKIPPED the kernel copies of gpu_node_copy_runner_copies_between_two_gpus: no peer access");
        return;
    }
    runner.enable_peer_access(0, 1).unwrap();
    runner.enable_peer_access(1, 0).unwrap();
    time_and_check(runner, &pull, &settings, "pull 0 → 1", &sources[0]);
    let push = kernel(1, source_1, received_0, 0, LEN);
    time_and_check(runner, &push, &settings, "push 1 → 0", &sources[1]);
    // Half each: GPU 0 pushes the first half while GPU 1 pulls the second.
    runner.fill(received_1, -1.0).unwrap();
    let halves = [
        kernel(0, source_0, received_1, 0, LEN / 2),
        kernel(1, source_0, received_1, LEN / 2, LEN / 2),
    ];
    let samples = runner.time_together(&halves, 0, &settings).unwrap();
    assert_eq!(samples.lanes.len(), 2);
    check("push half, pull half", &contents(runner, received_1), &sources[0]);
    runner.disable_peer_access();
    assert!(runner.time(&pull, &settings).is_err(), "peer access ended");
}
