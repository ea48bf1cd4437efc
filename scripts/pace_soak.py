#!/usr/bin/env python3
"""The governor over a long paced replay: `pace_soak.py --binary BIN [--minutes 30] [--speed 4]`.

Replays the sample (default the busy sky) `--speed` times faster than real time, looped, with
the governor on (`--demod-budget` as given, else the daemon's default), for `--minutes`, and
once a minute reads stats.json's `total` (samples dropped, the demodulator's level, its
changes and the seconds of samples at each level) and the daemon's resident memory. Prints a
line a minute and a summary; exits 1 when a sample was dropped or memory grew by more than
8 MB after the first five minutes.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from procfs import rss_kb


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--speed", type=int, default=4)
    parser.add_argument("--sample", default="Samples/busy-airport.cu8")
    parser.add_argument("--budget", default=None, help="--demod-budget PCT")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="aviator-pace-soak-")
    command = [args.binary, "--replay", args.sample, "--speed", str(args.speed), "--loop", "--receiver", "52.3,4.75",
               "--json-dir", folder, "--no-history"]
    if args.budget:
        command += ["--demod-budget", args.budget]
    daemon = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "log"), "w"),
                              env={**os.environ, "XDG_RUNTIME_DIR": folder})
    memory, total = [], {}
    try:
        for minute in range(1, args.minutes + 1):
            time.sleep(60)
            with open(os.path.join(folder, "stats.json"), encoding="utf-8") as f:
                total = json.load(f)["total"]["local"]
            memory.append(rss_kb(daemon.pid) / 1024)
            print(f"minute {minute}: {memory[-1]:.1f} MB, {total['samples_dropped']} samples dropped, level "
                  f"{total.get('demod_level')}, {total.get('demod_level_changes')} changes, seconds at each "
                  f"{total.get('demod_level_seconds')}", flush=True)
        with open(os.path.join(folder, "log"), encoding="utf-8") as f:
            changes = [line.rstrip() for line in f if "demodulator" in line and "level" in line]
    finally:
        daemon.terminate()
        daemon.wait()
    grown = memory[-1] - memory[min(4, len(memory) - 1)]
    print(f"{args.minutes} min at speed {args.speed}: {total['samples_dropped']} samples dropped; memory "
          f"{memory[min(4, len(memory) - 1)]:.1f} MB at minute 5, {memory[-1]:.1f} MB at the end; "
          f"{total.get('demod_level_changes')} level changes; seconds at each level {total.get('demod_level_seconds')}")
    print("level lines logged:", len(changes))
    for line in changes[:12]:
        print("  " + line[:200])
    subprocess.run(["rm", "-rf", folder], check=False)
    return 1 if total["samples_dropped"] > 0 or grown > 8 else 0


if __name__ == "__main__":
    sys.exit(main())
