#!/usr/bin/env bash
# GPU checks of the `sass` branch: the experiments whose claims are about
# instructions (instructions, loop-counters, divergence) with the SASS
# evidence of the toolkit's ptxas and nvdisasm, then one short run with the
# tools hidden (the SASS must be waived with the reason and the run still
# succeed), and, if copied, the SASS test binary against the toolkit.
# Prints the tools and architecture the report names, each kernel's SASS
# figures beside op/clk/SM (flagging any rate above its SASS ceiling), the
# loop counters' and branch kernels' SASS and PTX counts, and the ledger rows.
#
# Run on the GPU machine from the repository root, with in .gpu/:
#   * ptxsuite  (cargo build --release; copy target/release/ptxsuite)
#   * optionally sass_checks (cargo test --release --no-run --test sass_checks prints its path)
# Needs the CUDA toolkit at /usr/local/cuda (ptxas, nvdisasm; NVRTC for the CUDA C twins).
# Reports go to $OUT/sass and $OUT/sass-waived (./sass-report without $OUT). About 1-2 minutes.
# Exit status: 0 when both runs succeed, the first has SASS and the second waives it.
set -uo pipefail
cd "$(dirname "$0")/.."

base=${OUT:-./sass-report}
status=0
if [ ! -x .gpu/ptxsuite ]; then
    echo "sass: no .gpu/ptxsuite (see the header of $0)"
    exit 2
fi
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for tool in ptxas nvdisasm cuobjdump; do
    path=$(command -v $tool || ls /usr/local/cuda/bin/$tool 2>/dev/null)
    echo "sass: $tool: ${path:-absent} $([ -n "$path" ] && "$path" --version | tail -n 1)"
done

summarize() {
    python3 - "$1/report.json" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
mine = {"instructions", "loop-counters", "divergence"}
def f(x, d=2):
    return "—" if x is None else f"{x:.{d}f}"
for e in report["experiments"]:
    if e["name"] not in mine:
        continue
    reason = e["status"].get("reason", "")
    print(f"  {e['name']}: {e['status']['state']}{' (' + reason + ')' if reason else ''}")
    for line in e.get("setup", []):
        if "SASS" in line:
            print(f"    setup: {line}")
    for w in e.get("waived", []):
        print(f"    waived: {w['what']}: {w['reason']}")
    small = lambda s: next((p for p in s["points"] if p["at"] == 0), s["points"][0] if s["points"] else None)
    if e["name"] == "instructions":
        print("    kernel · impl: op/clk/SM (% published) | SASS per op | SASS inst/clk/SM | SASS ceiling | by class")
        above = 0
        for s in e["series"]:
            if s["key"].get("variant"):
                continue
            p = small(s)
            if not p:
                continue
            x = p.get("extra", {})
            rate, ceiling = x.get("op/clk/SM"), x.get("op/clk/SM ceiling from the SASS loop")
            flag = ""
            if rate and ceiling and rate > 1.03 * ceiling:
                flag = "  << ABOVE THE SASS CEILING"
                above += 1
            classes = ", ".join(f"{k[5:-14]} {v:.2f}" for k, v in sorted(x.items())
                                if k.startswith("SASS ") and k.endswith(" per operation") and k != "SASS instructions per operation")
            print(f"    {s['key']['kernel']} · {s['key']['implementation']}: {f(rate, 1)} ({f(x.get('% of published'), 0)}%)"
                  f" | {f(x.get('SASS instructions per operation'))} | {f(x.get('SASS inst/clk/SM'), 1)}"
                  f" | {f(ceiling, 1)} | {classes}{flag}")
        print(f"    {above} rates above their SASS ceiling (+3%)")
        for note in e.get("notes", []):
            if note.startswith(("i32_add", "u32_shift", "u32_mask", "f64_promoted", "f32_literal")) or "no SASS" in note:
                print(f"    note: {note}")
    if e["name"] == "loop-counters":
        for s in e["series"]:
            p = small(s)
            x = (p or {}).get("extra", {})
            t = (p or {}).get("time_ms") or {}
            print(f"    {s['key']['kernel']} · {s['key']['implementation']}: {f(t.get('median'), 3)} ms; per element SASS "
                  f"{f(x.get('SASS instructions per element'))}, PTX {f(x.get('PTX instructions per element'))}")
        for note in e.get("notes", []):
            if "SASS" in note:
                print(f"    note: {note}")
    if e["name"] == "divergence":
        for s in e["series"]:
            if "branch" not in s["key"]["kernel"]:
                continue
            x = (small(s) or {}).get("extra", {})
            get = lambda k: f(x.get(k), 0)
            print(f"    {s['key']['kernel']} · {s['key']['implementation']}: SASS predicated {get('SASS predicated instructions in the loop (not branches)')}, "
                  f"selects {get('SASS selects (SEL, FSEL) in the loop')}, side branches {get('SASS branches in the loop besides its back edge')}, "
                  f"BSSY/BSYNC {get('SASS convergence barriers in the loop (BSSY, BSYNC, WARPSYNC, BREAK)')}, "
                  f"{get('SASS instructions in the loop')} instructions; PTX selp {get('PTX selp in the loop')}, "
                  f"side branches {get('PTX branches in the loop besides its back edge')}")
for row in report.get("ledger", []):
    if row["experiment"] in mine:
        print(f"  ledger {row['id']} [{row['verdict']}]: {row['measured']}")
EOF
}

out="$base/sass"
mkdir -p "$out"
start=$(date +%s)
./.gpu/ptxsuite run --only instructions,loop-counters,divergence --samples 5 --out "$out" >"$out/run.log" 2>&1
run_status=$?
echo "sass: run with the toolkit: exit $run_status in $(( $(date +%s) - start )) s (report in $out)"
[ $run_status -ne 0 ] && { status=1; tail -n 20 "$out/run.log" | sed 's/^/  /'; }
if [ -f "$out/report.json" ]; then
    summarize "$out"
    grep -q '"SASS for sm_' "$out/report.json" || { echo "sass: FAIL: the run recorded no SASS"; status=1; }
fi

# The tools hidden: SASS waived with the reason, the PTX standing in, the run still ok.
out="$base/sass-waived"
mkdir -p "$out"
PTXAS=/nonexistent/ptxas ./.gpu/ptxsuite run --only loop-counters,divergence --samples 3 --out "$out" >"$out/run.log" 2>&1
run_status=$?
echo "sass: run with PTXAS=/nonexistent/ptxas: exit $run_status (report in $out)"
[ $run_status -ne 0 ] && status=1
if [ -f "$out/report.json" ]; then
    python3 - "$out/report.json" <<'EOF' || status=1
import json, sys
report = json.load(open(sys.argv[1]))
waivers = [w for e in report["experiments"] for w in e.get("waived", []) if w["what"].startswith("SASS")]
for w in waivers:
    print(f"  waived: {w['what']}: {w['reason']}")
for row in report.get("ledger", []):
    if row["id"] in ("bpg-6.2-predication", "bpg-6.3-signed-counter-instructions"):
        print(f"  ledger {row['id']} [{row['verdict']}]: {row['measured']}")
sys.exit(0 if waivers else 1)
EOF
fi

if [ -x .gpu/sass_checks ]; then
    ./.gpu/sass_checks --test-threads 2 >"$base/sass_checks.log" 2>&1
    test_status=$?
    grep -E "^test result|SKIPPED|panicked|sm_90" "$base/sass_checks.log" | head -n 40 | sed 's/^/  /'
    [ $test_status -ne 0 ] && status=1
    echo "sass: sass_checks (toolkit ptxas/nvdisasm): exit $test_status"
fi
echo "sass: $([ $status -eq 0 ] && echo PASS || echo FAIL)"
exit $status
