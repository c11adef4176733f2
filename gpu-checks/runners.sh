#!/usr/bin/env bash
# GPU check of the family runners (issue #26 items 2 and 3): each family's
# experiments run through one runner per programming model, a refactor that
# must change no behaviour. One table below names each family: its experiments,
# the experiment_bodies.sh passes that compare this build with main's, the
# selftest rows to show, and its GPU tests. Run on the GPU machine from the
# repository root with, in .gpu/:
#   ptxsuite        this build (cargo build --release --bin ptxsuite)
#   ptxsuite-main   the build before the change, built the same way
#   ptxsuite-old    optional: an older build whose selftest table must also match
#   NAME-*          this build's test binaries for the families chosen (the table's
#                   `tests` column; `cargo test --release --no-run --test NAME ...`):
#                   ptx_checks opencl_kernels opencl_logic gpu_bank_runners gpu_copies
#                   gpu_memory_claims gpu_node gpu_mapped_runners gpu_matrix_multiply
#                   gpu_cuda_std gpu_node_copies gpu_particles gpu_reduction
# Binaries may be gzipped (NAME.gz): they are unpacked first. A chosen family's
# missing test binary is a failure. Rows marked `gl` want the GL loaders in .gl/
# (gpu-checks/gl_loaders.sh: without them the interop is waived on both sides).
# Rows marked `2gpu` need two GPUs for their peer paths: on one GPU they are left
# out unless FAMILIES names them (then their one-GPU part runs: the peer
# experiments waived on both sides, the runner's one-GPU tests).
#
# FAMILIES=a,b,... chooses rows (default: every row that fits the machine);
# `runners.sh --list` prints the table. Steps, for the chosen rows:
#   1. experiment_bodies.sh, this build against main: one pass per distinct set
#      of arguments, on every chosen family that asks for it (quick settings are
#      --samples 3 --reps 3 --size-mib 64; a pass's own --size-mib replaces 64);
#      each must print SAME, and both sides must write the same pictures.
#   2. `selftest` against main's (and the old build's): same rows, statuses, waivers.
#   3. the families' GPU tests (`binary[:name filter]`, one thread; ptx_* binaries
#      compile only: the harness's threads, PTXAS=/usr/local/cuda/bin/ptxas) and
#      scripts; a SKIPPED line that the `fatal skip` column matches is a failure.
# Times on one H100, from the scripts this table replaced: the first four rows with
# ptx-checks and opencl about 7 minutes (the --counters pass alone 4 on 2026-11-27),
# the other one-GPU rows 2 to 3 minutes each, so every row at once takes longer than
# the 10 minutes of one call of the lent machine. Calls that fit:
#   FAMILIES=banks,constant,local,streams,ptx-checks,opencl
#   FAMILIES=alloc,fmachain,latency,texture      FAMILIES=mapped,matmul,particles
#   FAMILIES=instr      FAMILIES=node (on nvidia-h100-x2)
# Writes $OUT/runners/; prints one line "RUNNERS GPU CHECKS: PASS" or FAIL with the reasons.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

# The table, a row a family. needs: gl (the GL loaders), 2gpu (two GPUs) or -.
# passes: experiment_bodies.sh's arguments after the quick settings, ';' between
# (quick: none; - for none: a family new in this build has no main to compare with). selftest rows: words whose selftest lines are shown. tests: test
# binaries with an optional name filter (binary:filter), or a script. fatal skip:
# which SKIPPED lines fail the family's tests: any, none, or a text in the line.
table=$(cat <<'TABLE'
# family   | needs | experiments (ONLY=)                                     | passes                                               | selftest rows             | tests                                                                              | fatal skip
banks      | -     | bank-conflicts,divergence                               | quick; --counters; --impl rust,cuda-c                | -                         | gpu_bank_runners                                                                   | any
constant   | -     | constant-memory                                         | quick; --impl rust,cuda-c                            | -                         | -                                                                                  | -
local      | -     | local-memory                                            | quick; --counters                                    | -                         | -                                                                                  | -
streams    | -     | streams,concurrent-kernels,default-stream               | quick; --impl rust,cuda-c                            | -                         | gpu_copies:streams_runners                                                         | any
alloc      | -     | allocation,batched-copies                               | quick; --size-mib 1                                  | -                         | gpu_memory_claims:allocation_runner gpu_copies:piece_copy_runner                   | any
fmachain   | -     | grid-shape,work-group-size,occupancy                    | quick; --impl rust,cuda-c                            | -                         | gpu_memory_claims:gpu_occupancy opencl_kernels:fma_chain                           | any
latency    | -     | latency,link-latency                                    | quick; --impl rust                                   | pointer_chase fma_latency | gpu_memory_claims:latency gpu_node:link_latency                                    | any
mapped     | -     | zero-copy,mapped-stride,mapped-reuse,transfer-intensity | quick; --impl rust --size-mib 256                    | -                         | gpu_mapped_runners                                                                 | any
matmul     | -     | matmul,cuda-std                                         | quick; --impl rust                                   | -                         | gpu_matrix_multiply:gpu_guide_multiply_runner gpu_cuda_std:gpu_compat_layer_runner | any
node       | 2gpu  | peer,peer-copy-limits,host-links                        | --device all; --device all --impl rust --size-mib 16 | -                         | gpu_node_copies gpu_node                                                           | no NVIDIA driver
particles  | gl    | particles,particle-tuning                               | quick                                                | ^particles:               | gpu_particles                                                                      | gpu_the_particle_runner
texture    | -     | texture-2d                                              | quick; --impl rust                                   | texture_2d_tile_sample    | gpu_copies:texture_2d                                                              | any
instr      | -     | instructions,math-functions,opencl-arithmetic,accuracy  | quick; --impl rust; --impl rust,opencl               | throughput math_function_values | gpu_throughput_runners gpu_execution_claims:gpu_throughput gpu_execution_claims:gpu_function_values | any
reduction  | -     | reduction                                               | -                                                    | -                         | gpu_reduction opencl_kernels:reduction                                             | any
ptx-checks | -     | -                                                       | -                                                    | -                         | ptx_checks                                                                         | none
opencl     | -     | -                                                       | -                                                    | -                         | gpu-checks/opencl.sh                                                               | none
TABLE
)

if [ "${1:-}" = --list ]; then
    echo "$table"
    exit 0
elif [ $# -gt 0 ]; then
    echo "usage: [FAMILIES=a,b] [OUT=dir] $0 [--list]" >&2
    exit 2
fi

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
declare -A needs experiments passes selftest_rows tests fatal_skip
order=()
while IFS='|' read -r family need only pass shown test skip; do
    family=$(trim "$family")
    [ -n "$family" ] && [ "${family:0:1}" != "#" ] || continue
    order+=("$family")
    needs[$family]=$(trim "$need")
    experiments[$family]=$(trim "$only")
    passes[$family]=$(trim "$pass")
    selftest_rows[$family]=$(trim "$shown")
    tests[$family]=$(trim "$test")
    fatal_skip[$family]=$(trim "$skip")
done <<<"$table"

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
echo "== $gpus GPU(s)"
chosen=()
if [ -n "${FAMILIES:-}" ]; then
    IFS=',' read -ra asked <<<"$FAMILIES"
    for family in "${asked[@]}"; do
        family=$(trim "$family")
        if [ -z "${needs[$family]+set}" ]; then
            echo "runners.sh: unknown family '$family' in FAMILIES (known: ${order[*]})" >&2
            exit 2
        fi
        chosen+=("$family")
        if [ "${needs[$family]}" = 2gpu ] && [ "$gpus" -lt 2 ]; then
            echo "$family: $gpus GPU(s): its peer paths are waived on both sides; its one-GPU part runs"
        fi
    done
else
    for family in "${order[@]}"; do
        if [ "${needs[$family]}" = 2gpu ] && [ "$gpus" -lt 2 ]; then
            echo "$family: left out: needs two GPUs for its peer paths, this machine has $gpus (FAMILIES=$family runs its one-GPU part)"
            continue
        fi
        chosen+=("$family")
    done
fi
echo "== families: ${chosen[*]}"

for family in "${chosen[@]}"; do
    if [ "${needs[$family]}" = gl ]; then
        # shellcheck source=gpu-checks/gl_loaders.sh
        . gpu-checks/gl_loaders.sh
        unpack_gl_loaders runners
        break
    fi
done
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-/tmp/runners-check}/runners
mkdir -p "$out"
failures=()
fail() { echo "FAIL: $*"; failures+=("$*"); }
shopt -s nullglob
for packed in .gpu/*.gz; do gunzip -f "$packed" && chmod +x "${packed%.gz}"; done

# The passes: one per distinct argument list, on every chosen family that asks for it.
pass_args=() pass_only=() pass_families=()
for family in "${chosen[@]}"; do
    # A family new in this build (passes `-`) has no main to compare with.
    [ "${experiments[$family]}" != - ] && [ "${passes[$family]}" != - ] || continue
    IFS=';' read -ra wanted <<<"${passes[$family]}"
    for extra in "${wanted[@]}"; do
        extra=$(trim "$extra")
        [ "$extra" = quick ] && extra=
        for ((i = 0; i < ${#pass_args[@]}; i++)); do
            [ "${pass_args[i]}" = "$extra" ] && break
        done
        if [ "$i" -eq ${#pass_args[@]} ]; then
            pass_args+=("$extra") pass_only+=("") pass_families+=("")
        fi
        pass_only[i]+=${pass_only[i]:+,}${experiments[$family]}
        pass_families[i]+=${pass_families[i]:+,}$family
    done
done

if [ ${#pass_args[@]} -gt 0 ]; then
    for bin in ./.gpu/ptxsuite ./.gpu/ptxsuite-main; do
        [ -x "$bin" ] || { echo "FAIL: no $bin (see the header of $0)"; echo "RUNNERS GPU CHECKS: FAIL: no $bin"; exit 1; }
    done
fi

for ((i = 0; i < ${#pass_args[@]}; i++)); do
    step=1.$((i + 1)) extra=${pass_args[i]} only=${pass_only[i]}
    run_args="--samples 3 --reps 3"
    [[ " $extra " == *" --size-mib "* ]] || run_args+=" --size-mib 64"
    run_args+=${extra:+ $extra}
    echo "== $step ${pass_families[i]} ($only), this build against main: $run_args"
    OUT="$out/bodies-$step" ONLY="$only" RUN_ARGS="$run_args" bash gpu-checks/experiment_bodies.sh \
        >"$out/bodies-$step.log" 2>&1
    grep -E 'exit|SAME' "$out/bodies-$step.log"
    tail -n 1 "$out/bodies-$step.log" | grep -qx SAME || { tail -n 30 "$out/bodies-$step.log"; fail "$step (${pass_families[i]}: $run_args) differs from main"; }
    grep -h -E 'FAILED|failed' "$out/bodies-$step/bodies-branch/report.md" 2>/dev/null | head -n 5
    for side in branch main; do
        (cd "$out/bodies-$step/bodies-$side" 2>/dev/null && for picture in *.png; do echo "$picture"; done) \
            >"$out/bodies-$step/pictures-$side.txt"
    done
    if [ -s "$out/bodies-$step/pictures-branch.txt" ] || [ -s "$out/bodies-$step/pictures-main.txt" ]; then
        echo "pictures (this build): $(tr '\n' ' ' <"$out/bodies-$step/pictures-branch.txt")"
    fi
    cmp -s "$out/bodies-$step/pictures-branch.txt" "$out/bodies-$step/pictures-main.txt" \
        || fail "$step: the pictures written differ from main's"
    if [[ ",$only," == *,particles,* ]] && ! grep -q 'particles-gl-' "$out/bodies-$step/pictures-branch.txt"; then
        echo "note: no OpenGL picture (interop waived on this machine)"
    fi
done

if [ ${#pass_args[@]} -gt 0 ]; then
    echo "== 2. selftest against main's (and the old build's)"
    shown=
    for family in "${chosen[@]}"; do
        for row in ${selftest_rows[$family]}; do
            [ "$row" = - ] || shown+=${shown:+|}$row
        done
    done
    for side in ptxsuite ptxsuite-main ptxsuite-old; do
        [ -x ".gpu/$side" ] || continue
        timeout -s INT -k 10 150 ".gpu/$side" selftest >"$out/selftest-$side.log" 2>&1
        echo "$side: exit $?"
        [ -z "$shown" ] || grep -E "$shown" "$out/selftest-$side.log" | sed "s/^/  $side: /"
        sed -E 's/[0-9]+(\.[0-9]+)?/#/g' "$out/selftest-$side.log" >"$out/selftest-$side.masked"
    done
    tail -n 1 "$out/selftest-ptxsuite.log"
    for side in ptxsuite-main ptxsuite-old; do
        [ -f "$out/selftest-$side.masked" ] || continue
        if diff "$out/selftest-$side.masked" "$out/selftest-ptxsuite.masked" >"$out/selftest-$side.diff"; then
            echo "SELFTEST SAME as $side"
        else
            cat "$out/selftest-$side.diff"
            fail "selftest differs from $side's ($side <, this build >)"
        fi
    done
fi

# One test binary (NAME or NAME-<hash> in .gpu/, not a .d file) with an optional name filter, or a script.
run_test() {
    local entry=$1 skip=$2 name filter log candidate binary=
    if [[ $entry == *.sh ]]; then
        log="$out/$(basename "$entry" .sh).log"
        bash "$entry" >"$log" 2>&1 || fail "$entry failed"
        grep -E '^(== summary|NVIDIA OpenCL|OPENCL GPU CHECKS)|runner|: (ok|FAILED) \(' "$log" | head -n 40
        return
    fi
    name=${entry%%:*} filter=
    [ "$name" = "$entry" ] || filter=${entry#*:}
    log="$out/$name${filter:+-$filter}.log"
    for candidate in .gpu/"$name"{,-*}; do
        case $candidate in *.d) continue ;; esac
        [ -f "$candidate" ] && [ -x "$candidate" ] && binary=$candidate && break
    done
    if [ -z "$binary" ]; then
        fail "no .gpu/$name-* binary: ${filter:-$name} not run (see the header of $0)"
        return
    fi
    if [[ $name == ptx_* ]]; then
        # shellcheck disable=SC2086
        PTXAS=/usr/local/cuda/bin/ptxas "$binary" $filter >"$log" 2>&1 || fail "$name${filter:+ $filter} failed"
    else
        # shellcheck disable=SC2086
        "$binary" --test-threads 1 $filter >"$log" 2>&1 || fail "$name${filter:+ $filter} failed"
    fi
    grep -E '^(SKIPPED|OPENCL DEVICE|test result)|FAILED|panicked|memclaims|link-latency' "$log"
    if [ "$(grep -c '^test .* \.\.\. ' "$log")" -le 20 ]; then
        grep -E '^test .* \.\.\. ' "$log"
    else
        echo "($(grep -c '^test .* \.\.\. ' "$log") tests: $log)"
    fi
    case $skip in
    none | -) ;;
    any) grep -q '^SKIPPED' "$log" && fail "$name${filter:+ $filter} was skipped (no GPU?)" ;;
    *) grep -q "^SKIPPED.*$skip" "$log" && fail "$name${filter:+ $filter} was skipped: $(grep -m1 "^SKIPPED.*$skip" "$log")" ;;
    esac
}

echo "== 3. the families' tests"
ran=" "
for family in "${chosen[@]}"; do
    for entry in ${tests[$family]}; do
        [ "$entry" != - ] || continue
        [[ $ran == *" $entry "* ]] && continue
        ran+="$entry "
        echo "-- $family: $entry"
        run_test "$entry" "${fatal_skip[$family]}"
    done
done

if [ ${#failures[@]} -eq 0 ]; then
    echo "RUNNERS GPU CHECKS: PASS (${chosen[*]})"
    exit 0
fi
summary=$(printf '%s; ' "${failures[@]}")
echo "RUNNERS GPU CHECKS: FAIL (${chosen[*]}): ${summary%; }"
exit 1
