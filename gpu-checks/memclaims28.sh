#!/usr/bin/env bash
# GPU check of the memclaims branch (issue #28 items 1 and 4): the OpenCL
# guide's §3.1.2.5 bank-conflict cases in bank-conflicts (bank_read_b8/b16,
# bank_read_struct2/3, bank_read_split_b64, bank_read_permuted, Rust and CUDA
# C) and its untiled §2.5 multiply in sgemm (naive_sgemm, Rust, CUDA C and
# OpenCL C, 1024³ and 2048³). Prints the new series' figures, every failed
# point with its reason and the eight new ledger rows; with COUNTERS=1 also a
# `--counters` pass of bank-conflicts (CUPTI: shared-memory wavefronts and
# bank conflicts per request beside the model's passes).
# Then Best Practices §3.2.1.1 and §3.2.1.2: the permuted experiment
# (permuted_copy, Rust, CUDA C and OpenCL C, keys 0 (in order), 1, 6, 10, 21,
# 31) and the allocation experiment's odd-size alignments, with their rows
# bpg-3.2.1.1-permuted and bpg-3.2.1.2-allocation-alignment. By default it
# runs bank-conflicts, permuted and allocation; ONLY=bank-conflicts,sgemm (or
# any list) for the multiply. Where .gpu/gpu_copies and .gpu/gpu_memory_claims
# (the test binaries) exist, their permuted-copy and allocation tests run too.
# Run from the repository root with .gpu/ptxsuite; writes $OUT/memclaims28.json.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/memclaims28-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
only=${ONLY:-bank-conflicts,permuted,allocation}
start=$(date +%s)
./.gpu/ptxsuite run --only "$only" --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only $only: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
summary() {
python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
new = {"bank_read_b8", "bank_read_b16", "bank_read_struct2", "bank_read_struct3", "bank_read_split_b64",
       "bank_read_permuted", "naive_sgemm", "permuted_copy", "cuMemAlloc+cuMemFree"}
base = {("bank_read_b32", 1), ("bank_read_b64", 1), ("tiled_sgemm", 1024), ("tiled_sgemm", 2048)}
for e in r["experiments"]:
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    print(f"{e['name']}: {e['status']['state']}, {len(pts)} points, {len(failed)} failed")
    for l, p in failed[:8]:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:300]}")
    for w in e.get("waived", []):
        print(f"   waived {w['what']}: {w['reason'][:200]}")
    for s in e["series"]:
        k = s["key"]["kernel"]
        for p in s["points"]:
            if k not in new and (k, p["at"]) not in base:
                continue
            v = p.get("value") or {}
            ex = {n: round(x, 3) for n, x in p.get("extra", {}).items()
                  if n.startswith(("SM clk per warp request", "passes", "B/clk", "rounds", "shared wavefronts", "bank conflicts",
                                   "alignment of", "DRAM-sector GB/s", "% of peak"))}
            print(f"   {s['label']} @ {p['at']}: {v.get('min', float('nan')):.5g} / "
                  f"{v.get('median', float('nan')):.5g} / {v.get('max', float('nan')):.5g} {ex}")
for row in r.get("ledger", []):
    if row["id"].startswith(("ocl-3.1.2.5-", "ocl-2.5-", "bpg-3.2.1.1-", "bpg-3.2.1.2-")):
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:400]} {row.get('check') or ''}")
PY
}
summary "$out/report.json"
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/memclaims28.json" && cp "$out/run.log" "$OUT/memclaims28.log"
for t in "gpu_copies gpu_permuted_copy" "gpu_memory_claims gpu_allocations"; do
    set -- $t
    if [ -x ".gpu/$1" ]; then
        echo "== .gpu/$1 $2"
        ".gpu/$1" "$2" 2>&1 | grep -E "^test |test result|panicked|SKIPPED" | head -n 20
    fi
done
if [ "${COUNTERS:-0}" = 1 ]; then
    start=$(date +%s)
    ./.gpu/ptxsuite run --counters --only bank-conflicts --samples 3 --out "$out/counters" >"$out/counters.log" 2>&1
    echo "== run --counters --only bank-conflicts: exit $? in $(( $(date +%s) - start )) s"
    tail -n 3 "$out/counters.log"
    summary "$out/counters/report.json"
    [ -n "${OUT:-}" ] && cp "$out/counters/report.json" "$OUT/memclaims28-counters.json"
fi
exit 0
