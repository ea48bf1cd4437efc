#!/usr/bin/env bash
# Demodulator figures, side by side with dump1090-mutability on the same files in the same run:
#  - yield per SNR bucket and in busy traffic, at 2.4 and 2.0 MS/s, on simulated recordings
#    (seeds 7101-7104: no test uses them), and the false frames of each decoder;
#  - throughput (mega-samples per second, whole process, one core) on the 10 s busy 2.4 MS/s
#    cu8 recording, best of several runs, and the ratio ours / peer.
# Both with the default options (what the daemon runs) and with --no-cancel-overlaps
# (see docs/demodulator.md).
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
    "$BIN" demod "$file" --sample-rate "$rate" --mlat --no-cancel-overlaps >"$WORK/$name.plain" 2>/dev/null
    decoders=("aviator-adsb=$WORK/$name.ours" "aviator-adsb --no-cancel-overlaps=$WORK/$name.plain")
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
python3 scripts/yield.py --table --markdown "${results[@]}" >"$WORK/yield.md"

# What each technique is worth now: the 2.4 MS/s recordings again with one technique
# switched off at a time (the hidden `demod` options), against the defaults.
echo
echo "bench: what each technique is worth (2.4 MS/s, one switched off at a time)..."
techniques=(
    "defaults|"
    "one phase only|--phases 1"
    "no decision feedback|--no-feedback"
    "no sequence decisions|--no-sequence"
    "no two-bit repairs|--no-two-bit-repair"
    "no three-bit repairs|--no-three-bit-repair"
    "no address/parity repairs|--no-address-parity-repair"
    "no firmness check|--no-firmness"
    "no cancellation|--no-cancel-overlaps"
    "no coherent retry|--no-coherent"
    "any interrogator code|--any-interrogator-code"
)
worth=()
for name in normal24 busy24; do
    decoders=()
    for entry in "${techniques[@]}"; do
        label=${entry%%|*}
        flags=${entry#*|}
        out="$WORK/$name.$(echo "$label" | tr ' /' '__')"
        # shellcheck disable=SC2086
        "$BIN" demod "$WORK/$name.cu8" --mlat $flags >"$out" 2>/dev/null
        decoders+=("$label=$out")
    done
    python3 scripts/yield.py "$WORK/$name.cu8.truth.jsonl" "${decoders[@]}" --json >"$WORK/$name.worth.json"
    worth+=("$WORK/$name.worth.json")
done
python3 scripts/yield.py --table "${worth[@]}"
python3 scripts/yield.py --table --markdown "${worth[@]}" >"$WORK/worth.md"

# Throughput: the whole process on the same file, best of $RUNS runs each, interleaved so
# that both see the same machine load. The figure is CPU time (user + system) of the whole
# process, i.e. mega-samples per second on one core, which a busy machine disturbs far less
# than wall-clock time (shown too).
echo
THROUGHPUT_MD="$WORK/throughput.md" python3 - "$WORK/busy24.cu8" "$RUNS" "$BIN" "$PEER" <<'PY'
import os, resource, subprocess, sys, time
path, runs, ours, peer = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
samples = os.path.getsize(path) // 2
commands = {
    "aviator-adsb demod": [ours, "demod", path],
    "... --no-cancel-overlaps": [ours, "demod", path, "--no-cancel-overlaps"],
    peer: [peer, "--ifile", path, "--quiet"],
}
best = {name: (float("inf"), float("inf")) for name in commands}
for _ in range(runs):
    for name, command in commands.items():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best[name] = (min(best[name][0], cpu), min(best[name][1], wall))
print(f"Throughput on {samples / 2.4e6:.0f} s of busy sky, 2.4 MS/s cu8 ({samples} samples), whole process, best of {runs}:")
for name, (cpu, wall) in best.items():
    print(f"  {name:<26} {samples / cpu / 1e6:8.1f} MS/s on one core ({cpu:.3f} s CPU; {samples / wall / 1e6:.1f} MS/s wall-clock)")
ratio = best[peer][0] / best["aviator-adsb demod"][0]
print(f"  ratio (ours / peer)        {ratio:8.2f}")
plain = best[peer][0] / best["... --no-cancel-overlaps"][0]
print(f"  ratio without cancellation {plain:4.2f}")
with open(os.environ["THROUGHPUT_MD"], "w") as out:
    out.write("| decoder | MS/s on one core | CPU seconds |\n| --- | --- | --- |\n")
    for name, (cpu, wall) in best.items():
        out.write(f"| {name} | {samples / cpu / 1e6:.1f} | {cpu:.3f} |\n")
    out.write(f"\nThroughput ratio (peer CPU time / ours): {ratio:.2f}; without cancellation {plain:.2f}.\n")
PY

# The figures into docs/demodulator.md, between its "make bench" markers.
python3 - docs/demodulator.md "$WORK/yield.md" "$WORK/worth.md" "$WORK/throughput.md" <<'PY'
import datetime, sys
doc, yield_md, worth_md, throughput_md = sys.argv[1:]
text = open(doc).read()
begin, end = "<!-- make bench: begin -->", "<!-- make bench: end -->"
if begin not in text or end not in text:
    sys.exit(f"bench: {doc} has no {begin} ... {end} section; figures not written")
figures = (f"{begin}\n_Written by `make bench` on {datetime.date.today().isoformat()}._\n\n"
           "Yield in % of the true messages (false: frames not on air), simulated seeds 7101-7104:\n\n"
           + open(yield_md).read()
           + "\nWhat each technique is worth: 2.4 MS/s, one switched off at a time (hidden `demod` options):\n\n"
           + open(worth_md).read()
           + "\nThroughput on the 10 s busy sky (2.4 MS/s cu8), whole process, best of several runs:\n\n"
           + open(throughput_md).read() + end)
start = text.index(begin)
stop = text.index(end) + len(end)
open(doc, "w").write(text[:start] + figures + text[stop:])
print(f"bench: figures written to {doc}")
PY
