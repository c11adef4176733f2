#!/usr/bin/env bash
# GPU check of the bodies branch (issue #26 item 4: short Experiment::run
# bodies, a refactor that must change no behaviour). Runs the experiments it
# touched with the branch's binary (.gpu/ptxsuite) and with main's
# (.gpu/ptxsuite-main), same quick settings, and compares the two reports'
# shape: each experiment's status, series keys and labels, each series'
# points (position, status, which extra figures), the axis, byte counting,
# setup and notes with every number masked (the figures differ run to run;
# the text and the structure must not). Prints "SAME" or each difference.
# About 3 minutes on an H100 (particles is left out for time: ONLY=particles
# checks it alone). Run from the repository root; writes
# $OUT/bodies-{branch,main}/ (report.json, run.log) and $OUT/compare.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/bodies-check}
mkdir -p "$out"
only=${ONLY:-latency,streams,constant-memory,transfers,divergence,occupancy,bank-conflicts,matvec,instructions,sgemm,zero-copy,allocation,matmul,loop-counters,local-memory,batched-copies,mapped-stride,mapped-reuse,default-stream,work-group-size,grid-shape,transfer-intensity,concurrent-kernels}
args=${RUN_ARGS:---samples 3 --reps 3 --size-mib 64}
for side in branch main; do
    bin=./.gpu/ptxsuite; [ "$side" = main ] && bin=./.gpu/ptxsuite-main
    dir="$out/bodies-$side"; rm -rf "$dir"; mkdir -p "$dir"
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$bin" run --only "$only" --out "$dir" $args >"$dir/run.log" 2>&1
    echo "$side: exit $? in $(( $(date +%s) - start )) s"
done
python3 - "$out/bodies-branch/report.json" "$out/bodies-main/report.json" <<'PY' | tee "$out/compare.txt"
import json, re, sys
num = re.compile(r"[-+]?\d[\d.,]*(?:e[-+]?\d+)?")
def mask(text):
    return num.sub("#", text)
def shape(path):
    report = json.load(open(path))
    experiments = {}
    for e in report["experiments"]:
        key = (e["name"], e.get("device"))
        experiments[key] = {
            "status": e["status"]["state"],
            "axis": mask(json.dumps(e.get("axis"), sort_keys=True)),
            "byte_counting": mask(e.get("byte_counting", "")),
            "setup": [mask(s) for s in e.get("setup", [])],
            "notes": sorted(mask(n) for n in e.get("notes", [])),
            "waived": sorted(w["what"] for w in e.get("waived", [])),
            "series": [
                (json.dumps(s["key"], sort_keys=True), s["label"],
                 [(json.dumps(p["at"]), p["status"]["state"], sorted(p.get("extra", {})))
                  for p in s["points"]])
                for s in e["series"]
            ],
        }
    return experiments
branch, main = shape(sys.argv[1]), shape(sys.argv[2])
differences = 0
for key in sorted(set(branch) | set(main), key=str):
    b, m = branch.get(key), main.get(key)
    if b is None or m is None:
        print(f"{key}: only in {'main' if b is None else 'branch'}")
        differences += 1
        continue
    for field in b:
        if b[field] != m[field]:
            differences += 1
            print(f"{key} {field} differs:")
            if field == "series":
                for i, (x, y) in enumerate(zip(b[field], m[field])):
                    if x != y:
                        print(f"   series {i}: branch {str(x)[:400]}\n              main   {str(y)[:400]}")
                if len(b[field]) != len(m[field]):
                    print(f"   {len(b[field])} series on the branch, {len(m[field])} on main")
            else:
                print(f"   branch {str(b[field])[:600]}\n   main   {str(m[field])[:600]}")
    print(f"{key[0]}: {b['status']} / {m['status']}, {len(b['series'])} series, "
          f"{sum(len(s[2]) for s in b['series'])} points")
print("SAME" if differences == 0 else f"{differences} differences")
PY
