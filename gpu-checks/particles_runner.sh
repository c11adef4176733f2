#!/usr/bin/env bash
# GPU check of the particle family's runner (issue #26 item 2: particles and
# particle-tuning behind ParticleRunner; a refactor that must change no
# behaviour). Run on the GPU machine from the repository root with, in .gpu/:
#   ptxsuite              this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main         the build before the change, built the same way
#   gpu_particles-*       optional: this build's test binary (`cargo test --release --no-run --test gpu_particles`)
# Binaries may be gzipped (NAME.gz): they are unpacked first. The GL loaders as
# Debian packages in .gl/ (see gpu-checks/partexp.sh for the download), so that
# the CUDA–OpenGL interop frames run instead of being waived on both sides.
# Checks, about 3 minutes on an H100:
#   1. experiment_bodies.sh with ONLY=particles,particle-tuning, this build
#      against main at quick settings (series, points, extra figures, setup,
#      notes, waivers), and the same pictures written on both sides.
#   2. `selftest` against main's: same rows, statuses, waivers (the particle
#      rows include the interop round trip).
#   3. the GPU tests of tests/gpu_particles.rs, the runner's among them.
# Writes $OUT/particles-runner/; prints "PARTICLES RUNNER GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.."
if compgen -G ".gl/*.deb" >/dev/null; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
else
    echo "particles-runner: no .gl/*.deb to unpack; using whatever EGL/GL loaders the machine has"
fi
# glvnd looks for vendor files in /usr/share and /etc; NVIDIA's is elsewhere in these containers.
nvidia_json=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -f "$nvidia_json" ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_json
fi
if [ -d /usr/local/nvidia/lib64 ]; then
    export LD_LIBRARY_PATH=/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/particles-runner-check}/particles-runner
mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done
for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
    [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; exit 1; }
done

echo "== 1. particles, particle-tuning, this build against main"
OUT="$out/bodies" ONLY=particles,particle-tuning RUN_ARGS="--samples 3 --reps 3" bash gpu-checks/experiment_bodies.sh \
    >"$out/bodies.log" 2>&1
grep -E 'exit|SAME' "$out/bodies.log"
tail -n 1 "$out/bodies.log" | grep -qx SAME || { tail -n 30 "$out/bodies.log"; fail "1. differs from main"; }
for side in branch main; do
    (cd "$out/bodies/bodies-$side" 2>/dev/null && ls particles-*.png 2>/dev/null) >"$out/pictures-$side.txt"
done
echo "pictures (this build): $(tr '\n' ' ' <"$out/pictures-branch.txt")"
cmp -s "$out/pictures-branch.txt" "$out/pictures-main.txt" || fail "1. the pictures written differ from main's"
grep -q 'particles-gl-' "$out/pictures-branch.txt" || echo "note: no OpenGL picture (interop waived on this machine)"

echo "== 2. selftest against main's"
for side in ptxsuite ptxsuite-main; do
    timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
    echo "$side: exit $?"
    grep -E '^particles: ' "$out/selftest-$side.log" | sed "s/^/  $side: /"
    sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
done
if diff "$out/selftest-ptxsuite-main.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest.diff"; then
    echo "SELFTEST SAME as main"
else
    cat "$out/selftest.diff"
    fail "selftest differs from main's (main <, this build >)"
fi

echo "== 3. tests/gpu_particles.rs on the GPU"
tests=(.gpu/gpu_particles-*)
if [ ${#tests[@]} -eq 0 ]; then
    echo "no .gpu/gpu_particles-* binary: not run"
else
    "${tests[0]}" --test-threads 1 >"$out/gpu_particles.log" 2>&1 || fail "gpu_particles failed"
    grep -E '^(SKIPPED|test |test result)|panicked' "$out/gpu_particles.log"
    grep -q '^SKIPPED gpu_the_particle_runner' "$out/gpu_particles.log" && fail "the runner's test was skipped (no GPU?)"
fi

if [ "$status" -eq 0 ]; then echo "PARTICLES RUNNER GPU CHECKS: PASS"; else echo "PARTICLES RUNNER GPU CHECKS: FAIL"; fi
exit "$status"
