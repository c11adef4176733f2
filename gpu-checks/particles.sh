#!/usr/bin/env bash
# GPU checks of the `particles` branch: the particle kernels (Rust and CUDA C
# twins) against the CPU step, and the CUDA-OpenGL interop loop on the GPU's
# own EGL device (tests/gpu_particles.rs). Prints the notes the tests make (GL
# renderer, frame times, skips) and a one-line summary.
#
# Run on the GPU machine from the repository root, with
#   * the test binary in .gpu/: `cargo test --release --no-run --test gpu_particles`
#     prints its path; copy it to .gpu/gpu_particles;
#   * optionally .gpu/ptx_particles (same for --test ptx_particles: the twins' PTX
#     rounding check, which needs NVRTC);
#   * the GL loaders as Debian packages in .gl/ (carried with the run; gpu-checks/gl_loaders.sh
#     unpacks them and says how to fetch them);
# Exit status: the tests' (non-zero on a failure); 3 when the interop tests were
# skipped (no EGL, or no EGL device for the CUDA device), so that is not missed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# shellcheck source=gpu-checks/gl_loaders.sh
. gpu-checks/gl_loaders.sh
unpack_gl_loaders particles

find_binary() {
    local candidate
    for candidate in ".gpu/$1" .gpu/"$1"-*; do
        if [ -f "$candidate" ] && [ -x "$candidate" ] && [ "${candidate%.d}" = "$candidate" ]; then
            echo "$candidate"
            return
        fi
    done
}

binary=$(find_binary gpu_particles)
if [ -z "$binary" ]; then
    echo "particles: no test binary .gpu/gpu_particles (see the header of $0)"
    exit 2
fi

output=$("$binary" --test-threads=1 2>&1)
status=$?
ptx_binary=$(find_binary ptx_particles)
if [ -n "$ptx_binary" ]; then
    ptx_output=$("$ptx_binary" 2>&1)
    ptx_status=$?
    output="$output"$'\n'"$ptx_output"
    [ $ptx_status -ne 0 ] && status=$ptx_status
fi

# The tests' notes are printed past the harness's capture, so they may share a line with "test ... ok".
echo "$output" | grep -o -E "(SKIPPED |CUDA C twins skipped: |gpu_interop_[a-z_]+: ).*" | sed 's/^/  /'
echo "$output" | grep -o -E "^---- [a-z0-9_]+ stdout ----" | sed -E 's/^---- (.*) stdout ----/  FAILED \1/'
echo "$output" | grep -E -A3 "panicked at" | sed 's/^/    /' | head -n 40
counts=$(echo "$output" | grep -o -E "test result: .*" | head -n 1)
skipped=$(echo "$output" | grep -o -E "SKIPPED gpu_[a-z0-9_]+" | wc -l)
echo "particles summary: ${counts:-no test result (status $status)}; $skipped GPU test(s) skipped"
if [ $status -eq 0 ] && echo "$output" | grep -q "SKIPPED gpu_interop_"; then
    echo "particles: the interop tests were skipped (reasons above)"
    exit 3
fi
exit $status
