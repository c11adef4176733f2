#!/usr/bin/env bash
# The full run behind README's "What it measured", in two halves (each fits one 10-minute
# command of the lent machine; on an H100 about 350 s each): PART=1 the memory, matrix and
# copy experiments up to mapped-stride and the reduction, PART=2 the rest (streams to
# link-latency; the particles' interop needs the GL loaders in .gl/). Together they are every
# experiment of `ptxsuite list`, as one run without --only makes. COUNTERS=1 adds --counters.
# Each half's report.json, report.md and plots land in one tarball in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
part=${PART:-1}
# shellcheck source=gpu-checks/gl_loaders.sh
. gpu-checks/gl_loaders.sh
unpack_gl_loaders full_run
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:/usr/local/nvidia/lib64
export PATH=$PATH:/usr/local/cuda/bin
case $part in
    1) args=(--only offset,stride,shift,texture-2d,permuted,offset-width,stride-width,ceiling,cuda-std,matvec,matmul,sgemm,transfers,transfer-intensity,batched-copies,allocation,zero-copy,mapped-reuse,mapped-stride,reduction) ;;
    *) args=(--only streams,default-stream,concurrent-kernels,bank-conflicts,constant-memory,local-memory,latency,occupancy,grid-shape,work-group-size,instructions,math-functions,opencl-arithmetic,accuracy,divergence,loop-counters,particles,particle-tuning,peer,peer-copy-limits,host-links,link-latency) ;;
esac
[ -z "${COUNTERS:-}" ] || args+=(--counters)
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
