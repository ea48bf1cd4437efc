#!/usr/bin/env python3
"""Yield of one or more decoders against a simulated recording's truth file.

Usage: yield.py TRUTH.jsonl NAME=OUTPUT [NAME=OUTPUT ...] [--json]
       yield.py --table [--markdown] RESULT.json [RESULT.json ...]   (combines --json results)

Each OUTPUT holds one frame per line, either AVR (`*HEX;`) or AVR with a 12 MHz timestamp
(`@TTTTTTTTTTTTHEX;`). A frame counts for the true message with the same bits whose start is
nearest in time (within one long reply, 120 us, once the decoder's constant timestamp offset
is removed); without timestamps, for the strongest unclaimed true message with the same bits
(identical copies cannot be told apart, and a decoder most likely heard the strongest).
A frame that matches no true message is a false frame.

--by-offset: instead, per decoder, the yield of the replies that overlap no other, by SNR
bucket and by where the reply starts within a sample (its true start in samples, modulo 1,
to the nearest fifth of a sample: the truth's times have 0.1 us steps, a fifth of a sample
at 2.0 MS/s). At 2.0 MS/s a reply starting a whole number of samples in has every chip edge
in the middle of a sample.

Prints, per decoder, the yield per SNR bucket, overall, and for overlapping bursts, the
messages only that decoder found (unique: none of the others named found them), plus the
number of false frames; the tables also give, for each decoder after the first, the messages
it found that the first one named missed (and their share of its own). --json results also carry a label (--label TEXT) for the table.
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


def match(messages, frames, rate, false_out=None):
    """Which true messages the frames found, and how many frames are false; `false_out`, a
    list, also gets each false frame as (bits, its start in samples or None)."""
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
    # Without timestamps a frame cannot be placed among identical copies (an aircraft's
    # repeated squitters, a train of identical Comm-B replies); it counts for the strongest
    # copy not yet claimed, the one a decoder most likely heard.
    for ticks, bits in frames:
        best = None
        if ticks is None:
            unclaimed = [i for i in by_hex.get(bits, []) if not found[i]]
            if unclaimed:
                best = max(unclaimed, key=lambda i: messages[i].get("snr_db", 0))
        for index in by_hex.get(bits, []) if ticks is not None else []:
            if found[index]:
                continue
            distance = abs(ticks / ticks_per_sample - offset - messages[index]["sample"])
            if distance <= tolerance and (best is None or distance < best[1]):
                best = (index, distance)
        if best is None:
            false_frames += 1
            if false_out is not None:
                false_out.append((bits, None if ticks is None else ticks / ticks_per_sample - offset))
        else:
            found[best if ticks is None else best[0]] = True
    return found, false_frames


def summarise(messages, found, unique, beyond_first):
    """Rows of (found, total, found by this decoder only, found by this decoder but not by
    the first one named)."""
    rows = {}
    def row(members):
        return (sum(found[i] for i in members), len(members), sum(unique[i] for i in members),
                sum(beyond_first[i] for i in members))
    for low, high in BUCKETS:
        rows[f"{low}-{high} dB"] = row([i for i, m in enumerate(messages) if low <= m.get("snr_db", -99) < high])
    rows["overlapping"] = row([i for i, m in enumerate(messages) if m.get("overlap")])
    rows["all"] = row(range(len(messages)))
    return rows


def offset_table(messages, found, rate):
    """Rows of the yield (found, total) of the non-overlapping messages by SNR bucket (and
    all), columns by the start within a sample in fifths (0.0 to 0.8)."""
    fifths = [0.0, 0.2, 0.4, 0.6, 0.8]
    rows = {}
    buckets = [(f"{low}-{high} dB", low, high) for low, high in BUCKETS] + [("all", -99, 99)]
    for name, low, high in buckets:
        cells = {fifth: [0, 0] for fifth in fifths}
        for index, message in enumerate(messages):
            if message.get("overlap") or not low <= message.get("snr_db", -99) < high:
                continue
            start = message["t"] * rate
            fifth = round(round((start - int(start)) * 5) / 5 % 1.0, 1)
            cells[fifth][0] += found[index]
            cells[fifth][1] += 1
        if any(total for _, total in cells.values()):
            rows[name] = cells
    return fifths, rows


def streams_table(paths, markdown=False):
    """One row per stream (and per SNR bucket of a sweep), one column per decoder: yield,
    messages only that decoder found, and false frames. A stream's label says what it is."""
    results = [json.load(open(p)) for p in paths]
    columns = []
    for result in results:
        for name in result["decoders"]:
            if name not in columns:
                columns.append(name)
    lines = []
    for result in results:
        label = result.get("label") or result["file"]
        names = result["decoders"]
        first = next(iter(names.values()))["rows"]
        if result["busy"] or first["all"][1] == 0:
            row_names = ["all", "overlapping"] if first["all"][1] else ["all"]
        else:
            row_names = [r for r in first if r.endswith("dB") and first[r][1]] + ["all"]
        for index, row in enumerate(row_names):
            title = label if row == "all" else f"{label}: {row}"
            count = first[row][1]
            cells = []
            for column in columns:
                data = names.get(column)
                if data is None:
                    cells.append("n/a")
                    continue
                got, total, unique, beyond_first = (list(data["rows"][row]) + [0])[:4]
                false = data["false"] if row == "all" else None
                text = f"{100.0 * got / total:.1f}%" if total else "-"
                extra = []
                if total and unique:
                    extra.append(f"+{unique}")
                if got and beyond_first:
                    extra.append(f"{columns[0]} missed {beyond_first}, {100.0 * beyond_first / got:.1f}%")
                if false is not None:
                    extra.append(f"{false} false")
                if extra:
                    text += " (" + ", ".join(extra) + ")"
                cells.append(text)
            lines.append((title, count, cells))
    if markdown:
        print("| stream | messages | " + " | ".join(columns) + " |")
        print("| --- | --- |" + " --- |" * len(columns))
        for title, count, cells in lines:
            print(f"| {title} | {count} | " + " | ".join(cells) + " |")
        return
    width = max(22, max(len(c) for c in columns) + 2, max(len(cell) for _, _, cells in lines for cell in cells) + 2)
    print(f"  {'stream':<34}{'messages':>9}" + "".join(f"{c:>{width}}" for c in columns))
    for title, count, cells in lines:
        print(f"  {title:<34}{count:>9}" + "".join(f"{cell:>{width}}" for cell in cells))


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
            rows = {key: tuple(value[:2]) for key, value in data["rows"].items()}
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
    if len(sys.argv) > 2 and sys.argv[1] == "--streams":
        paths = [a for a in sys.argv[2:] if a != "--markdown"]
        streams_table(paths, markdown="--markdown" in sys.argv[2:])
        return 0
    if len(sys.argv) > 2 and sys.argv[1] == "--table":
        paths = [a for a in sys.argv[2:] if a != "--markdown"]
        table(paths, markdown="--markdown" in sys.argv[2:])
        return 0
    argv = sys.argv[1:]
    label = None
    if "--label" in argv:
        at = argv.index("--label")
        label = argv[at + 1] if at + 1 < len(argv) else None
        del argv[at:at + 2]
    args = [a for a in argv if a not in ("--json", "--by-offset")]
    as_json = "--json" in argv
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    header, messages = read_truth(args[0])
    rate = header.get("sample_rate", 2400000)
    result = {"file": args[0], "label": label, "busy": header.get("busy", False), "rate": rate, "decoders": {}}
    matched = {}
    for spec in args[1:]:
        name, _, path = spec.partition("=")
        matched[name] = match(messages, read_frames(path), rate)
    if "--by-offset" in argv:
        for name, (found, _) in matched.items():
            fifths, rows = offset_table(messages, found, rate)
            print(f"{name}: {args[0]} ({rate / 1e6:.1f} MS/s), replies overlapping no other, "
                  "by their start within a sample")
            print(f"  {'bucket':<10}" + "".join(f"{f'+{fifth:.1f}':>18}" for fifth in fifths))
            for row, cells in rows.items():
                text = [f"{100.0 * got / total:.1f}% ({got}/{total})" if total else "-" for got, total in cells.values()]
                print(f"  {row:<10}" + "".join(f"{cell:>18}" for cell in text))
        return 0
    first = next(iter(matched.values()))[0]
    for name, (found, false_frames) in matched.items():
        others = [other[0] for key, other in matched.items() if key != name]
        unique = [found[i] and not any(o[i] for o in others) for i in range(len(messages))]
        beyond_first = [found[i] and not first[i] for i in range(len(messages))]
        result["decoders"][name] = {"rows": summarise(messages, found, unique, beyond_first), "false": false_frames}
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
            got, count = result["decoders"][n]["rows"][row][:2]
            cells.append(f"{(100.0 * got / count if count else 0):6.1f}% ({got:>6})")
        print(f"  {row:<12} {total:>6} " + " ".join(f"{c:>20}" for c in cells))
    print(f"  {'only this':<12} {'':>6} " + " ".join(f"{result['decoders'][n]['rows']['all'][2]:>20}" for n in names))
    print(f"  {'not first':<12} {'':>6} " + " ".join(f"{result['decoders'][n]['rows']['all'][3]:>20}" for n in names))
    print(f"  {'false':<12} {'':>6} " + " ".join(f"{result['decoders'][n]['false']:>20}" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
