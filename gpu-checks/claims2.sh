#!/usr/bin/env bash
# GPU check of the claims2 branch: the allocation experiment (§3.3: cuMemAlloc
# against the stream-ordered pool, reuse and a launch) and the barrier kernel
# in instructions (OpenCL guide §3.1.1.4). Prints the new series, the three
# new ledger rows and every failed point; then the GPU test of the allocation
# layer if its binary was copied. Run from the repository root with
# .gpu/ptxsuite (and optionally .gpu/gpu_memory_claims); writes $OUT/claims2.json.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/claims2-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
only=${ONLY:-allocation,instructions}
start=$(date +%s)
./.gpu/ptxsuite run --only "$only" --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only $only: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
python3 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for e in r["experiments"]:
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    print(f"{e['name']}: {e['status']['state']}, {len(pts)} points, {len(failed)} failed")
    for l, p in failed[:6]:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:300]}")
    for w in e.get("waived", []):
        print(f"   waived {w['what']}: {w['reason'][:200]}")
    for s in e["series"]:
        if e["name"] == "allocation" or s["key"]["kernel"] in ("bar_sync_throughput", "f32_add_throughput"):
            for p in s["points"]:
                v = p.get("value") or {}
                ex = {k: round(x, 3) for k, x in p.get("extra", {}).items()
                      if k.startswith(("op/clk", "OpenCL", "pool", "SASS instructions per op"))}
                print(f"   {s['label']} @ {p['at']}: {v.get('min', float('nan')):.4g} / "
                      f"{v.get('median', float('nan')):.4g} / {v.get('max', float('nan')):.4g} {ex}")
    for n in e.get("notes", []):
        if "bar_sync" in n:
            print(f"   note: {n[:300]}")
new = ("bpg-3.3-allocation-cost", "bpg-3.3-stream-ordered-pool", "ocl-3.1.1.4-barrier")
for row in r.get("ledger", []):
    if row["id"] in new:
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:400]} {row.get('check') or ''}")
PY
if [ -x .gpu/gpu_memory_claims ]; then
    .gpu/gpu_memory_claims gpu_allocations 2>&1 | tail -n 4
fi
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/claims2.json" && cp "$out/run.log" "$OUT/claims2.log"
exit 0
