#!/usr/bin/env bash
# The ecosystem outputs of two builds on the same replay, compared: Beast and AVR byte for
# byte, SBS without its four date and time columns, aircraft.json without the ages (`seen`,
# `seen_pos`) and `now`. Each daemon reads Samples/busy-airport.cu8 from standard input three
# seconds after it starts, so the output clients are connected before the first frame.
#
#   scripts/outputs-identical.sh BASE_BINARY NEW_BINARY
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BASE_BINARY NEW_BINARY" >&2; exit 64; }
command -v nc >/dev/null || { echo "outputs-identical: nc is missing (apt-get install netcat-openbsd)" >&2; exit 1; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

run() { # binary folder first-port
    local binary=$1 out=$2 port=$3
    mkdir -p "$out"
    (sleep 3; cat "$ROOT/Samples/busy-airport.cu8") | "$binary" --replay - --format cu8 --receiver 52.3,4.75 \
        --socket "$out/radar.sock" --beast-out $((port + 5)) --sbs-out $((port + 3)) --avr-out $((port + 2)) \
        --json-dir "$out" 2>"$out/log" &
    local pid=$!
    sleep 1
    timeout 8 nc 127.0.0.1 $((port + 5)) >"$out/beast.bin" &
    timeout 8 nc 127.0.0.1 $((port + 3)) >"$out/sbs.txt" &
    timeout 8 nc 127.0.0.1 $((port + 2)) >"$out/avr.txt" &
    sleep 7
    cp "$out/aircraft.json" "$out/aircraft.snapshot.json"
    kill -INT $pid
    wait
}

run "$1" "$WORK/base" 41000
run "$2" "$WORK/new" 42000
status=0
for file in beast.bin avr.txt; do
    if cmp -s "$WORK/base/$file" "$WORK/new/$file"; then
        echo "$file: identical ($(stat -c %s "$WORK/new/$file") bytes)"
    else echo "$file: DIFFERENT"; status=1; fi
done
cut -d, -f1-6,11- "$WORK/base/sbs.txt" >"$WORK/base/sbs.cut"
cut -d, -f1-6,11- "$WORK/new/sbs.txt" >"$WORK/new/sbs.cut"
if cmp -s "$WORK/base/sbs.cut" "$WORK/new/sbs.cut"; then
    echo "sbs.txt: identical but for the times ($(wc -l <"$WORK/new/sbs.txt") lines)"
else echo "sbs.txt: DIFFERENT"; status=1; fi
python3 - "$WORK/base/aircraft.snapshot.json" "$WORK/new/aircraft.snapshot.json" <<'PY' || status=1
import json, sys
def load(path):
    document = json.load(open(path))
    for plane in document["aircraft"]:
        plane.pop("seen", None)
        plane.pop("seen_pos", None)
    return document["messages"], document["aircraft"]
base, new = load(sys.argv[1]), load(sys.argv[2])
if base != new:
    print("aircraft.json: DIFFERENT")
    sys.exit(1)
print(f"aircraft.json: identical but for the ages ({len(new[1])} aircraft, {new[0]} messages)")
PY
exit $status
