#!/usr/bin/env bash
# GPU checks of the nvml branch: NVML facts in `ptxsuite info`, the telemetry
# of a short run (`run --only ceiling`) in report.md, `merge` on that report,
# and the NVML GPU tests (tests/gpu_nvml.rs). Prints a short summary; exits
# non-zero if a check fails.
#
# Run from the repository root on the GPU machine, with the binaries in .gpu/:
#   cargo build --release && cp target/release/ptxsuite .gpu/
#   cargo test --release --no-run --test gpu_nvml      (note the binary path it prints)
#   cp <that path> .gpu/gpu_nvml
# NVML is libnvidia-ml.so.1 (found on the loader path or in /usr/local/nvidia/lib64).
# Takes about 30 s on an H100 (the ceiling experiment and the kernel table of `info`).
set -uo pipefail
cd "$(dirname "$0")/.."

out=${OUT:-/tmp/ptxsuite-nvml-check}
mkdir -p "$out"
status=0
results=()

echo "== ./.gpu/ptxsuite info (NVML lines)"
info=$(./.gpu/ptxsuite info 2>&1)
info_status=$?
echo "$info" | grep -E "^(GPU |UUID|PCI bus id|NVML|PCIe link|NVLink|Clocks \(NVML|Power \(NVML|Temperature \(NVML|Clock event)" | sed 's/^/  /'
if [ $info_status -eq 0 ] && echo "$info" | grep -qE "^NVML " \
    && ! echo "$info" | grep -qE "^NVML +(not available|this GPU is not matched)"; then
    results+=("info: NVML facts printed")
else
    results+=("info: FAILED (exit $info_status, or no NVML line / NVML not available)")
    status=1
fi

echo "== ./.gpu/ptxsuite run --only ceiling --out $out/ceiling (telemetry lines of report.md)"
./.gpu/ptxsuite run --only ceiling --out "$out/ceiling" >"$out/ceiling.log" 2>&1
run_status=$?
tail -n 5 "$out/ceiling.log" | sed 's/^/  log: /'
if [ -f "$out/ceiling/report.md" ]; then
    grep -E "^\| (Telemetry|GPU[0-9 ]*: (links|during the run))|^\*Telemetry" "$out/ceiling/report.md" | sed 's/^/  /'
fi
if [ $run_status -eq 0 ] && grep -q "during the run (NVML" "$out/ceiling/report.md" 2>/dev/null \
    && grep -q '^\*Telemetry (NVML):\* GPU' "$out/ceiling/report.md"; then
    results+=("run: telemetry in report.md (header and the ceiling section)")
else
    results+=("run: FAILED (exit $run_status, or no telemetry lines in report.md)")
    status=1
fi

echo "== ./.gpu/ptxsuite merge (this report as two nodes, one renamed)"
mkdir -p "$out/node-b"
sed 's/"host": "[^"]*"/"host": "node-b-copy"/' "$out/ceiling/report.json" >"$out/node-b/report.json" 2>/dev/null
./.gpu/ptxsuite merge "$out/ceiling/report.json" "$out/node-b/report.json" --out "$out/merged" 2>&1 | sed 's/^/  /'
merge_status=${PIPESTATUS[0]}
if [ "$merge_status" -eq 0 ] && [ -f "$out/merged/merged.json" ] && [ -f "$out/merged/merged.md" ]; then
    results+=("merge: two identical nodes, none slow (exit 0), merged.json and merged.md written")
else
    results+=("merge: FAILED (exit $merge_status)")
    status=1
fi

echo "== NVML GPU tests"
binary=""
for candidate in .gpu/gpu_nvml .gpu/gpu_nvml-*; do
    if [ -f "$candidate" ] && [ -x "$candidate" ] && [ "${candidate%.d}" = "$candidate" ]; then
        binary=$candidate
        break
    fi
done
if [ -z "$binary" ]; then
    results+=("tests: NOT RUN (no .gpu/gpu_nvml; see the header of $0)")
    status=1
else
    output=$("$binary" --test-threads=1 --nocapture 2>&1)
    test_status=$?
    echo "$output" | grep -o -E "(NVML [A-Za-z0-9 /.,()]+:|SKIPPED ).*" | sed 's/^/  /'
    echo "$output" | grep -o -E "^---- [a-z0-9_]+ stdout ----" | sed -E 's/^---- (.*) stdout ----/  FAILED \1/'
    counts=$(echo "$output" | grep -o -E "test result: .*" | tail -n 1)
    skipped=$(echo "$output" | grep -c "SKIPPED gpu_")
    if [ $test_status -eq 0 ] && [ "$skipped" -eq 0 ]; then
        results+=("tests: ${counts}")
    else
        results+=("tests: FAILED or SKIPPED (${counts:-no result}; $skipped skipped)")
        status=1
    fi
fi

echo "== nvml summary"
printf '  %s\n' "${results[@]}"
if [ $status -eq 0 ]; then
    echo "NVML GPU CHECKS: PASS"
else
    echo "NVML GPU CHECKS: FAIL"
fi
exit $status
