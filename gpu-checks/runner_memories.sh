#!/usr/bin/env bash
# GPU check of the runner-memories branch (issue #26 item 2: the constant-
# and local-memory families' runners; a refactor that must change no
# behaviour). Run on the GPU machine from the repository root with, in .gpu/:
#   ptxsuite        this branch's binary (cargo build --release --bin ptxsuite)
#   ptxsuite-main   main's at the branch point, built the same way
# Checks, about 3 minutes on an H100:
#   1. gpu-checks/experiment_bodies.sh on constant-memory, local-memory and
#      latency (whose per-launch outputs, LaunchOutputs, moved to the launchers):
#      same series, points, extra figures, notes and waivers as main.
#   2. the same on local-memory with --counters (its counters pass now goes
#      through the runner's launch).
#   3. `selftest` with both binaries, numbers masked: the same rows.
# Writes $OUT/memories-*/; prints "RUNNER-MEMORIES GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/memories-check}
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; exit 1; }
done

echo "== 1. constant-memory, local-memory, latency: branch against main"
OUT="$out/memories-bodies" ONLY=constant-memory,local-memory,latency bash gpu-checks/experiment_bodies.sh \
    | tee "$out/memories-bodies.txt"
tail -n 1 "$out/memories-bodies.txt" | grep -qx SAME || fail "the experiments differ from main's (step 1)"

echo "== 2. local-memory with --counters"
OUT="$out/memories-counters" ONLY=local-memory RUN_ARGS="--samples 3 --reps 3 --size-mib 64 --counters" \
    bash gpu-checks/experiment_bodies.sh | tee "$out/memories-counters.txt"
tail -n 1 "$out/memories-counters.txt" | grep -qx SAME || fail "local-memory --counters differs from main's (step 2)"

echo "== 3. selftest, branch against main"
mkdir -p "$out/memories-selftest"
for side in branch main; do
    bin=./.gpu/ptxsuite; [ "$side" = main ] && bin=./.gpu/ptxsuite-main
    timeout -s INT -k 10 150 "$bin" selftest >"$out/memories-selftest/$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/memories-selftest/$side.log" >"$out/memories-selftest/$side.masked"
done
if diff "$out/memories-selftest/main.masked" "$out/memories-selftest/branch.masked"; then
    echo "SELFTEST SAME"
else
    fail "selftest tables differ (main <, branch >)"
fi

[ "$status" = 0 ] && echo "RUNNER-MEMORIES GPU CHECKS: PASS" || echo "RUNNER-MEMORIES GPU CHECKS: FAIL"
exit "$status"
