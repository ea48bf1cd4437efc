#!/usr/bin/env python3
"""Beast binary frames (stdin) as AVR lines with their 12 MHz timestamp (stdout).

`make bench` reads readsb's frames this way: readsb prints no timestamp with `--raw`, but its
`--dump-beast` files carry one per frame, and without it a frame cannot be told apart from
the other copies of the same message (an aircraft's repeated squitters), so yield.py could
only guess which copy a decoder heard.

A Beast record is 0x1a, a type byte, a 6-byte timestamp, a signal byte and the message; every
0x1a inside those bytes is doubled. Type '2' carries a 7-byte Mode S reply, '3' a 14-byte
one; other types (Mode A/C, a decoder's own status records) are skipped. Output lines look
like `@TTTTTTTTTTTTHEX;`, the AVR-with-MLAT form `aviator-adsb demod --mlat` writes.

readsb leaves a few frames (about one in a thousand) out of its dump that it prints with
`--raw`. Given the `--raw` output as an argument, the frames it has beyond the dump's are
added at the end without a timestamp (`*HEX;`), so the count stays the decoder's own.
"""
import collections
import sys

LENGTHS = {0x32: 7, 0x33: 14}


def frames(data):
    """(timestamp, message bytes) of each Mode S record in `data`."""
    index, end = 0, len(data)
    while index < end:
        if data[index] != 0x1A or index + 1 >= end:
            index += 1
            continue
        kind = data[index + 1]
        index += 2
        if kind not in LENGTHS:
            continue
        body = bytearray()
        want = 6 + 1 + LENGTHS[kind]
        while len(body) < want and index < end:
            byte = data[index]
            if byte == 0x1A:
                # A doubled escape is one data byte; a single one starts the next record,
                # so this one is cut short and dropped.
                if index + 1 < end and data[index + 1] == 0x1A:
                    index += 1
                else:
                    break
            body.append(byte)
            index += 1
        if len(body) == want:
            yield int.from_bytes(body[:6], "big"), bytes(body[7:])


def main():
    out = sys.stdout
    dumped = collections.Counter()
    for timestamp, message in frames(sys.stdin.buffer.read()):
        text = message.hex().upper()
        dumped[text] += 1
        out.write(f"@{timestamp:012X}{text};\n")
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as raw:
            printed = collections.Counter(line.strip()[1:-1].upper() for line in raw
                                          if line.startswith("*") and line.strip().endswith(";"))
        for text, count in (printed - dumped).items():
            out.write(f"*{text};\n" * count)


if __name__ == "__main__":
    main()
