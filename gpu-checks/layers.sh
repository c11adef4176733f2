#!/usr/bin/env bash
# GPU check of the layers branch (issue #26 item 5: the telemetry section's
# types moved from host/nvml/ to host/facts/, the kernel-timeout default from
# gpu/ to run_settings, sgemm's cuBLAS reference into its launcher family; a
# refactor that must change neither a measurement nor a byte of report.json's
# shape). Runs the same short run with the branch's binary (.gpu/ptxsuite) and
# main's (.gpu/ptxsuite-main) through experiment_bodies.sh, which compares each
# experiment's status, series, points and extras with every number masked
# (figures differ run to run; names and structure must not), then compares:
#   1. the JSON key paths of the whole report.json (devices, settings,
#      telemetry with its NVML facts, links and summaries, experiments);
#   2. each binary reading the other's report: render, and compare in both
#      directions (exit 0 or 3 only: 3 is a slower point, run-to-run noise);
#   3. `info --json` key paths (NVML's facts and links live there too).
# Prints "SAME" or each difference (experiment_bodies.sh's, then the key
# paths'). About 3 minutes on an H100. Run from the repository root; writes
# $OUT/bodies-{branch,main}/, $OUT/compare.txt (the bodies) and $OUT/keys.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/layers-check}
mkdir -p "$out"
OUT="$out" ONLY="${ONLY:-sgemm,transfers,offset,host-links,peer,instructions}" \
    RUN_ARGS="${RUN_ARGS:---samples 3 --reps 3 --size-mib 64}" bash gpu-checks/experiment_bodies.sh
for side in branch main; do
    bin=./.gpu/ptxsuite; [ "$side" = main ] && bin=./.gpu/ptxsuite-main
    "$bin" info --json >"$out/bodies-$side/info.json" 2>"$out/bodies-$side/info.err"
    echo "$side info --json: exit $?"
done
for reader in branch main; do
    bin=./.gpu/ptxsuite; [ "$reader" = main ] && bin=./.gpu/ptxsuite-main
    other=main; [ "$reader" = main ] && other=branch
    rendered="$out/render-by-$reader"; rm -rf "$rendered"; mkdir -p "$rendered"
    "$bin" render "$out/bodies-$other/report.json" --out "$rendered" >"$rendered.log" 2>&1
    echo "$reader renders $other's report: exit $?"
    "$bin" compare "$out/bodies-$other/report.json" "$out/bodies-$reader/report.json" >"$out/compare-by-$reader.txt" 2>&1
    echo "$reader compares $other's report with its own: exit $? (0 or 3 expected)"
done
python3 - "$out/bodies-branch" "$out/bodies-main" <<'PY' | tee "$out/keys.txt"
import json, sys
def key_paths(value, path=""):
    if isinstance(value, dict):
        paths = {path + "{}"}
        for k, v in value.items():
            paths |= key_paths(v, f"{path}.{k}")
        return paths
    if isinstance(value, list):
        paths = {path + "[]"}
        for v in value:
            paths |= key_paths(v, path + "[]")
        return paths
    return {f"{path}: {type(value).__name__}"}
branch_dir, main_dir = sys.argv[1], sys.argv[2]
differences = 0
for name in ["report.json", "info.json"]:
    try:
        b = json.load(open(f"{branch_dir}/{name}"))
        m = json.load(open(f"{main_dir}/{name}"))
    except Exception as e:
        print(f"{name}: could not load both: {e}")
        differences += 1
        continue
    kb, km = key_paths(b), key_paths(m)
    for p in sorted(kb - km):
        print(f"{name}: key path only on the branch: {p}")
    for p in sorted(km - kb):
        print(f"{name}: key path only on main: {p}")
    differences += len(kb ^ km)
    print(f"{name}: {len(kb)} key paths on the branch, {len(km)} on main")
    if name == "report.json":
        for section in ["telemetry", "devices", "settings"]:
            print(f"  {section}: {'present' if section in b else 'absent'} on the branch, "
                  f"{'present' if section in m else 'absent'} on main")
print("SAME" if differences == 0 else f"{differences} differences (a key path present on one side only can be "
      "run-to-run: an optional field such as a clock event reason seen in one run; read them)")
PY
