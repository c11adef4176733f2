#!/usr/bin/env bash
# GPU check of the streams family's runners (issue #26 item 2: the staged
# copy-and-execute pipeline, concurrent kernels and the default stream behind
# StagedRunner and FanOutRunner, one per programming model). A refactor that
# must change no behaviour. Run on the GPU machine from the repository root
# with, in .gpu/ (gzipped NAME.gz is unpacked first):
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   main's build, built the same way
#   opencl_kernels-*, gpu_copies-*   this build's test binaries
#                   (`cargo test --release --no-run --test opencl_kernels --test gpu_copies`)
# Checks, about 4 minutes on an H100:
#   1. experiment_bodies.sh on streams, concurrent-kernels and default-stream,
#      this build against main, quick settings; again with --impl rust,cuda-c
#      (no OpenCL runner and no OpenCL waiver).
#   2. `selftest` against main's: same rows (the staged pipeline's through its runner).
#   3. the streams runners' tests: CUDA's on the GPU (gpu_copies), OpenCL's on
#      NVIDIA's OpenCL and PoCL (opencl.sh registers NVIDIA's driver; here the
#      runner tests only).
# Writes $OUT/runner-streams/; prints "STREAMS RUNNER GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/runner-streams-check}/runner-streams
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; exit 1; }
done

only=streams,concurrent-kernels,default-stream
quick="--samples 3 --reps 3 --size-mib 64"
step=0
for extra in "" "--impl rust,cuda-c"; do
    step=$((step + 1))
    echo "== 1.$step $only, this build against main: ${extra:-quick settings}"
    OUT="$out/bodies-$step" ONLY="$only" RUN_ARGS="$quick $extra" bash gpu-checks/experiment_bodies.sh \
        >"$out/bodies-$step.log" 2>&1
    grep -E 'exit|SAME' "$out/bodies-$step.log"
    tail -n 1 "$out/bodies-$step.log" | grep -qx SAME || { tail -n 20 "$out/bodies-$step.log"; fail "1.$step differs from main"; }
done

echo "== 2. selftest against main's"
for side in ptxsuite ptxsuite-main; do
    timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
grep -i 'staged' "$out/selftest-ptxsuite.log"
if diff "$out/selftest-ptxsuite-main.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME as main"
else
    cat "$out/selftest.diff"
    fail "selftest differs from main's (main <, this build >)"
fi

echo "== 3. the runners' tests"
tests=(.gpu/gpu_copies-*)
if [ ${#tests[@]} -eq 0 ]; then
    fail "no .gpu/gpu_copies-* binary"
else
    "${tests[0]}" --test-threads 1 streams_runners >"$out/gpu_copies.log" 2>&1 || fail "gpu_copies failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/gpu_copies.log"
    grep -q '^SKIPPED' "$out/gpu_copies.log" && fail "the CUDA runner test was skipped (no GPU?)"
fi
tests=(.gpu/opencl_kernels-*)
if [ ${#tests[@]} -eq 0 ]; then
    fail "no .gpu/opencl_kernels-* binary"
else
    # opencl.sh's registration of NVIDIA's OpenCL driver, then only the streams runners' tests.
    vendors=$(mktemp -d)
    cp /etc/OpenCL/vendors/*.icd "$vendors"/ 2>/dev/null
    library=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ { print $NF; exit }')
    [ -n "$library" ] && echo "$library" >"$vendors/ptxsuite-nvidia.icd"
    OCL_ICD_VENDORS="$vendors" "${tests[0]}" --test-threads 1 staged_runner fan_out_runner \
        >"$out/opencl_kernels.log" 2>&1 || fail "the OpenCL runner tests failed"
    grep -E '^(SKIPPED|OPENCL DEVICE|test |test result)|panicked' "$out/opencl_kernels.log"
    grep -q '^OPENCL DEVICE: .*NVIDIA' "$out/opencl_kernels.log" || echo "note: NVIDIA's OpenCL device not named in the log"
fi

if [ "$status" -eq 0 ]; then echo "STREAMS RUNNER GPU CHECKS: PASS"; else echo "STREAMS RUNNER GPU CHECKS: FAIL"; fi
exit "$status"
