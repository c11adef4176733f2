#!/bin/bash
# Issue 21's verification: three runs of `transfers,streams`, each beside a CUDA C program copying
# pageable memory with cudaMemcpy (pageable_reference.cu, built here with nvcc); prints the
# pageable figures at 256 MiB and every stream count's measured / model ratio of each run.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/nvidia/lib64:$LD_LIBRARY_PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/ts"
nvcc -O2 -o /tmp/pageable_reference gpu-checks/pageable_reference.cu || exit 2
for run in 1 2 3; do
  /tmp/pageable_reference 256 33
  timeout 200 ./.gpu/ptxsuite run --only transfers,streams --out "$OUT/ts/run$run" > "$OUT/ts/run$run.log" 2>&1
  echo "run $run: exit $?"
  python3 - "$OUT/ts/run$run/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for e in r["experiments"]:
    for s in e["series"]:
        k = s["key"]
        if e["name"] == "transfers" and k.get("variant") == "pageable":
            p = [p for p in s["points"] if p["at"] == 262144]
            if p and p[0].get("value"):
                v = p[0]["value"]
                print(f"  transfers {k['kernel']} pageable 256 MiB: {v['median']:.2f} ({v['min']:.2f}-{v['max']:.2f}) GB/s")
    if e["name"] == "streams":
        get = lambda impl: next((s for s in e["series"] if s["key"]["implementation"] == impl and s["key"].get("variant") == "staged"), None)
        st, mo = get("rust"), get("model")
        if st and mo:
            m = {p["at"]: p["value"]["median"] for p in mo["points"] if p.get("value")}
            ratios = [f"{p['at']}:{p['value']['median'] / m[p['at']]:.3f}" for p in st["points"] if p.get("value") and p["at"] in m]
            print("  streams measured/model:", " ".join(ratios))
PY
done
