#!/usr/bin/env bash
# GPU check of the texture family's runner (issue #26 item 2: texture-2d and
# its selftest row behind Texture2dRunner; a refactor that must change no
# behaviour). Run on the GPU machine from the repository root with, in .gpu/:
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   the build before the change, built the same way
#   gpu_copies-*    optional: this build's test binary (`cargo test --release --no-run --test gpu_copies`)
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 2 minutes on an H100:
#   1. experiment_bodies.sh with ONLY=texture-2d, this build against main at
#      quick settings; again with --impl rust (no CUDA C series, no waiver).
#   2. `selftest` against main's: same rows, statuses, waivers.
#   3. gpu_copies' texture test: the tile kernels through the runner, and the
#      runner's refusals (nothing loaded, a sampling without a texture).
# Writes $OUT/texture-runner/; prints "TEXTURE RUNNER GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/texture-runner-check}/texture-runner
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
    echo "== 1.$step texture-2d, this build against main: ${extra:-quick settings}"
    OUT="$out/bodies-$step" ONLY=texture-2d RUN_ARGS="$quick $extra" bash gpu-checks/experiment_bodies.sh \
        >"$out/bodies-$step.log" 2>&1
    grep -E 'exit|SAME' "$out/bodies-$step.log"
    tail -n 1 "$out/bodies-$step.log" | grep -qx SAME || { tail -n 20 "$out/bodies-$step.log"; fail "1.$step differs from main"; }
done

echo "== 2. selftest against main's"
for side in ptxsuite ptxsuite-main; do
    timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
grep -E 'texture_2d_tile_sample' "$out/selftest-ptxsuite.log"
if diff "$out/selftest-ptxsuite-main.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME as main"
else
    cat "$out/selftest.diff"
    fail "selftest differs from main's (main <, this build >)"
fi

echo "== 3. the texture runner on the GPU"
tests=(.gpu/gpu_copies-*)
if [ ${#tests[@]} -eq 0 ]; then
    echo "no .gpu/gpu_copies-* binary: step 3 not run"
else
    "${tests[0]}" --test-threads 1 texture_2d >"$out/gpu_copies.log" 2>&1 || fail "gpu_copies texture_2d failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/gpu_copies.log"
    grep -q '^SKIPPED' "$out/gpu_copies.log" && fail "the texture runner test was skipped (no GPU?)"
fi

if [ "$status" -eq 0 ]; then echo "TEXTURE RUNNER GPU CHECKS: PASS"; else echo "TEXTURE RUNNER GPU CHECKS: FAIL"; fi
exit "$status"
