#!/usr/bin/env bash
# GPU check of the instruction-throughput and math-accuracy families' runners
# (issue #26 item 2: instructions, math-functions, opencl-arithmetic and
# accuracy behind ThroughputRunner and MathAccuracyRunner; a refactor that must
# change no behaviour). Run on the GPU machine from the repository root with, in .gpu/:
#   ptxsuite                  this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main             the build before the change (main at 111bf27), built the same way
#   gpu_throughput_runners-*  optional: this build's test binary (`cargo test --release --no-run --test gpu_throughput_runners`)
#   gpu_execution_claims-*    optional: this build's test binary (`cargo test --release --no-run --test gpu_execution_claims`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 3 minutes on an H100:
#   1. experiment_bodies.sh with ONLY=instructions,math-functions,opencl-arithmetic,accuracy,
#      this build against main at quick settings; again with --impl rust (no CUDA C or
#      OpenCL C series, no waiver) and with --impl rust,opencl (OpenCL C series, CUDA C
#      and its -use_fast_math twins left out without a waiver).
#   2. `selftest` against main's: same rows, statuses, waivers.
#   3. gpu_throughput_runners (the runners and waivers per --impl set; every runner's
#      chains probed, timed and checked; the refusals; the accuracy runner within its
#      bounds) and gpu_execution_claims' throughput and function-value tests (the launchers).
# Writes $OUT/instr-runners/; prints "INSTR RUNNER GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/instr-runners-check}/instr-runners
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; exit 1; }
done

only=instructions,math-functions,opencl-arithmetic,accuracy
quick="--samples 3 --reps 3 --size-mib 64"
step=0
for extra in "" "--impl rust" "--impl rust,opencl"; do
    step=$((step + 1))
    echo "== 1.$step $only, this build against main: ${extra:-quick settings}"
    OUT="$out/bodies-$step" ONLY=$only RUN_ARGS="$quick $extra" bash gpu-checks/experiment_bodies.sh \
        >"$out/bodies-$step.log" 2>&1
    grep -E 'exit|series|SAME' "$out/bodies-$step.log"
    tail -n 1 "$out/bodies-$step.log" | grep -qx SAME || { tail -n 30 "$out/bodies-$step.log"; fail "1.$step differs from main"; }
    grep -h -E 'FAILED|failed' "$out/bodies-$step"/bodies-branch/report.md 2>/dev/null | head -5
done

echo "== 2. selftest against main's"
for side in ptxsuite ptxsuite-main; do
    timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
grep -E 'throughput|math_function_values' "$out/selftest-ptxsuite.log" | head -5
if diff "$out/selftest-ptxsuite-main.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME as main"
else
    cat "$out/selftest.diff"
    fail "selftest differs from main's (main <, this build >)"
fi

echo "== 3. the runners and launchers on the GPU"
for test in gpu_throughput_runners: gpu_execution_claims:gpu_throughput gpu_execution_claims:gpu_function_values; do
    name=${test%%:*} filter=${test#*:}
    binaries=(.gpu/"$name"-*)
    if [ ${#binaries[@]} -eq 0 ]; then
        echo "no .gpu/$name-* binary: $name not run"
        continue
    fi
    log="$out/$name${filter:+-$filter}.log"
    # shellcheck disable=SC2086
    "${binaries[0]}" --test-threads 1 $filter >"$log" 2>&1 || fail "$name $filter failed"
    grep -E '^(SKIPPED|test |test result)|panicked|gpu_throughput_runners:|not checked' "$log"
    grep -q '^SKIPPED' "$log" && fail "a $name test was skipped (no GPU?)"
done

if [ "$status" -eq 0 ]; then echo "INSTR RUNNER GPU CHECKS: PASS"; else echo "INSTR RUNNER GPU CHECKS: FAIL"; fi
exit "$status"
