#!/usr/bin/env bash
# GPU check of the notes2 branch: the particle-tuning experiment (the lecture
# notes' second half: the fountain's tuning steps, the second block-shape
# table, the all-pairs swarm naive and tiled). Prints every series' figures,
# every failed point with its reason and the eight new ledger rows; then the
# particles GPU test if its binary was copied. Run from the repository root
# with .gpu/ptxsuite (and optionally .gpu/gpu_particles); writes $OUT/notes2.json.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/notes2-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
only=${ONLY:-particle-tuning}
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
            t = p.get("time_ms") or {}
            ex = {k: round(x, 3) for k, x in p.get("extra", {}).items()}
            print(f"   {s['label']} @ {p['at']}: {v.get('min', float('nan')):.4g} / "
                  f"{v.get('median', float('nan')):.4g} / {v.get('max', float('nan')):.4g} G upd/s, "
                  f"{t.get('median', float('nan'))*1e3:.2f} us/step {ex}")
    for n in e.get("notes", []) + e.get("setup", []):
        print(f"   note: {n[:300]}")
for row in r.get("ledger", []):
    if row["id"].startswith(("notes-tuning", "notes-shapes2", "notes-gravity")):
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:400]} {row.get('check') or ''}")
PY
sed -n '/particle-tuning\|Particle kernels tuned/,/^## /p' "$out/report.md" | head -n 60
if [ -x .gpu/gpu_particles ]; then
    .gpu/gpu_particles 2>&1 | tail -n 4
fi
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/notes2.json" && cp "$out/run.log" "$OUT/notes2.log" && cp "$out/report.md" "$OUT/notes2.md"
exit 0
