#!/usr/bin/env bash
# GPU checks of the `opencl` branch. Run on the GPU machine from the repository
# root, with the test binaries copied into .gpu/ (cargo's deps/opencl_kernels-<hash>
# and deps/opencl_logic-<hash>, e.g. from `cargo test --no-run --test opencl_kernels
# --test opencl_logic`). Runs the OpenCL twin tests on NVIDIA's OpenCL device (and
# PoCL's CPU device where installed) and prints a short summary; exits non-zero
# when a test fails or NVIDIA's OpenCL device was not tested.
set -uo pipefail
cd "$(dirname "$0")/.."

# NVIDIA's driver is often not registered with the ICD loader in containers
# (/etc/OpenCL/vendors has only pocl.icd although libnvidia-opencl.so.1 is there).
# Debian's loader (ocl-icd) ignores OCL_ICD_FILENAMES but reads OCL_ICD_VENDORS,
# a directory of .icd files, as the Khronos loader also does: write one with
# NVIDIA's entry beside the registered ones (what opencl::register_vendor_libraries
# does in the ptxsuite binary).
nvidia_library() {
    local candidate dir
    for candidate in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 ${LD_LIBRARY_PATH//:/ }; do
        [ -e "$candidate/libnvidia-opencl.so.1" ] && { echo "$candidate/libnvidia-opencl.so.1"; return; }
    done
    ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ { print $NF; exit }'
}
if [ -z "${OCL_ICD_VENDORS:-}" ] && [ -z "${OCL_ICD_FILENAMES:-}" ] \
    && ! grep -qs libnvidia-opencl /etc/OpenCL/vendors/*.icd; then
    library=$(nvidia_library)
    if [ -n "$library" ]; then
        vendors=$(mktemp -d)
        cp /etc/OpenCL/vendors/*.icd "$vendors"/ 2>/dev/null
        echo "$library" >"$vendors/ptxsuite-nvidia.icd"
        export OCL_ICD_VENDORS="$vendors"
        echo "registered $library through OCL_ICD_VENDORS=$vendors (/etc/OpenCL/vendors does not name it)"
    else
        echo "libnvidia-opencl.so.1 not found: NVIDIA's OpenCL device will be missing"
    fi
fi

echo "== clinfo -l"
if command -v clinfo >/dev/null; then
    clinfo -l
else
    echo "(clinfo not installed: apt-get install -y clinfo)"
fi

status=0
summary=()
nvidia_tested=""
shopt -s nullglob
binaries=(.gpu/opencl_kernels-* .gpu/opencl_logic-*)
if [ ${#binaries[@]} -eq 0 ]; then
    echo "no .gpu/opencl_kernels-* or .gpu/opencl_logic-* binaries: copy the test binaries into .gpu/ first"
    exit 1
fi
for binary in "${binaries[@]}"; do
    [ -x "$binary" ] || continue
    case "$binary" in *.d) continue ;; esac
    echo "== $binary"
    log=$(mktemp)
    "$binary" 2>&1 | tee "$log"
    result=${PIPESTATUS[0]}
    counts=$(grep -o '[0-9]* passed; [0-9]* failed' "$log" | tail -n 1)
    if [ "$result" -eq 0 ]; then
        summary+=("$(basename "$binary"): ok (${counts:-no result line})")
    else
        summary+=("$(basename "$binary"): FAILED (exit $result; ${counts:-no result line})")
        status=1
    fi
    device=$(grep -m1 '^OPENCL DEVICE: .*NVIDIA' "$log" | sed 's/^OPENCL DEVICE: //')
    [ -n "$device" ] && nvidia_tested="$device"
    grep '^OPENCL BUILD LOG' "$log"
    grep '^SKIPPED' "$log" | sed 's/^/  /'
    rm -f "$log"
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ -n "$nvidia_tested" ]; then
    echo "NVIDIA OpenCL device tested: $nvidia_tested"
else
    echo "NVIDIA OpenCL device tested: NO (only the devices listed above)"
    status=1
fi
if [ "$status" -eq 0 ]; then
    echo "OPENCL GPU CHECKS: PASS"
else
    echo "OPENCL GPU CHECKS: FAIL"
fi
exit "$status"
