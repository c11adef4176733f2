#!/usr/bin/env bash
# A quick GPU check of the ledger's reworked experiments (bank-conflicts,
# constant-memory, latency, particles, matvec): their points, the two-measure
# agreement, the ceilings and the ledger rows; then selftest. Run from the
# repository root with .gpu/ptxsuite; writes to $OUT/quick.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/quick-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
only=${ONLY:-bank-conflicts,constant-memory,latency,particles,matvec}
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
for row in r.get("ledger", []):
    f = row.get("figure")
    fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
    print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:160]}")
PY
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/${TAG:-quick}.json" && cp "$out/run.log" "$OUT/${TAG:-quick}.log"
exit 0
