#!/usr/bin/env bash
# GPU check of the hubs branch (issue #26 item 3: the PTX entry lists, the
# OpenCL C kernel list and SELF_TESTS declared per family; a refactor that
# must change no behaviour). Run on the GPU machine from the repository root
# with, in .gpu/:
#   ptxsuite        this branch's binary (cargo build --release --bin ptxsuite)
#   ptxsuite-main   main's at the branch point fd373cd, built the same way
#   ptx_checks-*, opencl_kernels-*   this branch's test binaries, as printed by
#                   `cargo test --no-run --test ptx_checks --test opencl_kernels`
# Checks, about 2 minutes on an H100:
#   1. `selftest` with both binaries: the tables, numbers masked, must be
#      identical (same 38 rows in the same order, same statuses and waivers).
#   2. ptx_checks with CUDA's ptxas, nvcc and NVRTC: the memory-claims twins
#      test (which reads memory_claims_entries()) runs here instead of skipping.
#   3. gpu-checks/opencl.sh on opencl_kernels alone: every kernel the families
#      list (opencl_c_kernels()) exists in the twins built by NVIDIA's OpenCL.
# Writes $OUT/hubs/; prints "HUBS GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/hubs-check}/hubs
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }

echo "== 1. selftest, branch against main"
for side in branch main; do
    bin=./.gpu/ptxsuite; [ "$side" = main ] && bin=./.gpu/ptxsuite-main
    [ -x "$bin" ] || { fail "no $bin (see the header of $0)"; continue; }
    timeout -s INT -k 10 150 "$bin" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
cat "$out/selftest-branch.log"
if diff "$out/selftest-main.masked" "$out/selftest-branch.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME"
else
    cat "$out/selftest.diff"
    fail "selftest tables differ (main <, branch >)"
fi

echo "== 2. ptx_checks with ptxas, nvcc and NVRTC"
shopt -s nullglob
ptx_checks=(.gpu/ptx_checks-*)
if [ ${#ptx_checks[@]} -eq 0 ]; then
    fail "no .gpu/ptx_checks-* binary"
else
    PTXAS=/usr/local/cuda/bin/ptxas "${ptx_checks[0]}" >"$out/ptx_checks.log" 2>&1 || fail "ptx_checks failed"
    grep -E '^(SKIPPED|test result)|FAILED|panicked' "$out/ptx_checks.log"
    grep -q '^SKIPPED cuda_c_twins_of_the_memory_claims' "$out/ptx_checks.log" \
        && fail "the memory-claims twins test was skipped (no NVRTC?)"
fi

echo "== 3. the OpenCL C twins the families list, on NVIDIA's OpenCL"
# opencl.sh runs every .gpu/opencl_kernels-* (and .gpu/opencl_logic-*, if copied).
bash gpu-checks/opencl.sh >"$out/opencl.log" 2>&1 || fail "gpu-checks/opencl.sh failed"
grep -E '^(== summary|NVIDIA OpenCL|OPENCL GPU CHECKS)|: (ok|FAILED) \(' "$out/opencl.log"

if [ "$status" -eq 0 ]; then echo "HUBS GPU CHECKS: PASS"; else echo "HUBS GPU CHECKS: FAIL"; fi
exit "$status"
