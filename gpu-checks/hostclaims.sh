#!/usr/bin/env bash
# GPU check of the hostclaims branch (#28 items 5 and 7): batched-copies
# (§3.1), default-stream (§3.1.2), concurrent-kernels (the whitepaper's "one
# kernel at a time", Rust, CUDA C and OpenCL C), mapped-reuse and
# mapped-stride (§3.1.3), grid-shape (§4.4), work-group-size (OpenCL guide
# §3.2, a NULL local size) and transfer-intensity (§1.1.2). Prints
# every point of their series (min / median / max and extra figures), every
# failed point with its reason, and the new ledger rows' verdicts and
# figures. Run from the repository root with .gpu/ptxsuite; about 70 s of
# GPU time; writes $OUT/hostclaims.json and $OUT/hostclaims.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/hostclaims-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
only=${ONLY:-batched-copies,default-stream,concurrent-kernels,mapped-reuse,mapped-stride,grid-shape,work-group-size,transfer-intensity}
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
    for l, p in failed[:8]:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:300]}")
    for w in e.get("waived", []):
        print(f"   waived {w['what']}: {w['reason'][:200]}")
    for s in e["series"]:
        for p in s["points"]:
            v = p.get("value") or {}
            ex = {k: round(x, 3) for k, x in p.get("extra", {}).items()}
            print(f"   {s['label']} @ {p['at']}: {v.get('min', float('nan')):.4g} / "
                  f"{v.get('median', float('nan')):.4g} / {v.get('max', float('nan')):.4g} {ex}")
new = ("bpg-3.1-batched-transfers", "bpg-3.1.2-default-stream-blocks", "whitepaper-one-kernel-at-a-time",
       "bpg-3.1.3-mapped-reread", "bpg-3.1.3-zero-copy-read-once", "bpg-4.4-blocks-over-sms",
       "bpg-4.4-thousands-of-blocks", "opencl-3.2-explicit-work-group-size", "bpg-1.1.2-transfer-vs-intensity",
       "bpg-3.1.3-mapped-coalesced")
seen = set()
for row in r.get("ledger", []):
    if row["id"] in new:
        seen.add(row["id"])
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:400]} {row.get('check') or ''}")
for missing in sorted(set(new) - seen):
    print(f"  [NO ROW] {missing}")
for e in r["experiments"]:
    for n in e.get("notes", [])[:3]:
        print(f"  note {e['name']}: {n[:300]}")
PY
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/hostclaims.json" && cp "$out/run.log" "$OUT/hostclaims.log"
exit 0
