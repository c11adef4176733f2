#!/usr/bin/env bash
# GPU checks of the `execexp` branch: the execution-claims experiments
# (instructions, accuracy, divergence, loop-counters) at their default
# settings, their selftest rows, and the GPU tests of the experiments
# (tests/gpu_execution_experiments.rs, small settings) and of their kernels
# (tests/gpu_execution_claims.rs). Prints each experiment's status, the run's
# time, the ledger rows with their verdicts, and a one-line summary.
#
# Run on the GPU machine from the repository root, with in .gpu/:
#   * ptxsuite  (cargo build --release; copy target/release/ptxsuite)
#   * optionally gpu_execution_experiments and gpu_execution_claims
#     (cargo test --release --no-run --test <name> prints each path; copy it to .gpu/<name>)
# The report goes to $OUT/execexp (or ./execexp-report without $OUT).
# Exit status: 0 when every experiment is ok and every test passed.
set -uo pipefail
cd "$(dirname "$0")/.."

out_dir=${OUT:-.}/execexp
[ -n "${OUT:-}" ] || out_dir=./execexp-report
experiments=instructions,accuracy,divergence,loop-counters
status=0

if [ ! -x .gpu/ptxsuite ]; then
    echo "execexp: no .gpu/ptxsuite (see the header of $0)"
    exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

mkdir -p "$out_dir"
start=$(date +%s%N)
./.gpu/ptxsuite run --only "$experiments" --out "$out_dir" >"$out_dir/run.log" 2>&1
run_status=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
seconds="$((elapsed_ms / 1000)).$(printf %03d $((elapsed_ms % 1000)))"
[ $run_status -ne 0 ] && status=$run_status
echo "execexp: ptxsuite run --only $experiments: exit $run_status in ${seconds} s (report in $out_dir)"
if [ -f "$out_dir/report.json" ] && command -v python3 >/dev/null; then
    python3 - "$out_dir/report.json" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
mine = {"instructions", "accuracy", "divergence", "loop-counters"}
for e in report["experiments"]:
    if e["name"] not in mine:
        continue
    state = e["status"]["state"]
    reason = e["status"].get("reason", "")
    points = sum(len(s["points"]) for s in e["series"])
    failed = sum(1 for s in e["series"] for p in s["points"] if p["status"]["state"] == "failed")
    print(f"  {e['name']}: {state}{' (' + reason + ')' if reason else ''}; {len(e['series'])} series, {points} points, {failed} failed")
    for w in e.get("waived", []):
        print(f"    waived: {w['what']}: {w['reason']}")
    for line in e.get("setup", []):
        print(f"    setup: {line}")
# NVML's SM clock during each experiment, if recorded.
for device in (report.get("telemetry") or {}).get("devices", []):
    for t in device.get("experiments", []):
        if t["experiment"] in mine and t["summary"].get("sm_clock_mhz"):
            c = t["summary"]["sm_clock_mhz"]
            print(f"  NVML SM clock during {t['experiment']}: {c['min']:.0f}-{c['max']:.0f} MHz (median {c['median']:.0f})")
# A few headline figures: f32 FMA op/clk/SM and the occupancy sweep.
for e in report["experiments"]:
    if e["name"] != "instructions":
        continue
    for s in e["series"]:
        if s["key"]["kernel"] == "f32_fma_throughput" and s["key"]["implementation"] == "rust":
            for p in s["points"]:
                x = p.get("extra", {})
                if "op/clk/SM" in x:
                    print(f"  f32 FMA ({s['key'].get('variant') or 'table'}, point {p['at']}): {x['op/clk/SM']:.1f} op/clk/SM")
rows = [r for r in report.get("ledger", []) if r["experiment"] in mine]
for row in rows:
    print(f"  ledger {row['id']} [{row['verdict']}]: {row['measured']}")
print(f"  {len(rows)} ledger rows (8 expected)")
EOF
else
    tail -n 20 "$out_dir/run.log" 2>/dev/null | sed 's/^/  /'
fi

# The selftest rows of the execution-claims kernel families.
selftest=$(./.gpu/ptxsuite selftest 2>&1)
selftest_status=$?
echo "$selftest" | grep -E "^(instruction throughput kernels|math_function_values|divergence and predication|loop-counter kernels)" | sed 's/^/  selftest: /'
echo "$selftest" | grep -E "^selftest:" | sed 's/^/  /'
[ $selftest_status -ne 0 ] && status=$selftest_status

tests_line=""
for name in gpu_execution_experiments gpu_execution_claims; do
    binary=""
    for candidate in ".gpu/$name" .gpu/"$name"-*; do
        if [ -f "$candidate" ] && [ -x "$candidate" ] && [ "${candidate%.d}" = "$candidate" ]; then
            binary=$candidate
            break
        fi
    done
    if [ -z "$binary" ]; then
        tests_line="$tests_line $name: not copied;"
        continue
    fi
    output=$("$binary" --test-threads=1 2>&1)
    test_status=$?
    echo "$output" | grep -o -E "(execexp: |ACCURACY |SKIPPED |CUDA C twins skipped: ).*" | sed 's/^/  /'
    echo "$output" | grep -o -E "^---- [a-z0-9_]+ stdout ----" | sed -E 's/^---- (.*) stdout ----/  FAILED \1/'
    tests_line="$tests_line $name: $(echo "$output" | grep -o -E "test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed" | tail -n 1);"
    if echo "$output" | grep -q -E "SKIPPED "; then
        tests_line="$tests_line (some SKIPPED);"
        status=1
    fi
    [ $test_status -ne 0 ] && status=$test_status
done

echo "execexp summary: run exit $run_status in ${seconds} s; selftest exit $selftest_status;$tests_line overall exit $status"
exit $status
