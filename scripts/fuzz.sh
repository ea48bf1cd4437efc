#!/usr/bin/env bash
# Runs the libFuzzer targets built by `make fuzz-build` (docs/fuzzing.md).
#
#   scripts/fuzz.sh SECONDS TARGET...   fuzz each target for SECONDS, one after the other
#                                       (FUZZ_PARALLEL=1: all at once)
#   scripts/fuzz.sh smoke TARGET...     replay each target's corpus once, no fuzzing
#
# Seeds come from Fuzz/Corpus/<target> (never written to); what a run discovers goes to
# $FUZZ_BUILD/corpus/<target>, kept between runs. A crash, a broken invariant, a timeout or a
# memory blow-up is saved as Fuzz/Crashes/<target>/<kind>-<sha1>. Prints per target the
# executions per second and libFuzzer's coverage figures (cov: edges, ft: features).
set -u
cd "$(dirname "$0")/.."
mode=$1; shift
build=${FUZZ_BUILD:-.build-fuzz}
bin=$build/release
logs=$build/logs
mkdir -p "$logs"
# Swift's own crash reporter would catch the trap before libFuzzer saves the input.
export SWIFT_BACKTRACE=enable=no

max_len() { [ "$1" = demod ] && echo 12000 || echo 4096; }

run_one() {
    local target=$1 log=$logs/$1.log
    local binary=$bin/fuzz-$target
    [ -x "$binary" ] || { echo "$binary is missing: run make fuzz-build" >&2; return 2; }
    mkdir -p "Fuzz/Crashes/$target" "$build/corpus/$target"
    if [ "$mode" = smoke ]; then
        "$binary" -runs=0 -timeout=10 -print_final_stats=1 "Fuzz/Corpus/$target" >"$log" 2>&1
    else
        "$binary" -max_total_time="$mode" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$target")" \
            -print_final_stats=1 -artifact_prefix="Fuzz/Crashes/$target/" \
            "$build/corpus/$target" "Fuzz/Corpus/$target" >"$log" 2>&1
    fi
}

report() {
    local target=$1 status=$2 log=$logs/$1.log
    local execs rate line
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    line=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]* corp: [^ ]*' | tail -n 1)
    printf '%-13s %-8s %10s runs %8s exec/s  %s\n' "$target" "$([ "$status" = 0 ] && echo ok || echo FAILED)" \
        "${execs:-?}" "${rate:-?}" "${line:-}"
    if [ "$status" != 0 ]; then
        grep -E 'Fatal error|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" | head -n 5 | sed 's/^/    /'
        echo "    full log: $log"
    fi
}

failed=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ] && [ "$mode" != smoke ]; then
    declare -A pids
    for target in "$@"; do run_one "$target" & pids[$target]=$!; done
    for target in "$@"; do wait "${pids[$target]}"; status=$?; report "$target" $status; [ $status = 0 ] || failed=1; done
else
    for target in "$@"; do run_one "$target"; status=$?; report "$target" $status; [ $status = 0 ] || failed=1; done
fi
exit $failed
