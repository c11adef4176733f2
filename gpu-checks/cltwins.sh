#!/usr/bin/env bash
# GPU check of the cltwins branch (issue #28 item 8): the OpenCL C twins of
# bank-conflicts (host/opencl_c/shared_memory_banks.cl, __local tables),
# constant-memory (constant_memory.cl: __constant, read-only __global, __local
# copy) and local-memory (local_memory.cl: a __private array indexed at compile
# time and at run time, and local_array_spilled built apart under
# -cl-nv-maxrregcount 64: its spills, or the reason it was waived) as series
# beside Rust and CUDA C on the same GPU's OpenCL queue. Prints each
# experiment's status, series, failed points and waivers, every series' figures
# (median with min-max; the twins' clocks by events), the setup and notes about
# the twins, the ledger rows (whose measured text now ends with "the twins, …:
# CUDA C: …x, OpenCL C: …x"), then the selftest (its "OpenCL C twins" row builds
# every .cl file on the NVIDIA device; its memory-claims rows).
# Build: cargo build --release --bin ptxsuite && mkdir -p .gpu && strip -o .gpu/ptxsuite target/release/ptxsuite
# Run from the repository root: bash gpu-checks/cltwins.sh (about 90 s of GPU
# time; Ctrl-C'd by timeout at 110 s, which keeps the points measured so far);
# writes $OUT/cltwins.json, cltwins.log and selftest.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/cltwins-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x /usr/local/cuda/bin/ptxas ] && export PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
[ -x /usr/local/cuda/bin/nvdisasm ] && export NVDISASM=${NVDISASM:-/usr/local/cuda/bin/nvdisasm}
if [ ! -x .gpu/ptxsuite ]; then
    echo "cltwins: no .gpu/ptxsuite (see the header of $0)"
    exit 2
fi
only=bank-conflicts,constant-memory,local-memory
start=$(date +%s)
timeout -s INT -k 20 110 ./.gpu/ptxsuite run --only "$only" --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only $only: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
if [ -f "$out/report.json" ]; then
python3 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mine = {"bank-conflicts", "constant-memory", "local-memory"}
for e in r["experiments"]:
    if e["name"] not in mine:
        continue
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    twins = [s for s in e["series"] if s["key"]["implementation"] == "opencl-c" or "OpenCL C" in s["label"]]
    print(f"{e['name']}: {e['status']['state']} {e['status'].get('reason', '')[:200]}; {len(e['series'])} series "
          f"({len(twins)} OpenCL C), {len(pts)} points, {len(failed)} failed")
    for l, p in failed:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason', '')[:300]}")
    for w in e.get("waived", []):
        print(f"   waived {w['what']}: {w['reason'][:300]}")
    for line in e.get("setup", []) + e.get("notes", []):
        if "OpenCL" in line:
            print(f"   note: {line[:600]}")
    for s in e["series"]:
        cells = []
        for p in s["points"]:
            v = p.get("value") or {}
            med = v.get("median")
            ex = p.get("extra", {})
            clk = ex.get("SM clk per warp request (events)")
            extra = f" {clk:.2f}clk" if clk is not None else ""
            slow = ex.get("slow-down")
            extra += f" {slow:.2f}x" if slow is not None else ""
            for name, short in (("local B/thread (JIT)", "localB"), ("spill stores B (JIT)", "spillSt"),
                                ("spill loads B (JIT)", "spillLd"), ("x registers", "xreg")):
                if ex.get(name) is not None and p is s["points"][-1]:
                    extra += f" {short}={ex[name]:.3g}"
            mhz = ex.get("SM clock (MHz, clock64 / globaltimer)")
            extra += f" @{mhz:.0f}MHz" if mhz is not None and s in twins else ""
            cells.append(f"{p['at']}: {med:.4g} ({v.get('min', float('nan')):.4g}-{v.get('max', float('nan')):.4g}){extra}"
                         if med is not None else f"{p['at']}: -")
        print(f"   {s['label']}: " + "; ".join(cells))
for row in r.get("ledger", []):
    if row.get("experiment") in mine:
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:900]}")
PY
fi
start=$(date +%s)
timeout -s INT -k 10 60 ./.gpu/ptxsuite selftest >"$out/selftest.log" 2>&1
echo "selftest: exit $? in $(( $(date +%s) - start )) s"
grep -E "OpenCL|shared-memory bank|constant-memory|local-memory|^selftest:|FAIL" "$out/selftest.log" | sed 's/^/  /' | head -n 40
if [ -n "${OUT:-}" ]; then
    [ -f "$out/report.json" ] && cp "$out/report.json" "$OUT/cltwins.json"
    cp "$out/run.log" "$OUT/cltwins.log"
    cp "$out/selftest.log" "$OUT/selftest.log"
fi
exit 0
