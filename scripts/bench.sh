#!/usr/bin/env bash
# Demodulator figures, side by side with readsb and dump1090-fa (../shared/peers) on the same
# simulated recordings in the same run:
#  - every stream on both channels: the realistic one (`simulate --channel real`, the default)
#    and the old kind one (`--channel kind`): a 30 s SNR sweep of 3-25 dB (rows per SNR
#    bucket), a 10 s busy sky, a 20 s dense sky (350 aircraft near an airport), 60 s of
#    receiver noise alone and 60 s of 40 aircraft all at 3-6 dB (the sweep alone gives that
#    bucket too few of the peers' frames to measure a share of them), at 2.4 MS/s; the sweep
#    and the busy sky again at 2.0 MS/s with the same seeds (the same sky: the same messages
#    at the same times and strengths), where the peers do not run;
#  - per stream and decoder: yield (% of the true messages), the messages only that decoder
#    found (+N), and false frames (frames not on air);
#  - what each technique is worth: the realistic streams again with one switched off at a time,
#    and with all four recovery techniques off (the plain path);
#  - CPU time of each peer as a share of ours on the 20 s dense realistic sky, the whole
#    process, runs in turn (ours, readsb, dump1090-fa, ...), the median of the pairs' ratios;
#    and the instructions each executes on the sky's first 5 s (valgrind), which do not move
#    with the machine's speed as the times do;
#  - the demodulator's targets, each with the figure of this run that decides it
#    (scripts/bench_targets.py);
#  - the same targets with techniques switched off (the public --no-cancel-overlaps, and the
#    plain path alone), each configuration judged on its frames of every realistic stream and
#    timed on the dense sky with the others (scripts/bench_tradeoff.py): what meeting the CPU target by
#    doing less would cost the other targets.
# The tables go into docs/demodulator.md between its "make bench" markers.
# Usage: scripts/bench.sh [BINARY]   (default .build/release/aviator-adsb; `make bench` builds it)
#   SHARED     where the peers are (default ../shared)
#   BENCH_RUNS runs of each decoder for the CPU ratio (default 5)
#   DAEMON_JSON the daemon's figures from scripts/bench-daemon.sh, for the targets table
#              (`make bench` measures them first; without it the table leaves the daemon out)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/aviator-adsb}
SHARED=${SHARED:-../shared}
READSB=$SHARED/peers/readsb
DUMP1090=$SHARED/peers/dump1090-fa
RUNS=${BENCH_RUNS:-5}
# `demod` with every recovery technique off: cancellation (and with it the channel fit), the
# amplitude feedback, the sequence decisions and the coherent retry.
PLAIN_PATH="--no-cancel-overlaps --no-feedback --no-sequence --no-coherent"

[ -x "$BIN" ] || { echo "bench: $BIN not found; run 'make release' first" >&2; exit 1; }
command -v zstd >/dev/null || { echo "bench: zstd not found (readsb's frame dump is compressed); run 'make deps'" >&2; exit 1; }
for peer in "$READSB" "$DUMP1090"; do
    [ -x "$peer" ] || { echo "bench: $peer not found (see $SHARED/peers/README.md)" >&2; exit 1; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/aviator-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# name|rate|seed|duration|simulate options|label
STREAMS=(
    "sweep24|2.4M|7101|30|--snr-min 3 --snr-max 25|sweep 2.4"
    "busy24|2.4M|7102|10|--busy|busy 2.4"
    "dense24|2.4M|7105|20|--busy --aircraft 350|dense 2.4 (20 s)"
    "noise24|2.4M|7106|60|--aircraft 0|noise 60 s"
    "low24|2.4M|7107|60|--snr-min 3 --snr-max 6 --aircraft 40|low 2.4 (3-6 dB, 60 s)"
    "sweep20|2.0M|7101|30|--snr-min 3 --snr-max 25|sweep 2.0"
    "busy20|2.0M|7102|10|--busy|busy 2.0"
)

ours() { "$BIN" demod "$1" --sample-rate "$2" --mlat; }
# Each peer's frames with their 12 MHz timestamp, which tells which copy of a repeated message
# (an aircraft's identical squitters) it decoded: without it yield.py can only credit the
# strongest copy, and a peer that decoded a clean copy would seem to have found an
# overlapped one. readsb's --raw lines carry none, but its --dump-beast files do
# (scripts/beast_to_avr.py turns them into lines; the few frames it prints but does not dump
# follow without a timestamp).
readsb() {
    local dump
    dump=$(mktemp -d "$WORK/readsb-dump.XXXXXX")
    "$READSB" --device-type ifile --ifile "$1" --iformat UC8 --raw --dump-beast="$dump,3600" >"$dump/raw"
    cat "$dump"/*.zst | zstd -qdc | python3 scripts/beast_to_avr.py "$dump/raw"
    rm -rf "$dump"
}
# dump1090-fa exits 1 ("Abnormal exit") at the end of a file: that is normal. Its --mlat
# lines carry the timestamp.
dump1090() { "$DUMP1090" --device-type ifile --ifile "$1" --iformat UC8 --mlat || true; }

# The realistic channel's results by stream name, for the targets.
targets=()
for channel in real kind; do
    results=()
    for entry in "${STREAMS[@]}"; do
        IFS='|' read -r name rate seed duration options label <<<"$entry"
        file="$WORK/$channel-$name.cu8"
        echo "bench: $channel channel, $label..."
        # shellcheck disable=SC2086
        "$BIN" simulate --channel "$channel" --out "$file" --sample-rate "$rate" --seed "$seed" \
            --duration "$duration" $options 2>/dev/null
        ours "$file" "$rate" >"$file.ours" 2>/dev/null
        decoders=("aviator-adsb=$file.ours")
        if [ "$rate" = 2.4M ]; then
            readsb "$file" >"$file.readsb" 2>/dev/null
            dump1090 "$file" >"$file.dump1090" 2>/dev/null
            decoders+=("readsb=$file.readsb" "dump1090-fa=$file.dump1090")
        fi
        python3 scripts/yield.py "$file.truth.jsonl" "${decoders[@]}" --label "$label" --json >"$file.json"
        results+=("$file.json")
        [ "$channel" = real ] && targets+=("$name=$file.json")
        # The realistic recordings stay for the measurements below; the kind ones go.
        [ "$channel" = real ] || rm -f "$file"
    done
    echo
    echo "Channel: $channel (yield; +N: messages only that decoder found; aviator-adsb missed N, x%: a peer's messages we did not find, as a share of its own; false: frames not on air)"
    python3 scripts/yield.py --streams "${results[@]}"
    python3 scripts/yield.py --streams --markdown "${results[@]}" >"$WORK/$channel.md"
done

# What each technique is worth now: the realistic recordings again with one technique
# switched off at a time (hidden `demod` options), and with all four recovery techniques off
# (the plain path: magnitude slices and their repairs alone); +N: messages only that
# configuration found.
echo
echo "bench: what each technique is worth (realistic channel, one switched off at a time, then the plain path)..."
techniques=(
    "defaults|"
    "no known-address interrogator codes|--no-known-address-codes"
    "no cancellation|--no-cancel-overlaps"
    "no coherent retry|--no-coherent"
    "no sequence decisions|--no-sequence"
    "no channel fit|--no-channel-fit"
    "plain path only|$PLAIN_PATH"
)
worth=()
for entry in "${STREAMS[@]}"; do
    IFS='|' read -r name rate seed duration options label <<<"$entry"
    [ "$name" = noise24 ] && continue
    file="$WORK/real-$name.cu8"
    decoders=()
    for technique in "${techniques[@]}"; do
        title=${technique%%|*}
        flags=${technique#*|}
        out="$file.$(echo "$title" | tr ' /-' '___')"
        # shellcheck disable=SC2086
        "$BIN" demod "$file" --sample-rate "$rate" --mlat $flags >"$out" 2>/dev/null
        decoders+=("$title=$out")
    done
    python3 scripts/yield.py "$file.truth.jsonl" "${decoders[@]}" --label "$label" --json >"$file.worth.json"
    worth+=("$file.worth.json")
done
python3 scripts/yield.py --streams "${worth[@]}"
python3 scripts/yield.py --streams --markdown "${worth[@]}" >"$WORK/worth.md"

echo
echo "bench: CPU time on the 20 s dense realistic sky, $RUNS runs each in turn, then instructions on its first 5 s..."
python3 - "$WORK/real-dense24.cu8" "$RUNS" "$BIN" "$READSB" "$DUMP1090" "$WORK/cpu.json" "$WORK/cpu-times.json" \
    "$PLAIN_PATH" >"$WORK/cpu.md" <<'PY'
import json, os, re, resource, shutil, statistics, subprocess, sys
path, runs, ours, readsb, dump1090, ratios_path, times_path, plain = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
peer_input = ["--device-type", "ifile", "--ifile", path, "--iformat", "UC8", "--quiet"]
commands = {
    "aviator-adsb": [ours, "demod", path],
    "aviator-adsb --no-cancel-overlaps": [ours, "demod", path, "--no-cancel-overlaps"],
    "aviator-adsb, plain path only": [ours, "demod", path] + plain.split(),
    "readsb": [readsb] + peer_input,
    "dump1090-fa": [dump1090] + peer_input,
}
cpu = {name: [] for name in commands}
for _ in range(runs):
    for name, command in commands.items():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[name].append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
samples = os.path.getsize(path) // 2
ratios = {name: statistics.median(t / o for t, o in zip(times, cpu["aviator-adsb"])) for name, times in cpu.items()}
json.dump(ratios, open(ratios_path, "w"))
json.dump(cpu, open(times_path, "w"))

# Instructions executed, which the machine's speed does not move: counted by valgrind on the
# sky's first 5 s. Its debug-info reader cannot read the Swift build's DWARF 5, so ours runs
# from a copy without debug information.
instructions = {}
if shutil.which("valgrind") and shutil.which("objcopy"):
    work = os.path.dirname(path)
    cut = os.path.join(work, "dense-first-5s.cu8")
    with open(path, "rb") as source, open(cut, "wb") as target:
        target.write(source.read(int(5 * 2.4e6) * 2))
    stripped = os.path.join(work, "aviator-adsb-nodebug")
    subprocess.run(["objcopy", "--strip-debug", ours, stripped], check=True)
    for name, command in commands.items():
        command = [stripped if part == ours else cut if part == path else part for part in command]
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        found = re.search(r"Collected : (\d+)", run.stderr)
        if found:
            instructions[name] = int(found.group(1))
        else:
            print(f"bench: valgrind counted nothing for {name}", file=sys.stderr)
    os.remove(cut)
    os.remove(stripped)
else:
    print("bench: valgrind or objcopy not installed, instructions not counted", file=sys.stderr)

counted = ("; instructions: executed by the whole process on the sky's first 5 s (valgrind), which the "
           "machine's speed does not move" if "aviator-adsb" in instructions else "")
print(f"{samples / 2.4e6:.0f} s of dense sky at 2.4 MS/s ({samples} samples), CPU seconds of the whole "
      f"process, median of {runs} runs in turn; ratio: the decoder's CPU time / ours, median of the run pairs"
      f"{counted}.\n")
columns = ["decoder", "CPU seconds", "MS/s on one core", "CPU time / ours"]
if "aviator-adsb" in instructions:
    columns += ["instructions, first 5 s", "instructions / ours"]
print("| " + " | ".join(columns) + " |")
print("|" + " --- |" * len(columns))
for name, times in cpu.items():
    median = statistics.median(times)
    cells = [name, f"{median:.3f}", f"{samples / median / 1e6:.1f}", f"{ratios[name]:.2f}"]
    if "aviator-adsb" in instructions:
        count = instructions.get(name)
        cells += [f"{count / 1e9:.3f} billion", f"{count / instructions['aviator-adsb']:.2f}"] if count else ["-", "-"]
    print("| " + " | ".join(cells) + " |")
PY
cat "$WORK/cpu.md"

echo
echo "bench: the targets:"
measured=(--cpu "$WORK/cpu.json")
if [ -n "${DAEMON_JSON:-}" ]; then
    [ -f "$DAEMON_JSON" ] || { echo "bench: $DAEMON_JSON not found (scripts/bench-daemon.sh writes it)" >&2; exit 1; }
    measured+=(--daemon "$DAEMON_JSON")
fi
python3 scripts/bench_targets.py "${measured[@]}" "${targets[@]}"
python3 scripts/bench_targets.py --markdown "${measured[@]}" "${targets[@]}" >"$WORK/targets.md"

# The same targets with techniques switched off, to show what meeting the CPU target that way
# would cost: each configuration's frames on every realistic stream, judged beside readsb's.
# The defaults are the targets' own results; the others reuse the frames of the table of what
# each technique is worth (its column title), decoding only the noise, which that table leaves
# out.
echo
echo "bench: the targets with techniques switched off..."
tradeoff=(--cpu-times "$WORK/cpu-times.json" --configuration "defaults=aviator-adsb" "${targets[@]}")
for configuration in "--no-cancel-overlaps|aviator-adsb --no-cancel-overlaps|no cancellation|--no-cancel-overlaps" \
    "plain path only|aviator-adsb, plain path only|plain path only|$PLAIN_PATH"; do
    IFS='|' read -r title key column flags <<<"$configuration"
    tradeoff+=(--configuration "$title=$key")
    for entry in "${STREAMS[@]}"; do
        IFS='|' read -r name rate seed duration options label <<<"$entry"
        file="$WORK/real-$name.cu8"
        out="$file.$(echo "$column" | tr ' /-' '___')"
        # shellcheck disable=SC2086
        [ -f "$out" ] || "$BIN" demod "$file" --sample-rate "$rate" --mlat $flags >"$out" 2>/dev/null
        decoders=("aviator-adsb=$out")
        [ "$rate" = 2.4M ] && decoders+=("readsb=$file.readsb")
        python3 scripts/yield.py "$file.truth.jsonl" "${decoders[@]}" --label "$label" --json >"$out.tradeoff.json"
        tradeoff+=("$name=$out.tradeoff.json")
    done
done
python3 scripts/bench_tradeoff.py "${tradeoff[@]}"
python3 scripts/bench_tradeoff.py --markdown "${tradeoff[@]}" >"$WORK/tradeoff.md"

# The figures into docs/demodulator.md, between its "make bench" markers.
python3 - docs/demodulator.md "$WORK/real.md" "$WORK/kind.md" "$WORK/worth.md" "$WORK/cpu.md" "$WORK/targets.md" \
    "$WORK/tradeoff.md" <<'PY'
import datetime, sys
doc, real_md, kind_md, worth_md, cpu_md, targets_md, tradeoff_md = sys.argv[1:]
text = open(doc).read()
begin, end = "<!-- make bench: begin -->", "<!-- make bench: end -->"
if begin not in text or end not in text:
    sys.exit(f"bench: {doc} has no {begin} ... {end} section; figures not written")
figures = (f"{begin}\n_Written by `make bench` on {datetime.date.today().isoformat()}._\n\n"
           "The targets, each with the figure of this run that decides it (the demodulator's on the "
           "realistic channel, the daemon's on a 300-aircraft sky at real time):\n\n"
           + open(targets_md).read() + "\n"
           "Realistic channel (`simulate --channel real`, the default). Yield in % of the true messages; "
           "+N: messages only that decoder found; aviator-adsb missed N, x%: a peer's messages aviator-adsb "
           "did not find, as a share of the peer's own; false: frames not on air:\n\n"
           + open(real_md).read()
           + "\nKind channel (`simulate --channel kind`, the simulator's old channel), same streams and seeds:\n\n"
           + open(kind_md).read()
           + "\nWhat each technique is worth on the realistic channel, one switched off at a time, and the "
           "plain path with all four recovery techniques off (hidden `demod` options; +N: messages only "
           "that configuration found):\n\n"
           + open(worth_md).read()
           + "\nCPU time on the dense realistic sky (about 3,400 Mode S replies a second), whole process:\n\n"
           + open(cpu_md).read()
           + "\nThe demodulator's targets with techniques switched off (each configuration judged on its "
           "frames of every realistic stream; CPU: readsb's time / the configuration's, median of the run pairs "
           "above):\n\n"
           + open(tradeoff_md).read() + end)
start = text.index(begin)
stop = text.index(end) + len(end)
open(doc, "w").write(text[:start] + figures + text[stop:])
print(f"bench: figures written to {doc}")
PY
