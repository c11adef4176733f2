#!/usr/bin/env bash
# GPU check for branch cudastd (issue 30): kernels written for Rust-CUDA's cuda_std, built by
# rustc's own nvptx target through ptxsuite's ptx-cuda-std, run on GPU 0; and what the layer costs.
#
# Run on the GPU machine from the repository root, with the binaries built elsewhere and copied
# into .gpu/ (the last two optional; a step whose binary is missing is reported and fails):
#   from-rust-cuda  (cd examples/from-rust-cuda && cargo build --release; copy target/release/from-rust-cuda)
#   ptxsuite        (cargo build --release; copy target/release/ptxsuite)
#   gpu_cuda_std    (cargo test --release --no-run --test gpu_cuda_std prints its path; copy it)
# Steps, about a minute in all on an H100:
#   1. the example: vecadd, block_sum (shared_array!), warp_sum (warp shuffles), transpose
#      (index_2d), launched through cudarc in cust::launch! argument order, checked against the CPU;
#   2. ptxsuite run --only cuda-std --samples 5: the cuda_std vector add and block sum beside their
#      ptx-device twins (GB/s, the ratio; every output checked, the DRAM ceiling applied);
#   3. ptxsuite selftest: its cuda_std row must be ok (other rows failing are listed, and fail too);
#   4. the GPU tests of tests/gpu_cuda_std.rs.
# Logs and the report go to $OUT (default .gpu/out): cudastd-*.log, cudastd/ (the report),
# cudastd-summary.txt. Exit status: 0 when every step passed, 1 otherwise, 2 without the example binary.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-.gpu/out}
mkdir -p "$out"
summary="$out/cudastd-summary.txt"
: >"$summary"
failed=0

say() { echo "$*" | tee -a "$summary"; }
milliseconds_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/cudastd-gpu.txt"

# 1. The example project.
bin=.gpu/from-rust-cuda
if [ ! -x "$bin" ]; then
    say "cudastd example: FAIL - no executable $bin (see the header of $0)"
    exit 2
fi
start=$(date +%s%N)
"$bin" >"$out/cudastd-example.log" 2>&1
status=$?
ms=$(milliseconds_since "$start")
cat "$out/cudastd-example.log"
if [ "$status" -eq 0 ] && grep -qx 'OK' "$out/cudastd-example.log"; then
    say "cudastd example: OK - vecadd, block_sum, warp_sum and transpose (cuda_std style) match the CPU (${ms} ms)"
else
    say "cudastd example: FAIL - exit status $status: $(grep -m1 '^error' "$out/cudastd-example.log")"
    failed=1
fi

# 2. The cuda-std experiment.
if [ -x .gpu/ptxsuite ]; then
    start=$(date +%s%N)
    ./.gpu/ptxsuite run --only cuda-std --samples 5 --out "$out/cudastd" >"$out/cudastd-run.log" 2>&1
    status=$?
    ms=$(milliseconds_since "$start")
    echo
    echo "== ptxsuite run --only cuda-std (exit $status, ${ms} ms)"
    tail -n 5 "$out/cudastd-run.log"
    section=$(awk '/^## /{inside = /^## The cuda_std layer/} inside' "$out/cudastd/report.md" 2>/dev/null)
    echo "$section"
    if [ "$status" -eq 0 ] && [ -n "$section" ]; then
        say "cudastd run: OK - cuda-std measured and checked (${ms} ms; report in $out/cudastd)"
        # The table's rows and the ratio sentences, for the summary.
        echo "$section" | grep -E '^\| (vecadd|block_sum) \||^(vecadd|block_sum): ' | sed 's/^/    /' | tee -a "$summary"
    else
        say "cudastd run: FAIL - exit status $status: $(grep -m1 -iE 'error|failed' "$out/cudastd-run.log")"
        failed=1
    fi
else
    say "cudastd run: FAIL - no executable .gpu/ptxsuite (see the header of $0)"
    failed=1
fi

# 3. The selftest's cuda_std row.
if [ -x .gpu/ptxsuite ]; then
    start=$(date +%s%N)
    ./.gpu/ptxsuite selftest >"$out/cudastd-selftest.log" 2>&1
    status=$?
    ms=$(milliseconds_since "$start")
    echo
    echo "== ptxsuite selftest (exit $status, ${ms} ms)"
    row=$(grep -E '^cuda_std kernels' "$out/cudastd-selftest.log")
    others=$(grep -E '  FAILED  ' "$out/cudastd-selftest.log" | grep -v '^cuda_std kernels')
    echo "$row"
    grep -E '^selftest:' "$out/cudastd-selftest.log"
    if echo "$row" | grep -qE '  ok  '; then
        say "cudastd selftest: OK - $(echo "$row" | sed -E 's/ {2,}/ | /g')"
    else
        say "cudastd selftest: FAIL - ${row:-no cuda_std row in the table (see $out/cudastd-selftest.log)}"
        failed=1
    fi
    if [ -n "$others" ]; then
        say "cudastd selftest: FAIL - other rows failed:"
        echo "$others" | sed 's/^/    /' | tee -a "$summary"
        failed=1
    fi
else
    say "cudastd selftest: FAIL - no executable .gpu/ptxsuite"
    failed=1
fi

# 4. The GPU tests.
if [ -x .gpu/gpu_cuda_std ]; then
    start=$(date +%s%N)
    ./.gpu/gpu_cuda_std --test-threads=1 >"$out/cudastd-tests.log" 2>&1
    status=$?
    ms=$(milliseconds_since "$start")
    echo
    echo "== tests/gpu_cuda_std.rs (exit $status, ${ms} ms)"
    grep -E '^test |^cudastd: |^SKIPPED|^test result|panicked' "$out/cudastd-tests.log"
    if [ "$status" -eq 0 ] && ! grep -q '^SKIPPED' "$out/cudastd-tests.log"; then
        say "cudastd tests: OK - $(grep -m1 '^test result' "$out/cudastd-tests.log")"
        grep '^cudastd: ' "$out/cudastd-tests.log" | sed 's/^/    /' | tee -a "$summary"
    else
        say "cudastd tests: FAIL - exit status $status$(grep -q '^SKIPPED' "$out/cudastd-tests.log" && echo ', skipped: no GPU seen')"
        failed=1
    fi
else
    say "cudastd tests: not run - no .gpu/gpu_cuda_std (optional; see the header of $0)"
fi

echo
echo "== cudastd summary"
cat "$summary"
if [ "$failed" -eq 0 ]; then
    echo "cudastd: OK"
    exit 0
fi
echo "cudastd: FAIL"
exit 1
