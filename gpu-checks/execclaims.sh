#!/usr/bin/env bash
# GPU checks for the execution-claims kernels (branch execclaims): instruction
# throughput, accuracy of the fast approximations and the accurate sine/exp,
# divergence/predication and loop counters, Rust and CUDA C twins.
#
# Run on the GPU machine from the repository root, with the test binary built
# elsewhere (`cargo test --no-run --test gpu_execution_claims`) and copied into
# .gpu/ under cargo's name (gpu_execution_claims-<hash>). Prints every test's
# output, then a summary; exits non-zero if a test failed or was skipped.
set -uo pipefail
cd "$(dirname "$0")/.."

bin=$(find .gpu -maxdepth 1 -type f -name 'gpu_execution_claims-*' ! -name '*.d' -perm -u+x 2>/dev/null | head -n 1)
if [ -z "$bin" ]; then
    echo "execclaims: FAIL - no executable .gpu/gpu_execution_claims-* (build it with cargo test --no-run --test gpu_execution_claims)"
    exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

log=$(mktemp)
"$bin" --test-threads=1 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

echo
echo "== execclaims summary ($bin)"
# The harness prints "test <name> ... " before a test's own stderr lines, so
# match the markers anywhere in a line.
grep -oE 'ACCURACY .*' "$log" | sort
grep -oE '(SKIPPED|CUDA C twins skipped).*' "$log" | sort -u
grep -E '^test result' "$log"
accuracy=$(grep -oE 'ACCURACY .*' "$log" | wc -l)
skipped=$(grep -oE 'SKIPPED .*' "$log" | wc -l)
twins=$(grep -oE 'ACCURACY CUDA C .*' "$log" | wc -l)
rm -f "$log"
if [ "$status" -eq 0 ] && [ "$skipped" -eq 0 ]; then
    echo "execclaims: OK - all GPU tests passed; $accuracy ACCURACY lines ($twins from the CUDA C twins)"
    exit 0
fi
echo "execclaims: FAIL - exit status $status, $skipped test(s) skipped"
exit 1
