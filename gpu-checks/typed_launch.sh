#!/usr/bin/env bash
# GPU check of the typed launches (branch `typed`): every launcher now passes
# its kernel's signature tuple and the kernel's PTX .param list is checked
# before the launch (Rust PTX and CUDA C twins; the twins also entry by entry
# when they load; the OpenCL twins' argument lists). selftest launches every
# family on Rust, CUDA C and OpenCL C; then a short run of four experiments.
# Run from the repository root with .gpu/ptxsuite; writes to $OUT/typed.*.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/tl
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

start=$(date +%s)
./.gpu/ptxsuite selftest >"$out/selftest.log" 2>&1
echo "selftest: exit $? in $(( $(date +%s) - start )) s"
tail -n 25 "$out/selftest.log"
echo "-- signature mismatches or waived twins in selftest (none expected):"
grep -iE "does not take|parameter [0-9]+ \`|takes [0-9]+ parameters|twins did not load|waived" "$out/selftest.log" | head -20

only=${ONLY:-offset,matvec,bank-conflicts,constant-memory}
start=$(date +%s)
./.gpu/ptxsuite run --only "$only" --samples 3 --out "$out" >"$out/run.log" 2>&1
echo "run --only $only --samples 3: exit $? in $(( $(date +%s) - start )) s"
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
    if e["status"]["state"] != "ok":
        print(f"   status: {json.dumps(e['status'])[:300]}")
PY
if [ -n "${OUT:-}" ]; then
    cp "$out/report.json" "$OUT/typed.json"
    cp "$out/run.log" "$OUT/typed.log"
    cp "$out/selftest.log" "$OUT/typed_selftest.log"
fi
exit 0
