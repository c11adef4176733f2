#!/usr/bin/env bash
# GPU check for the example user project examples/saxpy (branch crates): its
# kernels, written with ptx-device and built to PTX by ptx-builder, run on
# GPU 0 through cudarc and are checked against the CPU references.
#
# Run on the GPU machine from the repository root, with the binary built
# elsewhere (`cd examples/saxpy && cargo build --release`) and copied to
# .gpu/saxpy (from examples/saxpy/target/release/saxpy). Prints the binary's
# output, then one summary line; exits non-zero on failure.
set -uo pipefail
cd "$(dirname "$0")/.."

bin=.gpu/saxpy
if [ ! -x "$bin" ]; then
    echo "saxpy: FAIL - no executable $bin (cd examples/saxpy && cargo build --release; cp target/release/saxpy .gpu/)"
    exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

log=$(mktemp)
start=$(date +%s%N)
"$bin" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
milliseconds=$(( ($(date +%s%N) - start) / 1000000 ))

echo
echo "== saxpy summary"
if [ "$status" -eq 0 ] && grep -qx 'OK' "$log"; then
    echo "saxpy: OK - saxpy and block_sum match the CPU references on the GPU (${milliseconds} ms)"
    rm -f "$log"
    exit 0
fi
echo "saxpy: FAIL - exit status $status: $(grep -m1 '^error' "$log")"
rm -f "$log"
exit 1
