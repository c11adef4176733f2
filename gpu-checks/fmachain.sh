#!/usr/bin/env bash
# GPU check of the execution-configuration and occupancy runners (issue #26
# item 2: grid-shape and work-group-size behind FmaChainRunner, occupancy
# behind OccupancyRunner). A refactor that must change no behaviour. Run on
# the GPU machine from the repository root with, in .gpu/:
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   main before the change (ab06987), built the same way
#   gpu_memory_claims-*, opencl_kernels-*   this build's test binaries
#                   (`cargo test --release --no-run --test gpu_memory_claims --test opencl_kernels`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 3 minutes on an H100:
#   1. experiment_bodies.sh, this build against main at quick settings, on
#      grid-shape, work-group-size and occupancy; again with --impl rust,cuda-c
#      (work-group-size skipped on both sides; the same waivers).
#   2. `selftest` against main's: same rows, statuses, waivers.
#   3. gpu_memory_claims' occupancy tests: the launchers and the CUDA occupancy runner on the GPU.
#   4. opencl_kernels' fma_chain tests: the launcher and the OpenCL runner on PoCL and NVIDIA's OpenCL.
# Writes $OUT/fmachain/; prints "FMACHAIN GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/fmachain-check}/fmachain
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
for extra in "" "--impl rust,cuda-c"; do
    step=$((step + 1))
    echo "== 1.$step grid-shape,work-group-size,occupancy, this build against main: ${extra:-quick settings}"
    OUT="$out/bodies-$step" ONLY=grid-shape,work-group-size,occupancy RUN_ARGS="$quick $extra" \
        bash gpu-checks/experiment_bodies.sh >"$out/bodies-$step.log" 2>&1
    grep -E 'exit|SAME' "$out/bodies-$step.log"
    tail -n 1 "$out/bodies-$step.log" | grep -qx SAME || { tail -n 20 "$out/bodies-$step.log"; fail "1.$step differs from main"; }
done

echo "== 2. selftest against main's"
for side in ptxsuite ptxsuite-main; do
    timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
if diff "$out/selftest-ptxsuite-main.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME"
else
    cat "$out/selftest.diff"
    fail "selftest differs from main's (main <, this build >)"
fi

step=2
for pass in "gpu_memory_claims|gpu_occupancy" "opencl_kernels|fma_chain"; do
    step=$((step + 1))
    name=${pass%%|*} filter=${pass#*|}
    echo "== $step. $name's $filter tests"
    tests=(.gpu/"$name"-*)
    if [ ${#tests[@]} -eq 0 ]; then
        fail "no .gpu/$name-* binary"
        continue
    fi
    "${tests[0]}" --test-threads 1 "$filter" >"$out/$name.log" 2>&1 || fail "$name failed"
    grep -E '^(SKIPPED|OPENCL DEVICE|test |test result)|panicked' "$out/$name.log"
    grep -q '^SKIPPED' "$out/$name.log" && fail "$name's $filter tests were skipped (no GPU or no OpenCL?)"
done

if [ "$status" -eq 0 ]; then echo "FMACHAIN GPU CHECKS: PASS"; else echo "FMACHAIN GPU CHECKS: FAIL"; fi
exit "$status"
