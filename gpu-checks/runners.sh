#!/usr/bin/env bash
# GPU check of the family runners (issue #26 items 2 and 3: bank conflicts,
# constant memory, local memory, divergence and the streams family (staged
# pipeline and fan-out) behind one runner per programming model; PTX entries,
# OpenCL C kernels and selftest rows declared per family). Refactors that must change no behaviour. Run on the GPU machine
# from the repository root with, in .gpu/:
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   the build before the change, built the same way
#   ptxsuite-old    optional: an older build whose selftest table must also match
#   ptx_checks-*, opencl_kernels-*, gpu_bank_runners-*, gpu_copies-*   this build's test
#                   binaries (`cargo test --release --no-run --test ptx_checks
#                   --test opencl_kernels --test gpu_bank_runners --test gpu_copies`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 5 minutes on an H100:
#   1. experiment_bodies.sh, this build against main at quick settings, on the
#      families' experiments (and latency, whose per-launch outputs moved);
#      again with --counters, and with --impl rust,cuda-c (the runner lists; for
#      the streams family also no OpenCL runner and no OpenCL waiver).
#   2. `selftest` against main's (and the old build's): same rows, statuses, waivers.
#   3. ptx_checks with CUDA's ptxas and NVRTC (the twins' parameter lists).
#   4. opencl.sh: every OpenCL C twin test, the runners' included, on NVIDIA's OpenCL.
#   5. gpu_bank_runners: the bank runners on the GPU.
#   6. gpu_copies' streams_runners: the streams family's CUDA runners on the GPU.
# Writes $OUT/runners/; prints "RUNNERS GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/runners-check}/runners
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; exit 1; }
done

quick="--samples 3 --reps 3 --size-mib 64"
step=0
streams=streams,concurrent-kernels,default-stream
for pass in "bank-conflicts,constant-memory,local-memory,latency,divergence,$streams|" \
    "bank-conflicts,local-memory,divergence|--counters" \
    "bank-conflicts,constant-memory,divergence,$streams|--impl rust,cuda-c"; do
    step=$((step + 1))
    only=${pass%%|*} extra=${pass#*|}
    echo "== 1.$step $only, this build against main: ${extra:-quick settings}"
    OUT="$out/bodies-$step" ONLY="$only" RUN_ARGS="$quick $extra" bash gpu-checks/experiment_bodies.sh \
        >"$out/bodies-$step.log" 2>&1
    grep -E 'exit|SAME' "$out/bodies-$step.log"
    tail -n 1 "$out/bodies-$step.log" | grep -qx SAME || { tail -n 20 "$out/bodies-$step.log"; fail "1.$step differs from main"; }
done

echo "== 2. selftest against main's (and the old build's)"
for side in ptxsuite ptxsuite-main ptxsuite-old; do
    [ -x ".gpu/$side" ] || continue
    timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
tail -n 1 "$out/selftest-ptxsuite.log"
for side in ptxsuite-main ptxsuite-old; do
    [ -f "$out/selftest-$side.masked" ] || continue
    if diff "$out/selftest-$side.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest-$side.diff"; then
        echo "SELFTEST SAME as $side"
    else
        cat "$out/selftest-$side.diff"
        fail "selftest differs from $side's ($side <, this build >)"
    fi
done

echo "== 3. ptx_checks with ptxas and NVRTC"
ptx_checks=(.gpu/ptx_checks-*)
if [ ${#ptx_checks[@]} -eq 0 ]; then
    fail "no .gpu/ptx_checks-* binary"
else
    PTXAS=/usr/local/cuda/bin/ptxas "${ptx_checks[0]}" >"$out/ptx_checks.log" 2>&1 || fail "ptx_checks failed"
    grep -E '^(SKIPPED|test result)|FAILED|panicked' "$out/ptx_checks.log"
fi

echo "== 4. the OpenCL C twin tests on NVIDIA's OpenCL"
bash gpu-checks/opencl.sh >"$out/opencl.log" 2>&1 || fail "gpu-checks/opencl.sh failed"
grep -E '^(== summary|NVIDIA OpenCL|OPENCL GPU CHECKS)|runner|: (ok|FAILED) \(' "$out/opencl.log" | head -n 40

echo "== 5. the bank runners on the GPU"
tests=(.gpu/gpu_bank_runners-*)
if [ ${#tests[@]} -eq 0 ]; then
    fail "no .gpu/gpu_bank_runners-* binary"
else
    "${tests[0]}" --test-threads 1 >"$out/gpu_bank_runners.log" 2>&1 || fail "gpu_bank_runners failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/gpu_bank_runners.log"
    grep -q '^SKIPPED' "$out/gpu_bank_runners.log" && fail "the runner tests were skipped (no GPU?)"
fi

echo "== 6. the streams runners on the GPU"
tests=(.gpu/gpu_copies-*)
if [ ${#tests[@]} -eq 0 ]; then
    fail "no .gpu/gpu_copies-* binary"
else
    "${tests[0]}" --test-threads 1 streams_runners >"$out/gpu_copies.log" 2>&1 || fail "gpu_copies failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/gpu_copies.log"
    grep -q '^SKIPPED' "$out/gpu_copies.log" && fail "the streams runner test was skipped (no GPU?)"
fi

if [ "$status" -eq 0 ]; then echo "RUNNERS GPU CHECKS: PASS"; else echo "RUNNERS GPU CHECKS: FAIL"; fi
exit "$status"
