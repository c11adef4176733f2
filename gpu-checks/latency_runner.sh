#!/usr/bin/env bash
# GPU check of the latency family's runners (issue #26 item 2: latency and
# link-latency behind LatencyRunner and LinkChaseRunner; a refactor that must
# change no behaviour). Run on the GPU machine from the repository root with, in .gpu/:
#   ptxsuite              this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main         the build before the change, built the same way
#   gpu_memory_claims-*   optional: this build's test binary (`cargo test --release --no-run --test gpu_memory_claims`)
#   gpu_node-*            optional: this build's test binary (`cargo test --release --no-run --test gpu_node`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 3 minutes on an H100:
#   1. experiment_bodies.sh with ONLY=latency,link-latency, this build against
#      main at quick settings; again with --impl rust (no CUDA C series, no waiver).
#   2. `selftest` against main's: same rows, statuses, waivers.
#   3. gpu_memory_claims' latency tests: the chains through the launchers and
#      through the runners (every end against the reference, the refusals);
#      gpu_node's link-latency test (local, host and, with 2 GPUs, peer rings).
# Writes $OUT/latency-runner/; prints "LATENCY RUNNER GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/latency-runner-check}/latency-runner
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; exit 1; }
done

quick="--samples 3 --reps 3 --size-mib 64"
step=0
for extra in "" "--impl rust"; do
    step=$((step + 1))
    echo "== 1.$step latency, link-latency, this build against main: ${extra:-quick settings}"
    OUT="$out/bodies-$step" ONLY=latency,link-latency RUN_ARGS="$quick $extra" bash gpu-checks/experiment_bodies.sh \
        >"$out/bodies-$step.log" 2>&1
    grep -E 'exit|SAME' "$out/bodies-$step.log"
    tail -n 1 "$out/bodies-$step.log" | grep -qx SAME || { tail -n 20 "$out/bodies-$step.log"; fail "1.$step differs from main"; }
    grep -h -E 'FAILED|failed' "$out/bodies-$step"/bodies-branch/report.md 2>/dev/null | head -5
done

echo "== 2. selftest against main's"
for side in ptxsuite ptxsuite-main; do
    timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
grep -E 'pointer_chase|fma_latency' "$out/selftest-ptxsuite.log"
if diff "$out/selftest-ptxsuite-main.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME as main"
else
    cat "$out/selftest.diff"
    fail "selftest differs from main's (main <, this build >)"
fi

echo "== 3. the latency runners on the GPU"
for test in gpu_memory_claims:latency gpu_node:link_latency; do
    name=${test%%:*} filter=${test#*:}
    binaries=(.gpu/"$name"-*)
    if [ ${#binaries[@]} -eq 0 ]; then
        echo "no .gpu/$name-* binary: $name not run"
        continue
    fi
    "${binaries[0]}" --test-threads 1 "$filter" >"$out/$name.log" 2>&1 || fail "$name $filter failed"
    grep -E '^(SKIPPED|test |test result)|panicked|memclaims|link-latency' "$out/$name.log"
    grep -q '^SKIPPED' "$out/$name.log" && fail "a $name test was skipped (no GPU?)"
done

if [ "$status" -eq 0 ]; then echo "LATENCY RUNNER GPU CHECKS: PASS"; else echo "LATENCY RUNNER GPU CHECKS: FAIL"; fi
exit "$status"
