#!/usr/bin/env bash
# GPU check of the mathclaims branch: the math-functions experiment (Best
# Practices Guide §5.1.4: x·x·x vs pow(x,3), exp2/exp10 vs pow, cbrt vs
# pow(x,1/3), sinpi vs sin(π·x), sincos vs sin+cos; the CUDA C twins also with
# -use_fast_math), opencl-arithmetic (OpenCL guide §3.1.1.1: native_* vs
# standard functions and -cl-mad-enable / -cl-fast-relaxed-math on OpenCL C
# twins; sqrt, min and conversion rates in Rust, CUDA C and OpenCL C) and
# accuracy (its new exp2/exp10/cbrt/cos/sinpi series and Table C-1 row). Prints every series' figures (Gop/s, op/clk/SM, SASS per
# evaluation; accuracy: max ulp of exp2/exp10/cbrt/cos/sinpi), every failed
# point and waiver, and the twelve new ledger rows (and accuracy's first).
# Build: cargo build --release && mkdir -p .gpu && cp target/release/ptxsuite .gpu/
# Run from the repository root with .gpu/ptxsuite; about 40 s of GPU time;
# writes $OUT/mathclaims.json and $OUT/mathclaims.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/mathclaims-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# SASS evidence: ptxas and nvdisasm from the toolkit, where they are.
[ -x /usr/local/cuda/bin/ptxas ] && export PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
[ -x /usr/local/cuda/bin/nvdisasm ] && export NVDISASM=${NVDISASM:-/usr/local/cuda/bin/nvdisasm}
only=${ONLY:-math-functions,opencl-arithmetic,accuracy}
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
    for l, p in failed:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason','')[:300]}")
    for w in e.get("waived", []):
        print(f"   waived {w['what']}: {w['reason'][:200]}")
    for s in e["series"]:
        if e["name"] == "accuracy" and s["key"]["kernel"] not in ("exp2", "exp10", "cbrt", "cos", "sinpi"):
            continue
        for p in s["points"]:
            v = p.get("value") or {}
            ex = p.get("extra", {})
            keep = {k: round(x, 3) for k, x in ex.items()
                    if k.startswith(("op/clk", "SASS instructions per op", "iterations"))}
            print(f"   {s['label']} [{s['key'].get('variant','')}]: {v.get('min', float('nan')):.4g} / "
                  f"{v.get('median', float('nan')):.4g} / {v.get('max', float('nan')):.4g} {keep}")
new = ("bpg-5.1.4-small-integer-power", "bpg-5.1.4-exp2-exp10", "bpg-5.1.4-cbrt", "bpg-5.1.4-sinpi",
       "bpg-5.1.4-sincos", "bpg-5.1.4-use-fast-math", "ocl-b.1.1-max-ulp", "ocl-b.1.1-specialized-max-ulp",
       "ocl-3.1.1.1-native-functions", "ocl-3.1.1.1-mad-enable", "ocl-3.1.1.1-sqrt", "ocl-3.1.1.1-compare",
       "ocl-3.1.1.1-conversion")
seen = set()
for row in r.get("ledger", []):
    if row["id"] in new:
        seen.add(row["id"])
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:600]} {row.get('check') or ''}")
for missing in sorted(set(new) - seen):
    print(f"  [no row] {missing}")
PY
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/mathclaims.json" && cp "$out/run.log" "$OUT/mathclaims.log"
exit 0
