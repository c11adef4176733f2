#!/usr/bin/env bash
# GPU check of the runner-banks branch (issue #26 item 2: the bank-conflict
# family's runners; a refactor that must change no behaviour). Run on the GPU
# machine from the repository root with, in .gpu/:
#   ptxsuite               this branch's binary (cargo build --release --bin ptxsuite)
#   ptxsuite-main          main's at the branch point ef6afce, built the same way
#   gpu_bank_runners-*     this branch's test binary, as printed by
#                          `cargo test --no-run --test gpu_bank_runners`
# Checks, about 3 minutes on an H100:
#   1. bank-conflicts with both binaries at the quick settings
#      (gpu-checks/experiment_bodies.sh, ONLY=bank-conflicts): SAME.
#   2. the same with --counters (the runners' untimed launch under CUPTI;
#      without CUPTI both sides waive it alike): SAME.
#   3. `selftest` with both binaries: the tables, numbers masked, identical.
#   4. the runner tests on the GPU: the runners and waivers of each --impl
#      set, and a case timed by every runner with its spans and checksums.
# Writes $OUT/banks/; prints "BANK RUNNER GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/banks-check}/banks
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || fail "no $bin (see the header of $0)"
done

quick="--samples 3 --reps 3 --size-mib 64"
for pass in plain counters; do
    echo "== bank-conflicts, branch against main ($pass)"
    args=$quick; [ "$pass" = counters ] && args="$quick --counters"
    OUT="$out/$pass" ONLY=bank-conflicts RUN_ARGS="$args" bash gpu-checks/experiment_bodies.sh >"$out/$pass.log" 2>&1
    cat "$out/$pass.log"
    tail -n 1 "$out/$pass.log" | grep -qx SAME || fail "bank-conflicts ($pass) differs from main"
done

echo "== selftest, branch against main"
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

echo "== the runner tests on the GPU"
shopt -s nullglob
tests=(.gpu/gpu_bank_runners-*)
if [ ${#tests[@]} -eq 0 ]; then
    fail "no .gpu/gpu_bank_runners-* binary"
else
    "${tests[0]}" --test-threads 1 >"$out/gpu_bank_runners.log" 2>&1 || fail "gpu_bank_runners failed"
    grep -E '^(SKIPPED|gpu_bank_runners:|test |test result)|panicked' "$out/gpu_bank_runners.log"
    grep -q '^SKIPPED' "$out/gpu_bank_runners.log" && fail "the runner tests were skipped (no GPU?)"
fi

if [ "$status" -eq 0 ]; then echo "BANK RUNNER GPU CHECKS: PASS"; else echo "BANK RUNNER GPU CHECKS: FAIL"; fi
exit "$status"
