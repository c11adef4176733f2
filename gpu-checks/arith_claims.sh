#!/usr/bin/env bash
# GPU check of the claims branch's new ledger rows. Runs instructions (with
# the new rsqrt-vs-1/sqrt, i16/i8 multiply-add and mul24 kernels), accuracy
# (Table C-1's bounds) and latency (§3.2.2's shared vs device memory), about
# 60 s on an H100; then regrades the published memory-and-copies report with
# this build for the word-width rows (offset-width and stride-width take over
# 5 minutes to run, so they are read from the published figures, not rerun).
# Run from the repository root with .gpu/ptxsuite; writes $OUT/arith.json,
# $OUT/arith.log and $OUT/memory-regraded/ (report.md and plots).
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/arith-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
only=${ONLY:-instructions,accuracy,latency}
start=$(date +%s)
./.gpu/ptxsuite run --only "$only" --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only $only: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
regraded=/tmp/arith-memory-regraded
rm -rf "$regraded"; mkdir -p "$regraded"
./.gpu/ptxsuite render docs/measured/h100-2026-11-25/memory-and-copies/report.json --out "$regraded" >"$regraded/render.log" 2>&1
echo "render of the published memory-and-copies report: exit $?"
python3 - "$out/report.json" "$regraded/report.md" <<'PY'
import json, sys
NEW = {"bpg-5.1.2-rsqrt", "bpg-5.1.3-short-integers", "ocl-3.1.1.1-mul24", "ocl-b.1.1-max-ulp",
       "bpg-3.2.2-shared-latency"}
NEW_KERNELS = {"recip_sqrt_rn_throughput", "rsqrt_approx_throughput", "i16_mad_throughput", "i8_mad_throughput",
               "i32_mad_throughput", "mul24_throughput", "i32_mul_throughput"}
r = json.load(open(sys.argv[1]))
for e in r["experiments"]:
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    print(f"{e['name']}: {e['status']['state']}, {len(pts)} points, {len(failed)} failed")
    for l, p in failed[:8]:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:300]}")
    if e["name"] == "instructions":
        for s in e["series"]:
            if s["key"]["kernel"] in NEW_KERNELS and not s["key"].get("variant"):
                for p in s["points"]:
                    v = p.get("value") or {}
                    x = p.get("extra", {})
                    print(f"   {s['label']}: {v.get('median', float('nan')):.0f} Gop/s, "
                          f"{x.get('op/clk/SM', float('nan')):.1f} op/clk/SM, SASS/op {x.get('SASS instructions per operation', '-')}")
print("new rows of this run:")
for row in r.get("ledger", []):
    if row["id"] in NEW:
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:400]}")
print("word-width rows regraded from the published memory-and-copies report:")
for line in open(sys.argv[2]):
    if "§3.1.2.1" in line or "Scalar Architecture" in line:
        cells = [c.strip() for c in line.split("|")]
        print("  ", " | ".join(cells[3:5]))
PY
if [ -n "${OUT:-}" ]; then
    cp "$out/report.json" "$OUT/arith.json"
    cp "$out/run.log" "$OUT/arith.log"
    mkdir -p "$OUT/memory-regraded" && cp "$regraded"/* "$OUT/memory-regraded/"
fi
exit 0
