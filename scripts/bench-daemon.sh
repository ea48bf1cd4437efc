#!/usr/bin/env bash
# CPU and memory of the whole daemon replaying a 2.4 MS/s recording at real-time pace, looped:
# what a live dongle costs. Targets: under 5% of one core, under 40 MB resident, on a
# 300-aircraft sky. A daemon this idle is at the mercy of the machine (caches and clocks that
# other work disturbs), so RUNS runs (3 by default) of SECONDS_TO_RUN seconds each are
# measured, and the median is the figure; the range shows how much the machine moved.
# DAEMON_JSON=FILE also writes the figures there, for the targets table of scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${BINARY:-.build/release/aviator-adsb}
seconds=${SECONDS_TO_RUN:-20}
runs=${RUNS:-3}
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
cpus=()
peak=0
aircraft=""
for run in $(seq "$runs"); do
    "$binary" --replay "$sample" --throttle --loop --receiver 52.3,4.75 --socket "$work/feed.sock" \
        --stats-interval 3600 --log-level info 2>"$work/log" &
    pid=$!
    trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
    sleep 2  # start-up is not steady state
    read -r u0 s0 < <(awk '{print $14, $15}' /proc/$pid/stat)
    for _ in $(seq "$seconds"); do
        sleep 1
        rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
        (( rss > peak )) && peak=$rss
    done
    read -r u1 s1 < <(awk '{print $14, $15}' /proc/$pid/stat)
    kill -INT $pid
    wait $pid || true
    aircraft=$(grep -o '[0-9]* aircraft' "$work/log" | tail -1)
    cpu=$(awk -v u="$((u1 + s1 - u0 - s0))" -v t="$ticks" -v s="$seconds" 'BEGIN {printf "%.1f", 100 * u / t / s}')
    echo "daemon: run $run of $runs: ${cpu}% of one core" >&2
    cpus+=("$cpu")
done
read -r median low high < <(printf '%s\n' "${cpus[@]}" | sort -n | awk '{v[NR] = $1} END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f %.1f %.1f\n", m, v[1], v[NR]}')
if [ -n "${DAEMON_JSON:-}" ]; then
    printf '{"cpu_percent": %s, "cpu_low": %s, "cpu_high": %s, "runs": %s, "peak_rss_mb": %s}\n' \
        "$median" "$low" "$high" "$runs" "$((peak / 1024))" >"$DAEMON_JSON"
fi
echo "daemon: $(basename "$sample") at 2.4 MS/s real time, ${aircraft:-? aircraft}:" \
    "${median}% of one core, median of $runs runs of ${seconds} s (${low}% to ${high}%; target < 5%)," \
    "peak RSS $((peak / 1024)) MB (target < 40 MB)"
