#!/usr/bin/env bash
# GPU check of the `expsin` branch (issue #29, goal 4): the device layer's
# exp and sine against CUDA C's expf and sinf. Runs the `instructions`
# experiment (Gop/s of the chains v <- f(v) + b, and each loop's SASS per
# operation) and the `accuracy` experiment (max ulp over the sweeps, and how
# many inputs give other bits than expf), then prints, per function and
# argument range: Gop/s and max ulp of CUDA C, the Rust default and the Rust
# tighter variant, with the ratios to CUDA's; the SASS instructions per
# operation of each loop; the fast-math ledger rows; any failed point.
#
# Run on the GPU machine from the repository root, with .gpu/ptxsuite
# (cargo build --release; copy target/release/ptxsuite to .gpu/ptxsuite).
# Writes $OUT/accuracy.json (the report) and $OUT/expsin.log (the run's log).
# Exit status: 0 when both experiments ran and no point failed.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/acc
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ ! -x .gpu/ptxsuite ]; then
    echo "expsin: no .gpu/ptxsuite (see the header of $0)"
    exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
only=instructions,accuracy
start=$(date +%s)
./.gpu/ptxsuite run --only "$only" --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
run_status=$?
echo "run --only $only: exit $run_status in $(( $(date +%s) - start )) s"
tail -n 3 "$out/run.log"
status=$run_status
if [ -f "$out/report.json" ]; then
    python3 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exps = {e["name"]: e for e in r["experiments"]}
failed = 0
for name in ("instructions", "accuracy"):
    e = exps.get(name)
    if not e:
        print(f"{name}: missing from the report"); failed += 1; continue
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    bad = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    failed += len(bad)
    print(f"{name}: {e['status']['state']}, {len(pts)} points, {len(bad)} failed")
    for l, p in bad[:8]:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason', '')[:300]}")

def point(exp, kernel, impl, at):
    e = exps.get(exp)
    if not e:
        return None
    for s in e["series"]:
        k = s["key"]
        if k["kernel"] == kernel and k["implementation"] == impl and not k.get("variant"):
            for p in s["points"]:
                if p["at"] == at and p["status"]["state"] == "ok":
                    return p
    return None

def med(p):
    return p["value"]["median"] if p else None

def f(x, d=3):
    return "—" if x is None else f"{x:.{d}f}"

families = [
    ("sine", [("CUDA C sinf", "sin", "sin_throughput", "cuda-c"),
              ("Rust sin (default)", "sin", "sin_throughput", "rust")]),
    ("exp", [("CUDA C expf", "exp", "exp_throughput", "cuda-c"),
             ("Rust exp (default)", "exp", "exp_throughput", "rust"),
             ("Rust exp_accurate (tighter)", "exp_accurate", "exp_accurate_throughput", "rust"),
             ("Rust exp_fast (__expf)", "exp_fast", "exp_fast_throughput", "rust")]),
]
print()
print("| function | args | Gop/s | /CUDA | max ulp | /CUDA | SASS instr/op | inputs unlike expf |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for family, rows in families:
    for at, args in ((0, "small"), (1, "large")):
        base = rows[0]
        base_rate = med(point("instructions", base[2], base[3], at))
        base_ulp = med(point("accuracy", base[1], base[3], at))
        for label, function, kernel, impl in rows:
            rp = point("instructions", kernel, impl, at)
            ap = point("accuracy", function, impl, at)
            rate, ulp = med(rp), med(ap)
            ratio = lambda a, b: f(a / b) if a is not None and b else "—"
            sass = (rp or {}).get("extra", {}).get("SASS instructions per operation")
            unlike = (ap or {}).get("extra", {}).get("inputs unlike CUDA's expf")
            print(f"| {label} | {args} | {f(rate, 0)} | {ratio(rate, base_rate)} | {f(ulp)} | "
                  f"{ratio(ulp, base_ulp)} | {f(sass, 2)} | {f(unlike, 0)} |")
print()
e = exps.get("instructions") or {}
for n in e.get("notes", []):
    if any(k in n for k in ("sin_throughput", "exp_throughput", "exp_accurate_throughput")):
        print("note:", n[:700])
for row in r.get("ledger", []):
    if row["id"].startswith("bpg-5.1.4"):
        fig = row.get("figure")
        fs = f"{fig['low']:.3g}/{fig['median']:.3g}/{fig['high']:.3g}" if fig else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:400]}")
sys.exit(1 if failed else 0)
PY
    [ $? -ne 0 ] && status=1
fi
if [ -n "${OUT:-}" ]; then
    [ -f "$out/report.json" ] && cp "$out/report.json" "$OUT/accuracy.json"
    [ -f "$out/report.md" ] && cp "$out/report.md" "$OUT/accuracy.md"
    cp "$out/run.log" "$OUT/expsin.log"
fi
exit $status
