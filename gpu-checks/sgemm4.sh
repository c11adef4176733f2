#!/usr/bin/env bash
# GPU check of the register-blocked SGEMM's loads at unaligned sizes (issue #29,
# goal 1: Rust >= 0.90 of cuBLAS at every size). Rows of a length that is not a
# multiple of 4 (4095³) are now staged through two aligned float4 loads and a
# shift, not float by float. Runs the sgemm experiment (every GEMM checked
# against the CPU reference, and against cuBLAS where it is there) into
# $OUT/sgemm and prints, per size, the Rust / cuBLAS and Rust / CUDA C ratios
# (and the f16-storage one), any failed point, and the register-blocked
# kernels' registers and local memory as the driver's JIT compiled them.
# Run from the repository root with .gpu/ptxsuite (a release build); ~2 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/sgemm4}/sgemm
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
start=$(date +%s)
./.gpu/ptxsuite run --only sgemm --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only sgemm: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
[ -f "$out/report.json" ] || { echo "no report.json"; exit 0; }
python3 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for d in r.get("devices", []):
    print(f"device {d['ordinal']}: {d['name']}, {d['multiprocessors']} SMs, "
          f"sm_{d['compute_capability'][0]}{d['compute_capability'][1]}")
for e in r["experiments"]:
    if e.get("name") != "sgemm":
        continue
    print(f"sgemm: {e['status']['state']}")
    med, failed = {}, []
    for s in e["series"]:
        key = (s["key"]["kernel"], s["key"]["implementation"])
        for p in s["points"]:
            if p["status"]["state"] == "ok":
                med[key + (p["at"],)] = p["value"]["median"]
            else:
                failed.append(f"{s['label']} @ {p['at']}: {p['status'].get('reason', '')[:300]}")
    sizes = sorted({k[2] for k in med})
    g = lambda kernel, imp, at: med.get((kernel, imp, at))
    ratio = lambda a, b: f"{a / b:.3f}" if a and b else "-"
    gf = lambda x: f"{x:9.0f}" if x else "        -"
    print("  size   Rust GFLOP/s  CUDA C GFLOP/s  cuBLAS GFLOP/s  Rust/cuBLAS  Rust/CUDA C  f16 Rust/cuBLAS")
    worst = 9.0
    for at in sizes:
        rust = g("sgemm_register_blocked", "rust", at)
        cuda = g("sgemm_register_blocked", "cuda-c", at)
        cub = g("cublasSgemm", "cublas", at)
        h = ratio(g("hgemm_f16_storage", "rust", at), g("cublasGemmEx_f16", "cublas", at))
        print(f"  {at:5d}  {gf(rust)}     {gf(cuda)}       {gf(cub)}       {ratio(rust, cub):>7}      "
              f"{ratio(rust, cuda):>7}      {h:>7}")
        if rust and cub:
            worst = min(worst, rust / cub)
    print(f"  worst Rust/cuBLAS {worst:.3f} (goal >= 0.90)")
    for f in failed:
        print("  FAILED", f)
for k in r.get("kernels", []):
    if "register_blocked" in k["name"] or "hgemm" in k["name"]:
        res = k["resources"]
        print(f"  kernel {k['name']:45s} {k['implementation']:7s} {res['registers_per_thread']:4d} registers, "
              f"{res['local_bytes_per_thread']:3d} B local, {k.get('active_blocks_per_sm')} blocks/SM")
PY
exit 0
