#!/usr/bin/env bash
# GPU check of the dedupe branch (the runner families' repeated code made one:
# twin_waivers::{KernelSet, kernel_set_plan, cuda_twins_plan},
# particle_scene::float4s, pointer_ring::ring_words, tests' shared helpers).
# A refactor that must change no behaviour. Run on the GPU machine from the
# repository root with, in .gpu/:
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   the build before the change, built the same way
#   gpu_mapped_runners-*, gpu_node_copies-*, gpu_particles-*   optional: this
#                   build's test binaries (`cargo test --release --no-run
#                   --test gpu_mapped_runners --test gpu_node_copies --test gpu_particles`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 3 minutes on an H100:
#   1. experiment_bodies.sh on the experiments whose runner plans moved, at its
#      quick settings: same statuses, series keys, waivers and notes as main.
#   2. again with --impl rust (no CUDA C series and no waiver) on the same set.
#   3. the three test binaries (the two-GPU node test prints SKIPPED on one GPU).
# Writes $OUT/dedupe/; prints "DEDUPE GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/dedupe-check}/dedupe
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
only=latency,link-latency,loop-counters,occupancy,texture-2d,zero-copy,mapped-stride,mapped-reuse,transfer-intensity

echo "== 1. this build against main, quick settings"
OUT="$out/quick" ONLY=$only bash gpu-checks/experiment_bodies.sh | tail -n 8
tail -n 1 "$out/quick/compare.txt" | grep -qx SAME || fail "the quick run differs from main"

echo "== 2. --impl rust"
OUT="$out/rust" ONLY=$only RUN_ARGS="--samples 3 --reps 3 --size-mib 64 --impl rust" \
    bash gpu-checks/experiment_bodies.sh | tail -n 8
tail -n 1 "$out/rust/compare.txt" | grep -qx SAME || fail "the --impl rust run differs from main"

echo "== 3. the runners' tests on the GPU"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for name in gpu_mapped_runners gpu_node_copies gpu_particles; do
    tests=(.gpu/"$name"-*)
    if [ ${#tests[@]} -eq 0 ]; then
        echo "(no .gpu/$name-* binary: skipped)"
        continue
    fi
    "${tests[0]}" --test-threads 1 >"$out/$name.log" 2>&1 || fail "$name failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/$name.log"
    grep -E '^SKIPPED' "$out/$name.log" | grep -qv 'needs 2 GPUs' && fail "$name skipped tests (no GPU?)"
done

if [ $status -eq 0 ]; then echo "DEDUPE GPU CHECKS: PASS"; else echo "DEDUPE GPU CHECKS: FAIL"; fi
exit $status
