#!/usr/bin/env bash
# Issue 24's proof of stable verdicts: one run of the ledger's experiments
# (every experiment a claim reads, from `claims`; LEDGER= overrides; FULL=1 runs every experiment, as
# README's main command does) at default settings, then, if COUNTERS is
# set, `run --counters` of those experiments (issue 27) at 3 samples.
# Run from the repository root with .gpu/ptxsuite (BIN= names another build). Writes $OUT/$TAG.tar.gz
# holding the reports and logs. LIMIT bounds the ledger run (seconds, SIGINT:
# the report written so far stays).
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tag=${TAG:-ledger}
bin=${BIN:-./.gpu/ptxsuite}
work=/tmp/$tag
rm -rf "$work"; mkdir -p "$work"
# Every experiment a graded claim reads, as `claims` names them (in registry order).
ledger=${LEDGER:-$("$bin" claims | grep -oE '`[a-z0-9-]+`\)$' | tr -d '`)' | awk '!seen[$0]++' | paste -sd, -)}
echo "ledger experiments: $ledger"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv | tee "$work/gpu.txt"
if [ "${SKIP_LEDGER:-}" != 1 ]; then
    start=$(date +%s)
    only=(--only "$ledger")
    [ "${FULL:-}" = 1 ] && only=()
    timeout -s INT "${LIMIT:-540}" "$bin" run "${only[@]}" --out "$work/ledger" ${RUN_ARGS:-} >"$work/ledger.log" 2>&1
    echo "ledger run: exit $? in $(( $(date +%s) - start )) s"
    tail -n 3 "$work/ledger.log"
fi
if [ -n "${COUNTERS:-}" ]; then
    start=$(date +%s)
    timeout -s INT "${COUNTERS_LIMIT:-200}" "$bin" run --counters --samples 3 --reps 5 --only "$COUNTERS" --out "$work/counters" >"$work/counters.log" 2>&1
    echo "counters run ($COUNTERS): exit $? in $(( $(date +%s) - start )) s"
    tail -n 3 "$work/counters.log"
fi
python3 - "$work" <<'PY'
import json, sys, os, glob
for path in sorted(glob.glob(sys.argv[1] + "/*/report.json")):
    r = json.load(open(path))
    print(f"== {path}: partial={r.get('partial')}")
    tele = {e['experiment']: e['summary']['samples'] / 10 for e in r['telemetry']['devices'][0]['experiments']} if r.get('telemetry') else {}
    for e in r["experiments"]:
        pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
        failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
        print(f"{e['name']}: {e['status']['state']}, {len(pts)} points, {len(failed)} failed, ~{tele.get(e['name'], 0):.0f} s")
        for l, p in failed[:4]:
            print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:240]}")
    for row in r.get("ledger", []):
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs}")
PY
if [ -n "${OUT:-}" ]; then
    tar -czf "$OUT/$tag.tar.gz" -C /tmp "$tag"
fi
exit 0
