#!/usr/bin/env bash
# GPU check of the register-blocked SGEMM's tile choice (issue #29, goal 1):
# runs the self-test (every tile against the CPU reference), then the sgemm
# experiment; prints per size the Rust, CUDA C and cuBLAS GFLOP/s and the ratios Rust / cuBLAS (goal >= 0.90) and Rust / CUDA C
# (goal >= 0.97), the tile each size ran and the register-blocked kernels'
# registers and local memory as the driver's JIT compiled them; copies
# report.json to $OUT/sgemm.json. Sizes not made of whole tiles (4095³) run
# the `_guarded_edges` entry (guards only in the blocks crossing an edge of C);
# the setup lines name each size's entry, the kernel table lists the new
# entries' registers and local memory. With NCU=1, also profiles the Rust kernel
# at 1024³ (128 × 64 tile, unsplit, and the split-K series' launch of the same
# tile in two), 4095³ (guarded edges) and 4096³ (128 × 128) with ncu, clocks
# unlocked.
# KERNELS (default "sgemm_register_blocked sgemm_register_blocked_128x64_split_k":
# the register-blocked series, which never splits k, and its split-K series)
# names the kernel series whose rows are printed, e.g.
# KERNELS="sgemm_register_blocked sgemm_warp_tiled" (gpu-checks/sgemm_warptile.sh);
# each kernel's rows come with its ratios, Rust/register-blocked Rust among them
# (split-K's cost or gain at each size).
# Run from the repository root with .gpu/ptxsuite (a stripped release build).
set -uo pipefail
export KERNELS="${KERNELS:-sgemm_register_blocked sgemm_register_blocked_128x64_split_k}"
cd "$(dirname "$0")/.."
out=/tmp/sg
rm -rf "$out"; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The self-test runs every register-blocked tile (not only the one the rule picks) on
# ragged and whole-tile shapes in Rust and CUDA C, against the CPU reference.
start=$(date +%s)
./.gpu/ptxsuite selftest >"$out/selftest.log" 2>&1
echo "selftest: exit $? in $(( $(date +%s) - start )) s"
grep -iE "sgemm|register-blocked|fail|error" "$out/selftest.log" | head -n 20
start=$(date +%s)
./.gpu/ptxsuite run --only sgemm --out "$out" ${RUN_ARGS:-} >"$out/run.log" 2>&1
echo "run --only sgemm: exit $? in $(( $(date +%s) - start )) s"
tail -n 5 "$out/run.log"
python3 - "$out/report.json" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
kernels = os.environ["KERNELS"].split()
for d in r.get("devices", []):
    print(f"device {d['ordinal']}: {d['name']}, {d['multiprocessors']} SMs, sm_{d['compute_capability'][0]}{d['compute_capability'][1]}")
for e in r["experiments"]:
    if e.get("name") != "sgemm":
        continue
    print(f"sgemm: {e['status']['state']}")
    for line in e.get("setup", []):
        print("  setup:", line)
    med, failed = {}, []
    for s in e["series"]:
        key = (s["key"]["kernel"], s["key"]["implementation"])
        for p in s["points"]:
            if p["status"]["state"] == "ok":
                med[key + (p["at"],)] = p["value"]["median"]
            else:
                failed.append(f"{s['label']} @ {p['at']}: {p['status'].get('reason', '')[:300]}")
    sizes = sorted({k[2] for k in med})
    def g(kernel, imp, at):
        return med.get((kernel, imp, at))
    def ratio(a, b):
        return f"{a / b:.3f}" if a and b else "-"
    def gf(x):
        return f"{x:9.0f}" if x else "        -"
    for kernel in kernels:
        print(f"  {kernel}:")
        print("  size   Rust GFLOP/s  CUDA C GFLOP/s  cuBLAS GFLOP/s  Rust/cuBLAS  Rust/CUDA C  CUDA C/cuBLAS  f16 Rust/cuBLAS f16  Rust/register-blocked Rust")
        worst = (9.0, 9.0)
        for at in sizes:
            rust = g(kernel, "rust", at)
            cuda = g(kernel, "cuda-c", at)
            cub = g("cublasSgemm", "cublas", at)
            h = ratio(g("hgemm_f16_storage", "rust", at), g("cublasGemmEx_f16", "cublas", at))
            rb = ratio(rust, g("sgemm_register_blocked", "rust", at))
            print(f"  {at:5d}  {gf(rust)}     {gf(cuda)}       {gf(cub)}       {ratio(rust, cub):>7}      {ratio(rust, cuda):>7}      {ratio(cuda, cub):>7}      {h:>7}              {rb:>7}")
            if rust and cub and cuda:
                worst = (min(worst[0], rust / cub), min(worst[1], rust / cuda))
        print(f"  {kernel}: worst Rust/cuBLAS {worst[0]:.3f} (goal >= 0.90, aim 0.95); worst Rust/CUDA C {worst[1]:.3f} (goal >= 0.97)")
    for f in failed:
        print("  FAILED", f)
    for note in e.get("notes", []):
        if note.startswith("skipped"):
            print("  note:", note)
for k in r.get("kernels", []):
    if "register_blocked" in k["name"] or "hgemm" in k["name"] or "warp_tiled" in k["name"]:
        res = k["resources"]
        print(f"  kernel {k['name']:45s} {k['implementation']:7s} {res['registers_per_thread']:4d} registers, "
              f"{res['local_bytes_per_thread']:3d} B local, {k.get('active_blocks_per_sm')} blocks/SM, "
              f"{k.get('dynamic_shared_bytes')} B shared")
PY
if [ -n "${OUT:-}" ]; then
    cp "$out/report.json" "$OUT/sgemm.json"
    cp "$out/run.log" "$OUT/sgemm.log"
    cp "$out/selftest.log" "$OUT/selftest.log"
    [ -f "$out/report.md" ] && cp "$out/report.md" "$OUT/sgemm.md"
fi

# ncu, clocks unlocked (as the timed run): the Rust kernels at 1024³ (unsplit and
# split-K), 4095³ and 4096³. With --reps 1 --samples 1 each series launches its kernel
# 4 times per size (probe: warm-up + timed; samples: warm-up + 1), and --impl
# rust,cublas leaves only the Rust entries: the 128 × 64 whole-tile entry and the
# split-K entry run first at 1024³ (each its own series' only size on that tile), the
# 128 × 128 whole-tile entry's 5th launch is the first at 4096³ (2048³ runs it 4 times
# before; 4095³ runs the guarded-edges entry, its only size). "Grid Size" in the launch
# statistics tells: 128 blocks at 1024³ unsplit (16 × 8), 256 split-K (16 × 8 × 2),
# 1024 at 4095³ and 4096³. Before each split-K launch the memset that zeroes C runs
# (not a kernel: ncu does not profile it).
if [ "${NCU:-0}" = 1 ]; then
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    sections="--section SpeedOfLight --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis \
--section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section InstructionStats"
    for case in "1024 sgemm_register_blocked_128x64_whole_tiles 0" "1024 sgemm_register_blocked_128x64_split_k 0" \
        "4095 sgemm_register_blocked_guarded_edges 0" "4096 sgemm_register_blocked_whole_tiles 4"; do
        set -- $case
        size=$1 kernel=$2 skip=$3
        log="$out/ncu_${size}_${kernel}.txt"
        start=$(date +%s)
        timeout 300 "$ncu" --clock-control none $sections -k "regex:^${kernel}\$" -s "$skip" -c 1 \
            ./.gpu/ptxsuite run --only sgemm --impl rust,cublas --reps 1 --samples 1 --out "$out/ncu_run_$size" \
            >"$log" 2>&1
        echo "== ncu $kernel at ${size}³ (exit $?, $(( $(date +%s) - start )) s)"
        grep -E "==PROF==|==ERROR==|==WARNING==" "$log" | head -n 5
        grep -E "sgemm_register_blocked|Grid Size|Registers Per|Block Limit|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Duration|SM Frequency|Issue Slots Busy|Executed Ipc A|No Eligible|Warp Cycles Per Issued|Bank Conflicts|Stall|One or More Eligible" "$log" | head -n 40
        [ -n "${OUT:-}" ] && cp "$log" "$OUT/ncu_${size}_${kernel}.txt"
    done
fi
exit 0
