#!/usr/bin/env bash
# The full run behind README's "What it measured", in two halves (each fits one 10-minute
# command of the lent machine): PART=1 runs the memory and copy experiments with --counters,
# PART=2 the rest (the particles' interop needs the GL loaders in .gl/). Each half's
# report.json, report.md and plots land in one tarball in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
part=${PART:-1}
# shellcheck source=gpu-checks/gl_loaders.sh
. gpu-checks/gl_loaders.sh
unpack_gl_loaders full_run
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:/usr/local/nvidia/lib64
export PATH=$PATH:/usr/local/cuda/bin
case $part in
    1) args=(--counters --only offset,stride,shift,offset-width,stride-width,ceiling,cuda-std,matvec,matmul,bank-conflicts,constant-memory,local-memory,loop-counters,divergence) ;;
    *) args=(--only sgemm,transfers,zero-copy,streams,latency,occupancy,instructions,accuracy,particles,peer,host-links,link-latency) ;;
esac
out=/tmp/part$part; rm -rf "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader
start=$(date +%s)
timeout -s INT "${LIMIT:-540}" ./.gpu/ptxsuite run "${args[@]}" --out "$out" > /tmp/part$part.log 2>&1
echo "part $part: exit $? in $(( $(date +%s) - start )) s"
cp /tmp/part$part.log "$out/run.log" 2>/dev/null
grep -E "^error|PARTIAL|LEDGER ROW FAILED|verification failed" /tmp/part$part.log | cut -c1-400 | head -20
python3 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for e in r["experiments"]:
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    print(f"{e['name']}: {e['status']['state']}, {len(pts)} points, {len(failed)} failed")
    for l, p in failed[:4]:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:220]}")
for row in r.get("ledger", []):
    print(f"  [{row['verdict']}] {row['id']}: {row.get('check') or ''}{row['measured'][:110]}")
PY
tar czf "$OUT/part$part.tgz" -C /tmp "part$part"
