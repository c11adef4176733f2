#!/usr/bin/env bash
# GPU check of the mapped-memory family behind its runner (issue #26 item 2:
# mapped-reuse, mapped-stride, zero-copy and transfer-intensity ask
# host/launchers/mapped_host/'s MappedRunner). A refactor that must change no
# behaviour. Run on the GPU machine from the repository root with, in .gpu/:
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   the build before the change, built the same way
#   gpu_mapped_runners-*   optional: this build's test binary
#                   (`cargo test --release --no-run --test gpu_mapped_runners`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 2 minutes on an H100:
#   1. experiment_bodies.sh on the four experiments at its quick settings
#      (--size-mib 64: mapped-reuse's 64 MiB point, zero-copy to 64 MiB).
#   2. again with --impl rust --size-mib 256 (mapped-stride without the CUDA C
#      series and without a waiver; mapped-reuse's 256 MiB point).
#   3. gpu_mapped_runners: every step of the runner checked on the GPU.
# Writes $OUT/mapped/; prints "MAPPED GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/mapped-check}/mapped
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
only=zero-copy,mapped-stride,mapped-reuse,transfer-intensity

echo "== 1. this build against main, quick settings"
OUT="$out/quick" ONLY=$only bash gpu-checks/experiment_bodies.sh | tail -n 8
tail -n 1 "$out/quick/compare.txt" | grep -qx SAME || fail "the quick run differs from main"

echo "== 2. --impl rust --size-mib 256"
OUT="$out/rust256" ONLY=$only RUN_ARGS="--samples 3 --reps 3 --size-mib 256 --impl rust" \
    bash gpu-checks/experiment_bodies.sh | tail -n 8
tail -n 1 "$out/rust256/compare.txt" | grep -qx SAME || fail "the --impl rust run differs from main"

echo "== 3. the mapped runner on the GPU"
tests=(.gpu/gpu_mapped_runners-*)
if [ ${#tests[@]} -eq 0 ]; then
    echo "(no .gpu/gpu_mapped_runners-* binary: skipped)"
else
    export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    "${tests[0]}" --test-threads 1 >"$out/gpu_mapped_runners.log" 2>&1 || fail "gpu_mapped_runners failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/gpu_mapped_runners.log"
    grep -q '^SKIPPED' "$out/gpu_mapped_runners.log" && fail "the runner tests were skipped (no GPU?)"
fi

if [ $status -eq 0 ]; then echo "MAPPED GPU CHECKS: PASS"; else echo "MAPPED GPU CHECKS: FAIL"; fi
exit $status
