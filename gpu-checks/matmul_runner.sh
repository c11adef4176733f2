#!/usr/bin/env bash
# GPU check of the guide-multiply and compatibility-layer families' runners
# (issue #26 item 2: matmul behind GuideMultiplyRunner, cuda-std behind
# CompatLayerRunner; a refactor that must change no behaviour). Run on the GPU
# machine from the repository root with, in .gpu/:
#   ptxsuite                this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main           the build before the change, built the same way
#   gpu_matrix_multiply-*   optional: this build's test binary (`cargo test --release --no-run --test gpu_matrix_multiply`)
#   gpu_cuda_std-*          optional: likewise `--test gpu_cuda_std`
# Binaries may be gzipped (NAME.gz): they are unpacked first.
# Checks, about 2 minutes on an H100:
#   1. experiment_bodies.sh with ONLY=matmul,cuda-std, this build against main
#      at quick settings; again with --impl rust (the CUDA C twins and cuBLAS
#      waived the same way).
#   2. `selftest` against main's: same rows, statuses, waivers.
#   3. the runners' GPU tests: every launch of both tables and both layers
#      timed and checked against the CPU, the refusals.
# Writes $OUT/matmul-runner/; prints "MATMUL RUNNER GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/matmul-runner-check}/matmul-runner
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; exit 1; }
done

step=0
for args in "--samples 3 --reps 3 --size-mib 64" "--samples 3 --reps 3 --size-mib 64 --impl rust"; do
    step=$((step + 1))
    echo "== 1.$step matmul, cuda-std, this build against main: $args"
    OUT="$out/bodies-$step" ONLY=matmul,cuda-std RUN_ARGS="$args" bash gpu-checks/experiment_bodies.sh \
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
if diff "$out/selftest-ptxsuite-main.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME as main"
else
    cat "$out/selftest.diff"
    fail "selftest differs from main's (main <, this build >)"
fi

echo "== 3. the runners on the GPU"
for pair in "gpu_matrix_multiply:gpu_guide_multiply_runner" "gpu_cuda_std:gpu_compat_layer_runner"; do
    name=${pair%%:*} filter=${pair#*:}
    tests=(.gpu/"$name"-*)
    if [ ${#tests[@]} -eq 0 ]; then
        echo "no .gpu/$name-* binary: $filter not run"
        continue
    fi
    "${tests[0]}" --test-threads 1 "$filter" >"$out/$name.log" 2>&1 || fail "$name $filter failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/$name.log"
    grep -q '^SKIPPED' "$out/$name.log" && fail "$name $filter was skipped (no GPU?)"
done

if [ "$status" -eq 0 ]; then echo "MATMUL RUNNER GPU CHECKS: PASS"; else echo "MATMUL RUNNER GPU CHECKS: FAIL"; fi
exit "$status"
