#!/usr/bin/env bash
# GPU check for branch cudastd (issue 30): kernels written for Rust-CUDA's cuda_std, built by
# rustc's own nvptx target through ptxsuite's ptx-cuda-std, run on GPU 0.
#
# Run on the GPU machine from the repository root, with the binary built elsewhere and copied:
#   (cd examples/from-rust-cuda && cargo build --release) && cp examples/from-rust-cuda/target/release/from-rust-cuda .gpu/
# It runs the example (vecadd, block_sum with shared_array!, warp_sum with warp shuffles,
# transpose with index_2d; launched through cudarc in cust::launch! argument order; every
# result checked against the CPU) and writes its log and a summary to $OUT (default .gpu/out).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-.gpu/out}
mkdir -p "$out"

bin=.gpu/from-rust-cuda
if [ ! -x "$bin" ]; then
    echo "cudastd: FAIL - no executable $bin (see the header of $0)" | tee "$out/cudastd-summary.txt"
    exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/cudastd-gpu.txt"

start=$(date +%s%N)
"$bin" >"$out/cudastd-example.log" 2>&1
status=$?
milliseconds=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$out/cudastd-example.log"

echo
echo "== cudastd summary"
if [ "$status" -eq 0 ] && grep -qx 'OK' "$out/cudastd-example.log"; then
    echo "cudastd: OK - vecadd, block_sum, warp_sum and transpose (cuda_std style) match the CPU on the GPU (${milliseconds} ms)" \
        | tee "$out/cudastd-summary.txt"
    exit 0
fi
echo "cudastd: FAIL - exit status $status: $(grep -m1 '^error' "$out/cudastd-example.log")" | tee "$out/cudastd-summary.txt"
exit 1
