#!/usr/bin/env bash
# CPU and memory of the whole daemon replaying a 2.4 MS/s recording at real-time pace, looped:
# what a live dongle costs. Targets: under 15% of one core, under 40 MB resident.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${BINARY:-.build/release/aviator-adsb}
sample=${SAMPLE:-Samples/busy-airport.cu8}
seconds=${SECONDS_TO_RUN:-20}

"$binary" --replay "$sample" --throttle --loop --receiver 52.0,4.4 \
    --log-level warning &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep 2  # start-up is not steady state
ticks=$(getconf CLK_TCK)
read -r u0 s0 < <(awk '{print $14, $15}' /proc/$pid/stat)
peak=0
for _ in $(seq "$seconds"); do
    sleep 1
    rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
    (( rss > peak )) && peak=$rss
done
read -r u1 s1 < <(awk '{print $14, $15}' /proc/$pid/stat)
kill -INT $pid
wait $pid || true
trap - EXIT
cpu=$(awk -v u="$((u1 + s1 - u0 - s0))" -v t="$ticks" -v s="$seconds" 'BEGIN {printf "%.1f", 100 * u / t / s}')
echo "daemon: $sample at 2.4 MS/s real time: ${cpu}% of one core (target < 15%), peak RSS $((peak / 1024)) MB (target < 40 MB)"
