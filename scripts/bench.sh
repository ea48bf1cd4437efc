#!/usr/bin/env bash
# Demodulator figures, side by side with dump1090-mutability on the same files in the same run:
#  - yield per SNR bucket and in busy traffic, at 2.4 and 2.0 MS/s, on simulated recordings
#    (seeds 7101-7104: no test uses them), and the false frames of each decoder;
#  - throughput (mega-samples per second, whole process, one core) on the 10 s busy 2.4 MS/s
#    cu8 recording, best of several runs, and the ratio ours / peer.
# dump1090-mutability only demodulates 2.4 MS/s, so the 2.0 MS/s columns have no peer.
# Usage: scripts/bench.sh [BINARY]   (default .build/release/aviator-adsb; `make bench` builds it)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/aviator-adsb}
PEER=dump1090-mutability
RUNS=${BENCH_RUNS:-5}

if [ ! -x "$BIN" ]; then
    echo "bench: $BIN not found; run 'make release' first" >&2
    exit 1
fi
if ! command -v "$PEER" >/dev/null 2>&1; then
    echo "bench: installing $PEER (Debian's package) to compare with"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$PEER" >/dev/null
fi
command -v "$PEER" >/dev/null 2>&1 || { echo "bench: $PEER is not available" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/aviator-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

simulate() { # name rate seed extra-args...
    local name=$1 rate=$2 seed=$3
    shift 3
    "$BIN" simulate --out "$WORK/$name.cu8" --sample-rate "$rate" --seed "$seed" "$@" 2>/dev/null
}

echo "bench: simulating recordings (seeds 7101-7104)..."
simulate normal24 2.4M 7101 --duration 30 --snr-min 3 --snr-max 25
simulate busy24 2.4M 7102 --duration 10 --busy
simulate normal20 2.0M 7103 --duration 30 --snr-min 3 --snr-max 25
simulate busy20 2.0M 7104 --duration 10 --busy

results=()
for name in normal24 busy24 normal20 busy20; do
    file="$WORK/$name.cu8"
    rate=2.4M
    [[ $name == *20 ]] && rate=2.0M
    "$BIN" demod "$file" --sample-rate "$rate" --mlat >"$WORK/$name.ours" 2>"$WORK/$name.ours.log"
    decoders=("aviator-adsb=$WORK/$name.ours")
    if [[ $name == *24 ]]; then
        "$PEER" --ifile "$file" --raw --mlat >"$WORK/$name.peer" 2>/dev/null
        decoders+=("$PEER=$WORK/$name.peer")
    fi
    python3 scripts/yield.py "$file.truth.jsonl" "${decoders[@]}" --json >"$WORK/$name.json"
    results+=("$WORK/$name.json")
done

echo
echo "Yield (fraction of the true messages decoded; false = frames not in the truth)"
python3 scripts/yield.py --table "${results[@]}"

# Throughput: the whole process on the same file, best of $RUNS runs each, interleaved so
# that both see the same machine load.
file="$WORK/busy24.cu8"
samples=$(( $(stat -c %s "$file") / 2 ))
best_ours=999999
best_peer=999999
now() { date +%s.%N; }
for _ in $(seq "$RUNS"); do
    start=$(now); "$BIN" demod "$file" >/dev/null 2>&1; end=$(now)
    best_ours=$(python3 -c "print(min($best_ours, $end - $start))")
    start=$(now); "$PEER" --ifile "$file" --quiet >/dev/null 2>&1; end=$(now)
    best_peer=$(python3 -c "print(min($best_peer, $end - $start))")
done
echo
echo "Throughput on $(python3 -c "print(f'{$samples / 2.4e6:.0f}')") s of busy sky, 2.4 MS/s cu8 ($samples samples), whole process, best of $RUNS:"
python3 - "$samples" "$best_ours" "$best_peer" "$PEER" <<'PY'
import sys
samples, ours, peer, name = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
print(f"  {'aviator-adsb demod':<22} {samples / ours / 1e6:8.1f} MS/s  ({ours:.3f} s)")
print(f"  {name:<22} {samples / peer / 1e6:8.1f} MS/s  ({peer:.3f} s)")
print(f"  ratio (ours / peer)    {peer / ours:8.2f}")
PY
