#!/usr/bin/env python3
"""The demodulator on simulated skies of seeds no rule was tuned on.

`make bench` always simulates the same seeds, and the acceptance rules' thresholds were
chosen looking at those skies: a false frame there gets noticed and ruled out, one on another
sky does not. This simulates skies of other seeds (dense skies above all, where overlaps make
most false frames), decodes each with `demod --mlat`, and prints per stream the yield and the
false frames, then every false frame beside the true message at its time (bits, SNR, whether
it overlaps another), and the false frames counted by downlink format.

Usage: heldout.py [--binary BIN] [--dense SEEDS] [--low SEEDS] [--busy SEEDS] [--busy20 SEEDS]
Seeds are comma-separated; an empty list leaves that kind of stream out. The defaults take
about half a minute on two cores.
"""
import argparse
import bisect
import collections
import importlib.util
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("yield_script", os.path.join(HERE, "yield.py"))
yield_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(yield_script)

# name, sample rate, seconds, simulate options
KINDS = {
    "dense": ("2.4M", 20, ["--busy", "--aircraft", "350"]),
    "low": ("2.4M", 60, ["--snr-min", "3", "--snr-max", "6", "--aircraft", "40"]),
    "busy": ("2.4M", 10, ["--busy"]),
    "busy20": ("2.0M", 10, ["--busy"]),
}


def seeds(text):
    return [int(s) for s in text.split(",") if s.strip()]


def run_stream(binary, work, kind, seed):
    """Simulates and decodes one stream; returns (label, messages, found, false frames
    beside the truth)."""
    rate, seconds, options = KINDS[kind]
    sample = os.path.join(work, f"{kind}-{seed}.cu8")
    def run(command):
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"heldout: {' '.join(command)} failed: {done.stderr.strip()}")
        return done.stdout
    run([binary, "simulate", "--out", sample, "--sample-rate", rate, "--seed", str(seed),
         "--duration", str(seconds), *options])
    decoded = run([binary, "demod", sample, "--sample-rate", rate, "--mlat"])
    frames_path = sample + ".frames"
    with open(frames_path, "w") as handle:
        handle.write(decoded)
    _, messages = yield_script.read_truth(sample + ".truth.jsonl")
    frames = yield_script.read_frames(frames_path)
    hertz = 2_400_000 if rate == "2.4M" else 2_000_000
    false = []
    found, _ = yield_script.match(messages, frames, hertz, false_out=false)
    for path in (sample, sample + ".truth.jsonl", frames_path):
        os.remove(path)
    return f"{kind} {rate} seed {seed}", len(messages), sum(found), beside_truth(messages, false)


def beside_truth(messages, false):
    """Each false frame (bits, start in samples or None, from `yield.py`'s matching) with
    the true message that started nearest its time, or None."""
    starts = sorted((message["sample"], index) for index, message in enumerate(messages))
    times = [start for start, _ in starts]
    result = []
    for bits, position in false:
        nearest = None
        if position is not None and starts:
            at = bisect.bisect_left(times, position)
            nearest = min(starts[max(at - 1, 0):at + 1], key=lambda start: abs(start[0] - position))
        result.append((bits, messages[nearest[1]] if nearest else None))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/aviator-adsb")
    parser.add_argument("--dense", default="7601,7611,7612,7613")
    parser.add_argument("--low", default="7602")
    parser.add_argument("--busy", default="7603")
    parser.add_argument("--busy20", default="7604")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"heldout: {args.binary} not found; run 'make release' first")
    jobs = [(kind, seed) for kind in KINDS for seed in seeds(getattr(args, kind))]
    with tempfile.TemporaryDirectory(prefix="aviator-heldout.") as work, ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda job: run_stream(args.binary, work, *job), jobs))
    print(f"{'stream':<26} {'messages':>9} {'yield':>7} {'false':>6}")
    by_format = collections.Counter()
    total_false = 0
    for label, messages, found, false in results:
        print(f"{label:<26} {messages:>9} {100 * found / max(messages, 1):>6.1f}% {len(false):>6}")
        total_false += len(false)
    for label, _, _, false in results:
        for bits, near in false:
            by_format[int(bits[:2], 16) >> 3] += 1
            if near is None:
                print(f"false {label}: {bits}")
                continue
            print(f"false {label}: {bits}  near {near['hex']} {near.get('snr_db', 0):.1f} dB"
                  f"{' overlapped' if near.get('overlap') else ''}")
    print(f"{total_false} false frames" + (": " + ", ".join(f"DF{df} {count}" for df, count in
                                                           sorted(by_format.items())) if by_format else ""))


if __name__ == "__main__":
    main()
