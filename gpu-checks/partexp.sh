#!/usr/bin/env bash
# GPU checks of the `partexp` branch: the `particles` experiment (block-shape
# table on 256x256 and 4096x4096 particles, the checkpoint run, the pictures,
# the CUDA-OpenGL interop frames) and the selftest's particle rows.
#
# Run on the GPU machine from the repository root, with
#   * the release binary in .gpu/ptxsuite (cargo build --release; copy target/release/ptxsuite);
#   * optionally the test binary .gpu/gpu_particles (`cargo test --release --no-run --test gpu_particles`
#     prints its path), run through gpu-checks/particles.sh;
#   * the GL loaders as Debian packages in .gl/ (carried with the run; gpu-checks/gl_loaders.sh
#     unpacks them and says how to fetch them);
# The report goes to $OUT/partexp-report.tar.gz when $OUT is set (one file: the
# run tool brings back at most 8), else it stays in /tmp/partexp-report.
# Exit status: ptxsuite's (1 when a point failed its check); 3 when the interop
# part was waived (no EGL, or no EGL device for the CUDA device), so that is not missed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# shellcheck source=gpu-checks/gl_loaders.sh
. gpu-checks/gl_loaders.sh
unpack_gl_loaders partexp

binary=.gpu/ptxsuite
if [ ! -x "$binary" ]; then
    echo "partexp: no $binary (see the header of $0)"
    exit 2
fi

report=/tmp/partexp-report
rm -rf "$report"
start=$(date +%s)
run_output=$("$binary" run --only particles --out "$report" 2>&1)
status=$?
elapsed=$(( $(date +%s) - start ))
echo "partexp: ptxsuite run --only particles: exit $status in ${elapsed} s"
md="$report/report.md"
if [ ! -f "$md" ]; then
    echo "$run_output" | tail -n 20 | sed 's/^/  /'
    echo "partexp summary: no report written (exit $status)"
    exit $(( status == 0 ? 1 : status ))
fi
# The particles section of report.md.
section=$(awk '/^## Particle systems/{on=1; print; next} on && /^## /{on=0} on' "$md")
echo "$section" | grep -E '^\*\*(FAILED|Waived|Not run[^*]*):\*\*' | sed 's/^/  /'
echo "$section" | grep -E '^\*\*(Then vs now|[0-9]+×[0-9]+ particles|The interop frame)\.\*\*' | sed 's/^/  /'
echo "$section" | grep -E '^\*Waived:\*' | sed 's/^/  /'
echo "$section" | grep -E '^\*\*FAILED\*\* ' | head -n 10 | sed 's/^/  /'
grep -E '^\| Lecture notes' "$md" | sed -E 's/^\| [^|]+\| ([^|]+)\| ([^|]+)\|.*\*\*([a-z]+)\*\*.*/  ledger: \3: \1—\2/'
pictures=$(cd "$report" && ls particles-*.png 2>/dev/null)
for p in $pictures; do
    echo "  picture: $p ($(( $(stat -c %s "$report/$p") / 1024 )) KB)"
done

selftest=$("$binary" selftest 2>&1)
echo "$selftest" | grep -E '^particles: ' | sed 's/^/  selftest: /'
if echo "$selftest" | grep -E '^particles: ' | grep -q FAILED && [ $status -eq 0 ]; then
    status=1
fi

# The GPU tests of tests/gpu_particles.rs, when their binary was copied too (gpu-checks/particles.sh runs them).
tests=none
if compgen -G ".gpu/gpu_particles*" >/dev/null; then
    tests_output=$(gpu-checks/particles.sh 2>&1)
    tests_status=$?
    echo "$tests_output" | grep -E "particles summary|FAILED|SKIPPED" | sed 's/^/  tests: /'
    tests="exit $tests_status"
    if [ $tests_status -ne 0 ] && [ $tests_status -ne 3 ] && [ $status -eq 0 ]; then
        status=$tests_status
    fi
fi

failed_points=$(echo "$section" | grep -c -E '^\*\*FAILED\*\* ')
interop=ran
if echo "$section" | grep -q '^\*Waived:\* CUDA–OpenGL interop'; then
    interop=waived
fi
selftest_ok=$(echo "$selftest" | grep -E '^particles: ' | grep -c -E '  ok  ')
n_pictures=$(echo "$pictures" | grep -c . )
state=$(echo "$section" | grep -o -E '^\*\*(FAILED|Waived|Not run[^*]*):\*\*' | head -n 1 | tr -d '*:')
echo "partexp summary: particles ${state:-ok}, $failed_points FAILED point(s), $n_pictures picture(s), interop $interop; selftest particle rows: $selftest_ok of 2 ok; gpu_particles tests: $tests"

if [ -n "${OUT:-}" ]; then
    tar -czf "$OUT/partexp-report.tar.gz" -C /tmp partexp-report
fi
if [ $status -eq 0 ] && [ "$interop" = waived ]; then
    exit 3
fi
exit $status
