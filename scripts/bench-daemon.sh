#!/usr/bin/env bash
# CPU and memory of the whole daemon replaying a 2.4 MS/s recording at real-time pace, looped:
# what a live dongle costs. Targets: under 5% of one core, under 40 MB resident, on a
# 300-aircraft sky. A daemon this idle is at the mercy of the machine (caches and clocks that
# other work disturbs), so RUNS runs (3 by default) of SECONDS_TO_RUN seconds each are
# measured, and the median is the figure; the range shows how much the machine moved.
# readsb (READSB, by default ../shared/peers/readsb; READSB= leaves it out) is measured the
# same way in each run, right after ours, reading the same samples looped at real time
# (`--throttle`), so the figure can be read against an established decoder on this machine.
# DAEMON_JSON=FILE also writes the figures there, for the targets table of scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${BINARY:-.build/release/aviator-adsb}
seconds=${SECONDS_TO_RUN:-20}
runs=${RUNS:-3}
readsb=${READSB-${SHARED:-../shared}/peers/readsb}
if [ -n "$readsb" ] && ! [ -x "$readsb" ]; then
    echo "bench-daemon: readsb not found at $readsb (READSB= measures the daemon alone)" >&2; exit 2; fi
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-daemon: RUNS must be a positive whole number, not '$runs'" >&2; exit 2; fi
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-daemon: SECONDS_TO_RUN must be a positive whole number, not '$seconds'" >&2; exit 2; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${SAMPLE:-}" ]; then
    # The memory target is stated for 300 aircraft: make a busy sky that large.
    sample=$work/busy-300.cu8
    "$binary" simulate --out "$sample" --busy --aircraft 300 --duration 5 --seed 4242 \
        --receiver 52.3,4.75 2>/dev/null
else
    sample=$SAMPLE
fi

ticks=$(getconf CLK_TCK)
# CPU ticks (user + system) of process $1 so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Measures process $1 for $seconds seconds after 2 s of start-up (not steady state): sets
# `share` to its share of one core in %, and raises the peak resident size (kB) held in the
# variable named $2, and the peak of its own memory (kB: heap, stacks, buffers; the rest of
# the resident size is code and libraries mapped from files, which other processes share
# and the kernel can drop) in the variable named $3.
measure() {
    local pid=$1 peak_var=$2 anon_var=$3 t0 t1 rss_kb anon_kb
    sleep 2
    t0=$(cpu_ticks "$pid")
    for _ in $(seq "$seconds"); do
        sleep 1
        # A process that has gone reads as 0 (the CPU figure below then says it).
        read -r rss_kb anon_kb < <(awk '/^VmRSS/ {r = $2} /^RssAnon/ {a = $2} END {print r + 0, a + 0}' \
            "/proc/$pid/status" 2>/dev/null) || true
        (( ${rss_kb:-0} > ${!peak_var} )) && printf -v "$peak_var" "%s" "$rss_kb"
        (( ${anon_kb:-0} > ${!anon_var} )) && printf -v "$anon_var" "%s" "$anon_kb"
    done
    t1=$(cpu_ticks "$pid")
    share=$(awk -v u="$((t1 - t0))" -v t="$ticks" -v s="$seconds" 'BEGIN {printf "%.1f", 100 * u / t / s}')
}
# The median, lowest and highest of the numbers given.
spread() {
    printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f %.1f %.1f\n", m, v[1], v[NR]}'
}
cpus=()
peak=0
anon=0
peer_cpus=()
peer_peak=0
peer_anon=0
aircraft=""
for run in $(seq "$runs"); do
    "$binary" --replay "$sample" --throttle --loop --receiver 52.3,4.75 --socket "$work/feed.sock" \
        --stats-interval 3600 --log-level info 2>"$work/log" &
    pid=$!
    trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
    measure "$pid" peak anon
    kill -INT $pid
    wait $pid || true
    aircraft=$(grep -o '[0-9]* aircraft' "$work/log" | tail -1)
    cpus+=("$share")
    echo "daemon: run $run of $runs: ${cpus[-1]}% of one core" >&2
    [ -n "$readsb" ] || continue
    # readsb reads the recording looped from a pipe, at the pace of its capture.
    (while cat "$sample"; do :; done) | "$readsb" --device-type ifile --ifile - --iformat UC8 --throttle \
        --quiet >/dev/null 2>"$work/readsb.log" &
    pid=$!  # the pipeline's last process: readsb
    sleep 0.5
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "bench-daemon: readsb stopped at once:" >&2; cat "$work/readsb.log" >&2; exit 1; fi
    measure "$pid" peer_peak peer_anon
    kill $pid
    wait || true
    peer_cpus+=("$share")
    echo "daemon: run $run of $runs: readsb ${peer_cpus[-1]}% of one core" >&2
done
read -r median low high < <(spread "${cpus[@]}")
peer_json=""
peer_text=""
if [ -n "$readsb" ]; then
    read -r peer_median peer_low peer_high < <(spread "${peer_cpus[@]}")
    peer_json=", \"readsb_cpu_percent\": $peer_median, \"readsb_peak_rss_mb\": $((peer_peak / 1024)),"
    peer_json+=" \"readsb_peak_anon_mb\": $((peer_anon / 1024))"
    peer_text="; readsb in the same runs: ${peer_median}% (${peer_low}% to ${peer_high}%), peak RSS $((peer_peak / 1024)) MB"
    peer_text+=" ($((peer_anon / 1024)) MB its own)"
fi
if [ -n "${DAEMON_JSON:-}" ]; then
    printf '{"cpu_percent": %s, "cpu_low": %s, "cpu_high": %s, "runs": %s, "peak_rss_mb": %s, "peak_anon_mb": %s%s}\n' \
        "$median" "$low" "$high" "$runs" "$((peak / 1024))" "$((anon / 1024))" "$peer_json" >"$DAEMON_JSON"
fi
echo "daemon: $(basename "$sample") at 2.4 MS/s real time, ${aircraft:-? aircraft}:" \
    "${median}% of one core, median of $runs runs of ${seconds} s (${low}% to ${high}%; target < 5%)," \
    "peak RSS $((peak / 1024)) MB (target < 40 MB; $((anon / 1024)) MB its own, the rest code mapped from files)$peer_text"
