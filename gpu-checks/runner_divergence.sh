#!/usr/bin/env bash
# GPU check of the runner-divergence branch (issue #26 item 2: the
# control-flow family's runners, DivergenceRunner; a refactor that must change
# no behaviour). Run on the GPU machine from the repository root with, in .gpu/:
#   ptxsuite        this branch's binary (cargo build --release --bin ptxsuite)
#   ptxsuite-main   main's at the branch point ef6afce, built the same way
#   opencl_kernels-<hash>   optional: this branch's test binary, as printed by
#                   `cargo test --no-run --test opencl_kernels` (step 4)
# Checks, about 3 minutes on an H100:
#   1-3. gpu-checks/experiment_bodies.sh with ONLY=divergence, branch against
#        main: plain quick settings; with --counters (the counters pass
#        launches through the runners); with --impl rust,cuda-c (OpenCL present
#        but not selected: no OpenCL series and no waiver). Each prints SAME.
#   4. `selftest` with both binaries, numbers masked: the same rows.
#   5. where the test binary is there: gpu-checks/opencl.sh on it, so the
#      OpenCL runner test runs on NVIDIA's OpenCL device too.
# Writes $OUT/runner-divergence/; ends with "RUNNER-DIVERGENCE GPU CHECKS: PASS" or FAIL.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/runner-divergence-check}/runner-divergence
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
quick="--samples 3 --reps 3 --size-mib 64"

step=0
for extra in "" "--counters" "--impl rust,cuda-c"; do
    step=$((step + 1))
    echo "== $step. divergence, branch against main: ${extra:-quick settings}"
    dir="$out/bodies-$step"
    OUT="$dir" ONLY=divergence RUN_ARGS="$quick $extra" bash gpu-checks/experiment_bodies.sh
    tail -n 1 "$dir/compare.txt" | grep -qx SAME || fail "step $step (${extra:-quick}) differs: $dir/compare.txt"
done

echo "== 4. selftest, branch against main"
for side in branch main; do
    bin=./.gpu/ptxsuite; [ "$side" = main ] && bin=./.gpu/ptxsuite-main
    timeout -s INT -k 10 150 "$bin" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
if diff "$out/selftest-main.masked" "$out/selftest-branch.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME"
else
    cat "$out/selftest.diff"
    fail "selftest tables differ (main <, branch >)"
fi

shopt -s nullglob
binaries=(.gpu/opencl_kernels-*)
if [ ${#binaries[@]} -gt 0 ]; then
    echo "== 5. the OpenCL twin tests (the divergence runner's included) on NVIDIA's OpenCL"
    bash gpu-checks/opencl.sh >"$out/opencl.log" 2>&1 || fail "gpu-checks/opencl.sh: see $out/opencl.log"
    grep -E 'divergence|^NVIDIA OpenCL device tested|FAILED' "$out/opencl.log"
else
    echo "== 5. skipped: no .gpu/opencl_kernels-* test binary"
fi

if [ "$status" -eq 0 ]; then
    echo "RUNNER-DIVERGENCE GPU CHECKS: PASS"
else
    echo "RUNNER-DIVERGENCE GPU CHECKS: FAIL"
fi
exit "$status"
