#!/usr/bin/env bash
# GPU checks of the `cupti` branch (issue 27, hardware counters): CUPTI's
# setup step by step and a few known kernels (`ptxsuite counters-probe`), the
# self-test row, then `run --counters` of stride, bank-conflicts,
# local-memory, loop-counters, divergence, offset and shift at small
# settings; prints a compact table of modelled against counted figures and
# the ledger rows, and leaves report.json / report.md and the logs in $OUT.
#
# Run from the repository root on the GPU machine, with the binary in .gpu/:
#   cargo build --release && mkdir -p .gpu && cp target/release/ptxsuite .gpu/
# CUPTI: $PTXSUITE_CUPTI if set, else the toolkit's (/usr/local/cuda/...).
# About 2-3 minutes on an H100 (the run is stopped with Ctrl-C semantics after
# RUN_SECONDS, default 120, and then writes a partial report).
# Exit status: 0 when the probe collected, the self-test row passed and the run exited 0.
set -uo pipefail
cd "$(dirname "$0")/.."

out=${OUT:-/tmp/ptxsuite-counters-check}
mkdir -p "$out"
run_seconds=${RUN_SECONDS:-120}
status=0
results=()

if [ ! -x .gpu/ptxsuite ]; then
    echo "counters: no .gpu/ptxsuite (see the header of $0)"
    exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
grep -H RmProfilingAdminOnly /proc/driver/nvidia/params 2>/dev/null || echo "(no /proc/driver/nvidia/params)"

if [ -z "${PTXSUITE_CUPTI:-}" ]; then
    for folder in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
        if ls "$folder"/libcupti.so* >/dev/null 2>&1; then
            export PTXSUITE_CUPTI=$folder
            break
        fi
    done
fi
echo "PTXSUITE_CUPTI=${PTXSUITE_CUPTI:-(unset: the loader path)}"
ls -l "${PTXSUITE_CUPTI:-/nonexistent}"/libcupti.so* "${PTXSUITE_CUPTI:-/nonexistent}"/libnvperf_*.so 2>/dev/null | sed 's/^/  /'
# NVRTC for the CUDA C twins' PTX (selftest), and CUPTI's metric libraries beside it.
export LD_LIBRARY_PATH=${PTXSUITE_CUPTI:+$PTXSUITE_CUPTI:}/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

echo "== counters-probe (every step of CUPTI's setup, then known kernels)"
start=$(date +%s)
timeout -s INT 90 ./.gpu/ptxsuite counters-probe >"$out/probe.log" 2>&1
probe_status=$?
cat "$out/probe.log"
echo "(probe: exit $probe_status in $(( $(date +%s) - start )) s)"
if [ $probe_status -eq 0 ]; then
    results+=("probe: collected ($(grep -c -- '-> agrees' "$out/probe.log") checks agree, $(grep -c -- '-> DISAGREES' "$out/probe.log") disagree)")
else
    results+=("probe: FAILED (exit $probe_status; see the steps above)")
    status=1
fi

echo "== selftest --impl rust (the counters row and the totals)"
start=$(date +%s)
timeout -s INT 120 ./.gpu/ptxsuite selftest --impl rust >"$out/selftest.log" 2>&1
selftest_status=$?
grep -E "^(hardware counters|selftest:)|FAILED" "$out/selftest.log" | sed 's/^/  /'
echo "(selftest: exit $selftest_status in $(( $(date +%s) - start )) s)"
row=$(grep -E "^hardware counters" "$out/selftest.log" | head -n 1)
case "$row" in
    *"  ok "*) results+=("selftest row: ok") ;;
    *) results+=("selftest row: ${row:-missing}"); status=1 ;;
esac

experiments=stride,bank-conflicts,local-memory,loop-counters,divergence,offset,shift
echo "== run --counters --only $experiments (samples 3, reps 5, 256 MiB, Rust only; stopped after ${run_seconds} s)"
start=$(date +%s)
timeout -s INT "$run_seconds" ./.gpu/ptxsuite run --counters --only "$experiments" --samples 3 --reps 5 \
    --size-mib 256 --impl rust --out "$out/run" >"$out/run.log" 2>&1
run_status=$?
echo "(run: exit $run_status in $(( $(date +%s) - start )) s)"
grep -E "^(LEDGER ROW FAILED|PARTIAL|error|  waived|  note: hardware counters)" "$out/run.log" | sed 's/^/  /'
case $run_status in
    0) results+=("run: ok, every ledger row agrees with the counters or has none") ;;
    1) results+=("run: exit 1 (a failed check, an error, or a ledger row the counters contradict: see above)"); status=1 ;;
    130) results+=("run: stopped after ${run_seconds} s (partial report)"); status=1 ;;
    *) results+=("run: exit $run_status"); status=1 ;;
esac
[ -f "$out/run/report.json" ] && cp "$out/run/report.json" "$out/report.json"
[ -f "$out/run/report.md" ] && cp "$out/run/report.md" "$out/report.md"

if [ -f "$out/run/report.json" ] && command -v python3 >/dev/null; then
    python3 - "$out/run/report.json" <<'EOF'
import json, sys

report = json.load(open(sys.argv[1]))
SECTOR = 32

def sectors(start, end):
    return 0 if end <= start else (end - 1) // SECTOR - start // SECTOR + 1

def stride_model(n, s):
    return 2 * SECTOR * (n if s * 4 >= SECTOR else sectors(0, (n - 1) * s * 4 + 4))

def offset_model(n, o):
    return 2 * SECTOR * sectors(o * 4, o * 4 + n * 4)

def shift_model(n, s):
    return SECTOR * (sectors(s * 4, s * 4 + n * 4) + sectors(0, n * 4))

def series(result, kernel):
    for s in result["series"]:
        if s["key"]["kernel"] == kernel and s["key"]["implementation"] == "rust" and not s["key"].get("variant"):
            return s
    return None

def c(p, name):
    return p.get("counters", {}).get(name)

def fmt(v, d=2):
    return "—" if v is None else f"{v:.{d}f}"

for result in report["experiments"]:
    name = result["name"]
    print(f"\n### {name}: {result['status']['state']}")
    for w in result.get("waived", []):
        print(f"  waived: {w['what']}: {w['reason']}")
    for n in result.get("notes", []):
        if n.startswith("hardware counters"):
            print(f"  note: {n}")
    if name in ("stride", "offset", "shift"):
        kernel, model = {"stride": ("stride_copy", stride_model), "offset": ("offset_copy", offset_model),
                         "shift": ("shift_copy", shift_model)}[name]
        s = series(result, kernel)
        if not s:
            continue
        print(f"| {name} | modelled DRAM MB | counted read MB | counted write MB | counted / modelled | effective GB/s | sector GB/s | counted GB/s | L2 MB |")
        for p in s["points"]:
            x, n = p["at"], p.get("elements", 0)
            if name != "stride" and x not in (0, 1, 2, 4, 8, 16, 31, 32):
                continue
            r, w = c(p, "dram__bytes_read.sum"), c(p, "dram__bytes_write.sum")
            m = model(n, x)
            ratio = (r + w) / m if r is not None and w is not None and m else None
            l2 = c(p, "lts__t_bytes.sum")
            e = p.get("extra", {})
            print(f"| {x} | {m/1e6:.1f} | {fmt(r and r/1e6, 1)} | {fmt(w and w/1e6, 1)} | {fmt(ratio, 3)} | "
                  f"{fmt((p.get('value') or {}).get('median'), 0)} | {fmt(e.get('DRAM-sector GB/s'), 0)} | "
                  f"{fmt(e.get('DRAM GB/s (counters)'), 0)} | {fmt(l2 and l2/1e6, 1)} |")
    elif name == "bank-conflicts":
        for kernel in ("bank_read_b32", "bank_write_b32", "bank_read_b64", "bank_read_b128", "bank_tile_column_read"):
            s = series(result, kernel)
            if not s:
                continue
            print(f"| {kernel} | passes (model) | wavefronts/request (counters) | conflicts/request (counters) | timed slow-down |")
            for p in s["points"]:
                if p["at"] not in (0, 1, 2, 4, 8, 16, 32, 33):
                    continue
                e = p.get("extra", {})
                print(f"| {p['at']} | {fmt(e.get('passes (model)'), 0)} | {fmt(e.get('shared wavefronts/request (counters)'))} | "
                      f"{fmt(e.get('bank conflicts/request (counters)'))} | {fmt(e.get('slow-down'))} |")
    elif name == "local-memory":
        print("| series | threads/SM | model local B/thread | counted local B/thread | JIT local B/thread |")
        for s in result["series"]:
            for p in s["points"]:
                e, n = p.get("extra", {}), p.get("elements", 0)
                model = p.get("bytes", 0) / n if n else None
                print(f"| {s['label']} | {p['at']} | {fmt(model, 0)} | {fmt(e.get('local B/thread (counters)'), 0)} | {fmt(e.get('local B/thread (JIT)'), 0)} |")
    elif name == "loop-counters":
        print("| series | PTX instructions/element | SASS instructions/element (counters) | GB/s |")
        for s in result["series"]:
            for p in s["points"]:
                e = p.get("extra", {})
                print(f"| {s['label']} | {fmt(e.get('PTX instructions per element'))} | {fmt(e.get('SASS instructions/element (counters)'))} | {fmt((p.get('value') or {}).get('median'), 0)} |")
    elif name == "divergence":
        print("| series | x | SASS instructions/warp (counters) | ms |")
        for s in result["series"]:
            if s["key"]["implementation"] != "rust":
                continue
            for p in s["points"]:
                e = p.get("extra", {})
                print(f"| {s['key']['kernel']} | {p['at']} | {fmt(e.get('SASS instructions/warp (counters)'), 0)} | {fmt((p.get('value') or {}).get('median'), 4)} |")

print("\n### ledger")
for row in report.get("ledger", []):
    print(f"- {row['id']}: **{row['verdict']}** — {row['measured']}")
EOF
fi

echo "== counters summary"
printf '  %s\n' "${results[@]}"
echo "  files: $out/report.json, $out/report.md, $out/probe.log, $out/selftest.log, $out/run.log"
if [ $status -eq 0 ]; then
    echo "COUNTERS GPU CHECKS: PASS"
else
    echo "COUNTERS GPU CHECKS: FAIL"
fi
exit $status
