#!/usr/bin/env bash
# GPU check of the cldiv branch: the divergence experiment with its OpenCL C
# twins (host/opencl_c/divergence.cl; OpenCL guide §3.1.1.2) as a third series
# beside Rust and CUDA C: k = 1..32 paths chosen per lane and per warp, the
# short and long if/else with warps one way and split. Prints every series'
# min/median/max (ms) and its ratio to k = 1 (paths) or to mask 0 (if/else),
# every failed point and waiver, the setup lines and the three ledger rows
# (whose measured text now carries "OpenCL C: …x").
# Build: cargo build --release && mkdir -p .gpu && cp target/release/ptxsuite .gpu/
# Run from the repository root with .gpu/ptxsuite; about 30 s of GPU time;
# writes $OUT/cldiv.json and $OUT/cldiv.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/cldiv-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x /usr/local/cuda/bin/ptxas ] && export PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
[ -x /usr/local/cuda/bin/nvdisasm ] && export NVDISASM=${NVDISASM:-/usr/local/cuda/bin/nvdisasm}
start=$(date +%s)
./.gpu/ptxsuite run --only divergence --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only divergence: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
python3 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for e in r["experiments"]:
    if e["name"] != "divergence":
        continue
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    print(f"{e['name']}: {e['status']['state']}, {len(e['series'])} series, {len(pts)} points, {len(failed)} failed")
    for l, p in failed:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason', '')[:300]}")
    for w in e.get("waived", []):
        print(f"   waived {w['what']}: {w['reason'][:300]}")
    for line in e.get("setup", []):
        print(f"   setup: {line}")
    for s in e["series"]:
        k = s["key"]
        base = None
        for p in s["points"]:
            v = p.get("value") or {}
            med = v.get("median")
            if base is None:
                base = med
            ratio = f"{med / base:.2f}x" if med and base else "-"
            print(f"   {k['kernel']} · {k['implementation']} @ {p['at']}: {v.get('min', float('nan')):.4f} / "
                  f"{med if med is not None else float('nan'):.4f} / {v.get('max', float('nan')):.4f} ms ({ratio})")
ids = ("bpg-6.1-divergent-paths", "bpg-6.1-warp-aligned", "bpg-6.2-predication")
seen = set()
for row in r.get("ledger", []):
    if row["id"] in ids:
        seen.add(row["id"])
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:900]}")
for missing in sorted(set(ids) - seen):
    print(f"  [no row] {missing}")
PY
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/cldiv.json" && cp "$out/run.log" "$OUT/cldiv.log"
exit 0
