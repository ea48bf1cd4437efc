#!/usr/bin/env bash
# Regenerates Samples/ with the simulator. The simulator is deterministic (its own PRNG and
# arithmetic), so the files come out bit-identical on every machine.
#   BINARY  the aviator-adsb binary (default: the release build)
#   OUT     where to write (default: Samples/; the tests regenerate into a temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY=${BINARY:-.build/release/aviator-adsb}
OUT=${OUT:-Samples}
if [ ! -x "$BINARY" ]; then
    echo "make-samples: $BINARY not found; run 'make release' first" >&2
    exit 1
fi
mkdir -p "$OUT"

sample() {
    local name=$1
    shift
    "$BINARY" simulate --out "$OUT/$name" "$@"
}

# A quiet sky: a dozen aircraft around the receiver, SNR from distance.
sample quiet-sky.cu8 --sample-rate 2.4M --duration 0.8 --aircraft 12 --seed 101 --receiver 52.0,4.4
# A busy sky near an airport: 150 aircraft, many taxiing, departing and arriving; bursts overlap.
sample busy-airport.cu8 --sample-rate 2.4M --duration 0.8 --busy --seed 202 --receiver 52.3,4.75
# A weak-signal sweep: every message's SNR drawn between 3 and 16 dB.
sample weak-signals.cu8 --sample-rate 2.4M --duration 0.8 --aircraft 30 --seed 303 --snr-min 3 --snr-max 16
# The quiet sky at 2.0 MS/s, the other rate the demodulator supports.
sample quiet-sky-2m.cu8 --sample-rate 2.0M --duration 0.5 --aircraft 12 --seed 404 --receiver 52.0,4.4
