#!/usr/bin/env bash
# Issue 24's two changed rows, checked before the three-run proof: the
# divergence experiment three times (bpg-6.1-warp-aligned, after the paths'
# nounroll: 32 warp-aligned paths had measured 1.25x one path in one run and
# 1.00x in the next), and matvec twice (the Table 1 full-wave rows, graded
# with the run-to-run allowance). Then the allocation experiment (its two §3.3
# rows, not yet run) and, for issue 29, streams with the default 8 hardware
# connections and with CUDA_DEVICE_MAX_CONNECTIONS=32 (16 streams over 8
# connections share queues). Run from the repository root with
# .gpu/ptxsuite; writes $OUT/stability.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
work=/tmp/stability
rm -rf "$work"; mkdir -p "$work"
run() { # name, args...
    local name=$1; shift
    local start=$(date +%s)
    ./.gpu/ptxsuite run "$@" --out "$work/$name" >"$work/$name.log" 2>&1
    echo "$name: exit $? in $(( $(date +%s) - start )) s"
}
for i in 1 2 3; do run "divergence$i" --only divergence; done
for i in 1 2; do run "matvec$i" --only matvec; done
run allocation --only allocation
run streams8 --only streams
CUDA_DEVICE_MAX_CONNECTIONS=32 run streams32 --only streams
python3 - "$work" <<'PY'
import json, sys, glob
for path in sorted(glob.glob(sys.argv[1] + "/*/report.json")):
    r = json.load(open(path))
    name = path.split("/")[-2]
    for e in r["experiments"]:
        pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
        failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
        print(f"== {name}: {e['name']} {e['status']['state']}, {len(pts)} points, {len(failed)} failed")
        for l, p in failed[:4]:
            print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:240]}")
        for s in e["series"]:
            if e["name"] in ("divergence",) and "uniform" in s["label"] or e["name"] in ("allocation", "streams"):
                vals = " ".join(f"{p['at']}={p['value']['median']:.4g}" for p in s["points"] if p.get("value"))
                print(f"   {s['label'][:60]}: {vals[:400]}")
    for row in r.get("ledger", []):
        f = row.get("figure")
        fs = f"{f['low']:.4f}/{f['median']:.4f}/{f['high']:.4f}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs}")
PY
[ -n "${OUT:-}" ] && tar -czf "$OUT/stability.tar.gz" -C /tmp stability
exit 0
