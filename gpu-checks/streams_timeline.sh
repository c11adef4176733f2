#!/usr/bin/env bash
# Issue #29 goal 2: where does the staged pipeline (Listing 3.3b) lose time
# against the guide's model at many streams? Runs `streams` with the driver's
# default number of hardware connections and with CUDA_DEVICE_MAX_CONNECTIONS=32
# (streams beyond the connections share a hardware queue, which orders their
# work), printing each count's staged times beside the model; then, where nsys
# exists, records one short run's CUDA trace and prints, for the 16-stream
# pipeline, each upload's and kernel's start and length and the gaps of the copy
# engine. Run from the repository root with .gpu/ptxsuite; about 2 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/streams-timeline}/streams-timeline
mkdir -p "$out"
series() {
    python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for e in r["experiments"]:
    if e["name"] != "streams":
        continue
    rows = {}
    for s in e["series"]:
        if s["label"].startswith(("staged", "model", "OpenCL staged, ALLOC")):
            rows[s["label"]] = {p["at"]: p["value"]["median"] for p in s["points"] if p.get("value")}
    model = rows.get("model: max + min / nStreams", {})
    for label, points in rows.items():
        print(f"  {label[:44]:44s} " + " ".join(f"{n}:{v:.3f}" for n, v in sorted(points.items())))
    for label, points in rows.items():
        if label.startswith("staged"):
            print(f"  {label[:44]:44s} / model " + " ".join(f"{n}:{v / model[n]:.3f}" for n, v in sorted(points.items()) if n in model))
PY
}
for connections in default 32; do
    dir="$out/connections-$connections"; mkdir -p "$dir"
    if [ "$connections" = default ]; then
        timeout 100 ./.gpu/ptxsuite run --only streams ${RUN_ARGS:-} --out "$dir" >"$dir/run.log" 2>&1
    else
        CUDA_DEVICE_MAX_CONNECTIONS=$connections timeout 100 ./.gpu/ptxsuite run --only streams ${RUN_ARGS:-} --out "$dir" >"$dir/run.log" 2>&1
    fi
    echo "== connections $connections: exit $?"
    series "$dir/report.json"
done
if command -v nsys >/dev/null; then
    echo "== nsys $(nsys --version 2>/dev/null | head -1)"
    timeout 80 nsys profile --trace=cuda --sample=none --cpuctxsw=none -o "$out/trace" --force-overwrite true \
        ./.gpu/ptxsuite run --only streams --samples 1 --reps 1 --out "$out/traced" >"$out/nsys.log" 2>&1
    echo "nsys: exit $?"
    nsys stats --report cuda_gpu_trace --format csv --output "$out/gpu" "$out/trace.nsys-rep" >/dev/null 2>&1
    ls "$out"
    gzip -f "$out"/gpu*.csv 2>/dev/null
else
    echo "== no nsys"
fi
