#!/usr/bin/env bash
# GPU check of the tex2d branch: the texture-2d experiment (Best Practices
# Guide §3.2.4 and Table 3.4). Warps read one 32-texel tile each (32x1 row
# strip, 8x4, 4x8, 1x32 column walk) of an f32 image of four L2s through
# ld.global.nc over a row-major buffer and through a 2-D texture over a CUDA
# array; then the shifted fetch with linear filtering, normalized coordinates
# and wrap addressing against a point-sampled, unnormalized, clamped one.
# Prints every series' GB/s (min/median/max) per tile width and its ratio to
# the plain loads at the same tile, the filter's largest error, every failed
# point and waiver, the setup and notes, and the six ledger rows; then
# `selftest` (its texture_2d line and its summary).
# Build: cargo build --release --bin ptxsuite && mkdir -p .gpu && strip -o .gpu/ptxsuite target/release/ptxsuite
# Run from the repository root; about 1 minute of GPU time;
# writes $OUT/texture2d.json, $OUT/texture2d.log and $OUT/texture2d-selftest.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out=/tmp/texture2d-report
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x /usr/local/cuda/bin/ptxas ] && export PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
[ -x /usr/local/cuda/bin/nvdisasm ] && export NVDISASM=${NVDISASM:-/usr/local/cuda/bin/nvdisasm}
start=$(date +%s)
./.gpu/ptxsuite run --only texture-2d --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only texture-2d: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
python3 - "$out/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for e in r["experiments"]:
    if e["name"] != "texture-2d":
        continue
    pts = [(s["label"], p) for s in e["series"] for p in s["points"]]
    failed = [(l, p) for l, p in pts if p["status"]["state"] == "failed"]
    print(f"{e['name']}: {e['status']['state']}, {len(e['series'])} series, {len(pts)} points, {len(failed)} failed")
    for l, p in failed:
        print(f"   FAILED {l} @ {p['at']}: {p['status'].get('reason', '')[:300]}")
    for w in e.get("waived", []):
        print(f"   waived {w['what']}: {w['reason'][:300]}")
    for line in e.get("setup", []) + e.get("notes", []):
        print(f"   note: {line[:600]}")
    plain = {}
    for s in e["series"]:
        if s["key"]["kernel"] == "global_2d_tile_load":
            plain[s["key"]["implementation"]] = {str(p["at"]): (p.get("value") or {}).get("median") for p in s["points"]}
    for s in e["series"]:
        base = plain.get(s["key"]["implementation"], {})
        for p in s["points"]:
            v = p.get("value") or {}
            med = v.get("median")
            b = base.get(str(p["at"]))
            ratio = f"{med / b:.3f}x plain" if med and b else "-"
            extra = p.get("extra") or {}
            err = extra.get("max filter error (1/256 of span)")
            errs = f", filter error {err:.3f}/256" if err is not None else ""
            print(f"   {s['label']} @ tile {p['at']}: {v.get('min', float('nan')):.0f} / "
                  f"{med if med is not None else float('nan'):.0f} / {v.get('max', float('nan')):.0f} GB/s "
                  f"({ratio}){errs}")
ids = ("bpg-3.2.4-texture-2d-vs-global", "bpg-3.2.4-texture-2d-locality", "bpg-3.2.4.2-filtering-cost",
       "bpg-3.2.4.2-filtering-precision", "bpg-3.2.4.2-normalized-cost", "bpg-3.2.4.2-wrap-cost")
seen = set()
for row in r.get("ledger", []):
    if row["id"] in ids:
        seen.add(row["id"])
        f = row.get("figure")
        fs = f"{f['low']:.3g}/{f['median']:.3g}/{f['high']:.3g}" if f else "-"
        print(f"  [{row['verdict']}] {row['id']} {fs} :: {row['measured'][:900]}")
for missing in sorted(set(ids) - seen):
    print(f"  [no row] {missing}")
PY
start=$(date +%s)
./.gpu/ptxsuite selftest >"$out/selftest.log" 2>&1
echo "selftest: exit $? in $(( $(date +%s) - start )) s"
grep -i -E "texture_2d|fail|passed|checks" "$out/selftest.log" | head -n 20
[ -n "${OUT:-}" ] && cp "$out/report.json" "$OUT/texture2d.json" && cp "$out/run.log" "$OUT/texture2d.log" \
    && cp "$out/selftest.log" "$OUT/texture2d-selftest.log"
exit 0
