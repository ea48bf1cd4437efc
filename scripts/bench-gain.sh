#!/usr/bin/env bash
# The adaptive gain against fixed gains, through the fake librtlsdr's tuner model
# (Tests/Fixtures/fake-rtlsdr): a simulated sky of aircraft up to 40 dB above the noise, as the
# antenna delivers it, turned into a dongle's cu8 samples at each gain of an R820T and
# demodulated; then the daemon with --gain adaptive, started at the highest and at the lowest
# gain, frames counted per pass of the sky once it has had 30 s to settle.
#
#   scripts/bench-gain.sh [BINARY]     (SECONDS of sky, default 20; RUNS passes, default 3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/.build/release/aviator-adsb}
seconds=${SECONDS_OF_SKY:-20}
passes=${RUNS:-3}
work=$(mktemp -d /tmp/aviator-bench-gain.XXXXXX)
trap 'pkill -f "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

cc -shared -fPIC -O2 -Wl,-soname,librtlsdr.so.0 -o "$work/librtlsdr.so.0" \
    "$root/Tests/Fixtures/fake-rtlsdr/fake_rtlsdr.c" -lm
cc -O2 -o "$work/tuner_dump" "$root/Tests/Fixtures/fake-rtlsdr/tuner_dump.c" \
    -L"$work" -l:librtlsdr.so.0 -Wl,-rpath,"$work"
echo "bench-gain: simulating ${seconds} s of sky (60 aircraft, strongest 40 dB)" >&2
"$binary" simulate --format cf32 --duration "$seconds" --aircraft 60 --strongest 40 --seed 7 \
    --out "$work/sky.cf32" 2>/dev/null

echo "fixed gain (dB)  frames per ${seconds} s"
best=0
for gain in 0.0 7.7 12.5 16.6 20.7 25.4 28.0 29.7 32.8 33.8 36.4 37.2 38.6 40.2 42.1 43.4 44.5 48.0 49.6; do
    AVIATOR_FAKE_RTLSDR_IQ="$work/sky.cf32" AVIATOR_FAKE_RTLSDR_CF32=1 "$work/tuner_dump" "$gain" > "$work/at.cu8"
    frames=$("$binary" demod "$work/at.cu8" 2>/dev/null | grep -c '^\*' || true)
    printf '%15s  %d\n' "$gain" "$frames"
    if [ "$frames" -gt "$best" ]; then best=$frames; fi
done
echo "best fixed gain: $best frames (auto, the tuner's AGC, is modelled as 49.6 dB)"

adaptive() {  # $1: label, $2: remembered start gain or "" for none
    local state="$work/state-$1"
    mkdir -p "$state"
    [ -n "$2" ] && echo "$2" > "$state/gain"
    local interval=$seconds
    # The passes of the first 30 s are the controller's time to settle: not counted.
    local settle=$(((30 + seconds - 1) / seconds))
    AVIATOR_FAKE_RTLSDR_IQ="$work/sky.cf32" AVIATOR_FAKE_RTLSDR_CF32=1 AVIATOR_FAKE_RTLSDR_LOOP=1 \
        AVIATOR_FAKE_RTLSDR_REALTIME=1 AVIATOR_FAKE_RTLSDR_GAIN_LOG="$work/gains-$1.log" \
        LD_LIBRARY_PATH="$work" timeout $((seconds * (settle + passes) + 5)) "$binary" run --gain adaptive --state-dir "$state" \
        --socket "$work/$1.sock" --stats-interval "$interval" --no-fallback 2> "$work/run-$1.log" || true
    echo "adaptive from $1: gains set $(awk '{print $2}' "$work/gains-$1.log" | paste -sd' ')"
    grep 'statistics:' "$work/run-$1.log" | tail -n +$((settle + 1)) | sed -nE 's/.*statistics: ([0-9]+) messages.*gain ([0-9.]+) dB.*/\1 \2/p' |
        awk -v best="$best" '{printf "  %d frames at %s dB (%.1f%% of the best fixed gain)\n", $1, $2, 100 * $1 / best}'
}
adaptive highest ""
adaptive lowest 0.0
