#!/usr/bin/env bash
# GPU checks of the memclaims branch: runs the memory-claims GPU tests
# (tests/gpu_memory_claims.rs) on the GPU machine and prints a short summary.
#
# Run from the repository root, with the test binary copied into .gpu/, e.g.
#   cargo test --release --no-run --test gpu_memory_claims   (note the binary path it prints)
#   cp <that path> .gpu/gpu_memory_claims
# The CUDA C twins need NVRTC (libnvrtc) on the library path; without it the
# tests run the Rust kernels only and say so.
set -uo pipefail
cd "$(dirname "$0")/.."

binary=""
for candidate in .gpu/gpu_memory_claims .gpu/gpu_memory_claims-*; do
    if [ -f "$candidate" ] && [ -x "$candidate" ] && [ "${candidate%.d}" = "$candidate" ]; then
        binary=$candidate
        break
    fi
done
if [ -z "$binary" ]; then
    echo "memclaims: no test binary .gpu/gpu_memory_claims (see the header of $0)"
    exit 2
fi

output=$("$binary" --test-threads=1 2>&1)
status=$?

# The tests' notes (printed past the harness's capture, so they may share a line with
# "test ... ok"): measured figures, skips; then failures and the harness's counts.
echo "$output" | grep -o -E "(memclaims: |SKIPPED |CUDA C twins skipped: |spill check: ).*" | sed 's/^/  /'
echo "$output" | grep -o -E "^---- [a-z0-9_]+ stdout ----" | sed -E 's/^---- (.*) stdout ----/  FAILED \1/'
counts=$(echo "$output" | grep -o -E "test result: .*" | tail -n 1)
skipped=$(echo "$output" | grep -o -E "SKIPPED gpu_[a-z0-9_]+" | wc -l)
echo "memclaims summary: ${counts:-no test result (status $status)}; $skipped test(s) skipped for want of a GPU"
exit $status
