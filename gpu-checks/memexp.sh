#!/usr/bin/env bash
# GPU checks of the `memexp` branch: the five memory-claims experiments
# (bank-conflicts, constant-memory, local-memory, latency, occupancy) at their
# default settings, their selftest rows, and the GPU tests of the experiments
# (tests/gpu_memory_experiments.rs, small settings) and of their kernels
# (tests/gpu_memory_claims.rs). Prints each experiment's status and time, the
# ledger rows with their verdicts, and a one-line summary.
#
# Run on the GPU machine from the repository root, with in .gpu/:
#   * ptxsuite  (cargo build --release; copy target/release/ptxsuite)
#   * optionally gpu_memory_experiments and gpu_memory_claims
#     (cargo test --release --no-run --test <name> prints each path; copy it to .gpu/<name>)
# The report goes to $OUT/memexp (or ./memexp-report without $OUT).
# Exit status: 0 when every experiment is ok and every test passed.
set -uo pipefail
cd "$(dirname "$0")/.."

out_dir=${OUT:-.}/memexp
[ -n "${OUT:-}" ] || out_dir=./memexp-report
experiments=bank-conflicts,constant-memory,local-memory,latency,occupancy
status=0

if [ ! -x .gpu/ptxsuite ]; then
    echo "memexp: no .gpu/ptxsuite (see the header of $0)"
    exit 2
fi

mkdir -p "$out_dir"
start=$(date +%s)
./.gpu/ptxsuite run --only "$experiments" --out "$out_dir" >"$out_dir/run.log" 2>&1
run_status=$?
[ $run_status -ne 0 ] && status=$run_status
echo "memexp: ptxsuite run --only $experiments: exit $run_status in $(( $(date +%s) - start )) s (report in $out_dir)"
if [ -f "$out_dir/report.json" ] && command -v python3 >/dev/null; then
    python3 - "$out_dir/report.json" "$out_dir/report.md" <<'EOF'
import json, re, sys
report = json.load(open(sys.argv[1]))
for e in report["experiments"]:
    state = e["status"]["state"]
    reason = e["status"].get("reason", "")
    points = sum(len(s["points"]) for s in e["series"])
    failed = sum(1 for s in e["series"] for p in s["points"] if p["status"]["state"] == "failed")
    print(f"  {e['name']}: {state}{' (' + reason + ')' if reason else ''}; {len(e['series'])} series, {points} points, {failed} failed")
    for w in e.get("waived", []):
        print(f"    waived: {w['what']}: {w['reason']}")
mine = {"bank-conflicts", "constant-memory", "local-memory", "latency", "occupancy"}
rows = [r for r in report.get("ledger", []) if r["experiment"] in mine]
for row in rows:
    print(f"  ledger {row['id']} [{row['verdict']}]: {row['measured']}")
if not rows:
    # Reports that store no ledger: the rows as report.md shows them.
    for line in open(sys.argv[2]):
        if re.search(r"\(`(bank-conflicts|constant-memory|local-memory|latency|occupancy)`\) \| \*\*", line):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            print(f"  ledger [{cells[3].strip('*')}] {cells[0]}: {cells[2]}")
EOF
else
    tail -n 20 "$out_dir/run.log" 2>/dev/null | sed 's/^/  /'
fi

# The selftest rows of the memory-claims kernel families.
selftest=$(./.gpu/ptxsuite selftest 2>&1)
selftest_status=$?
echo "$selftest" | grep -E "^(shared-memory bank|constant-memory chases|local-memory arrays|latency chains|occupancy kernels)" | sed 's/^/  selftest: /'
echo "$selftest" | grep -E "^selftest:" | sed 's/^/  /'
[ $selftest_status -ne 0 ] && status=$selftest_status

tests_line=""
for name in gpu_memory_experiments gpu_memory_claims; do
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
    echo "$output" | grep -o -E "(memexp: |memclaims: |SKIPPED |CUDA C twins skipped: ).*" | sed 's/^/  /'
    echo "$output" | grep -o -E "^---- [a-z0-9_]+ stdout ----" | sed -E 's/^---- (.*) stdout ----/  FAILED \1/'
    tests_line="$tests_line $name: $(echo "$output" | grep -o -E "test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed" | tail -n 1);"
    [ $test_status -ne 0 ] && status=$test_status
done

echo "memexp summary: run exit $run_status; selftest exit $selftest_status;$tests_line overall exit $status"
exit $status
