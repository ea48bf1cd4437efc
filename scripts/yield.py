#!/usr/bin/env python3
"""Yield of one or more decoders against a simulated recording's truth file.

Usage: yield.py TRUTH.jsonl NAME=OUTPUT [NAME=OUTPUT ...] [--json]
       yield.py --table [--markdown] RESULT.json [RESULT.json ...]   (combines --json results)

Each OUTPUT holds one frame per line, either AVR (`*HEX;`) or AVR with a 12 MHz timestamp
(`@TTTTTTTTTTTTHEX;`). A frame counts for the true message with the same bits whose start is
nearest in time (within one long reply, 120 us, once the decoder's constant timestamp offset
is removed); without timestamps, for the first unclaimed true message with the same bits.
A frame that matches no true message is a false frame.

Prints, per decoder, the yield per SNR bucket, overall, and for overlapping bursts, plus the
number of false frames.
"""
import json
import sys

BUCKETS = [(3, 6), (6, 9), (9, 12), (12, 16), (16, 25)]


def read_truth(path):
    header, messages = None, []
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            record = json.loads(line)
            if record.get("type") == "header":
                header = record
            elif record.get("type") == "message":
                messages.append(record)
    return header or {}, messages


def read_frames(path):
    frames = []
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("@") and line.endswith(";") and len(line) > 14:
                frames.append((int(line[1:13], 16), line[13:-1].upper()))
            elif line.startswith("*") and line.endswith(";"):
                frames.append((None, line[1:-1].upper()))
    return frames


def match(messages, frames, rate):
    ticks_per_sample = 12e6 / rate
    by_hex = {}
    for index, message in enumerate(messages):
        by_hex.setdefault(message["hex"].upper(), []).append(index)
    # The decoder's constant offset: median difference over unambiguous matches.
    deltas = []
    for ticks, bits in frames:
        candidates = by_hex.get(bits, [])
        if ticks is not None and len(candidates) == 1:
            deltas.append(ticks / ticks_per_sample - messages[candidates[0]]["sample"])
    deltas.sort()
    offset = deltas[len(deltas) // 2] if deltas else 0.0
    tolerance = 120e-6 * rate
    found = [False] * len(messages)
    false_frames = 0
    for ticks, bits in frames:
        best = None
        for index in by_hex.get(bits, []):
            if found[index]:
                continue
            if ticks is None:
                best = index
                break
            distance = abs(ticks / ticks_per_sample - offset - messages[index]["sample"])
            if distance <= tolerance and (best is None or distance < best[1]):
                best = (index, distance)
        if best is None:
            false_frames += 1
        else:
            found[best if ticks is None else best[0]] = True
    return found, false_frames


def summarise(messages, found):
    rows = {}
    for low, high in BUCKETS:
        members = [i for i, m in enumerate(messages) if low <= m.get("snr_db", -99) < high]
        rows[f"{low}-{high} dB"] = (sum(found[i] for i in members), len(members))
    overlap = [i for i, m in enumerate(messages) if m.get("overlap")]
    rows["overlapping"] = (sum(found[i] for i in overlap), len(overlap))
    rows["all"] = (sum(found), len(messages))
    return rows


def table(paths, markdown=False):
    """Prints one combined table from several --json results: rows are the SNR buckets of
    the normal recordings plus the busy recordings' overall yield; one column per decoder
    and sample rate."""
    results = [json.load(open(p)) for p in paths]
    columns = []
    for result in results:
        for name in result["decoders"]:
            label = f"{name} {result['rate'] / 1e6:.1f}"
            if label not in columns:
                columns.append(label)
    cells = {}
    for result in results:
        for name, data in result["decoders"].items():
            label = f"{name} {result['rate'] / 1e6:.1f}"
            rows = data["rows"]
            if result["busy"]:
                cells[("busy traffic", label)] = rows["all"]
                cells[("busy: overlapping", label)] = rows["overlapping"]
                cells[("false (busy)", label)] = data["false"]
            else:
                for row in rows:
                    if row.endswith("dB"):
                        cells[(row, label)] = rows[row]
                cells[("false (normal)", label)] = data["false"]
    row_names = [f"{low}-{high} dB" for low, high in BUCKETS] + [
        "busy traffic", "busy: overlapping", "false (normal)", "false (busy)"]
    def cell(row, column):
        value = cells.get((row, column))
        if value is None:
            return "n/a"
        if isinstance(value, int):
            return str(value)
        got, count = value
        percent = 100.0 * got / count if count else 0
        return f"{percent:.1f}" if markdown else f"{percent:.1f}% ({got}/{count})"

    if markdown:
        print("| | " + " | ".join(columns) + " |")
        print("| --- |" + " --- |" * len(columns))
        for row in row_names:
            print(f"| {row} | " + " | ".join(cell(row, column) for column in columns) + " |")
        return
    width = max(24, max(len(c) for c in columns) + 2)
    print(f"  {'':<18}" + "".join(f"{c:>{width}}" for c in columns))
    for row in row_names:
        print(f"  {row:<18}" + "".join(f"{cell(row, column):>{width}}" for column in columns))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--table":
        paths = [a for a in sys.argv[2:] if a != "--markdown"]
        table(paths, markdown="--markdown" in sys.argv[2:])
        return 0
    args = [a for a in sys.argv[1:] if a != "--json"]
    as_json = "--json" in sys.argv
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    header, messages = read_truth(args[0])
    rate = header.get("sample_rate", 2400000)
    result = {"file": args[0], "busy": header.get("busy", False), "rate": rate, "decoders": {}}
    for spec in args[1:]:
        name, _, path = spec.partition("=")
        found, false_frames = match(messages, read_frames(path), rate)
        result["decoders"][name] = {"rows": summarise(messages, found), "false": false_frames}
    if as_json:
        print(json.dumps(result))
        return 0
    names = list(result["decoders"])
    print(f"{args[0]} ({'busy' if result['busy'] else 'normal'}, {rate / 1e6:.1f} MS/s, {len(messages)} messages)")
    print(f"  {'bucket':<12} {'n':>6} " + " ".join(f"{n:>20}" for n in names))
    for row in result["decoders"][names[0]]["rows"]:
        total = result["decoders"][names[0]]["rows"][row][1]
        cells = []
        for n in names:
            got, count = result["decoders"][n]["rows"][row]
            cells.append(f"{(100.0 * got / count if count else 0):6.1f}% ({got:>6})")
        print(f"  {row:<12} {total:>6} " + " ".join(f"{c:>20}" for c in cells))
    print(f"  {'false':<12} {'':>6} " + " ".join(f"{result['decoders'][n]['false']:>20}" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
