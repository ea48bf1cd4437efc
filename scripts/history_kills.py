#!/usr/bin/env python3
"""Kills a recording daemon again and again and checks its history store after each kill.

    history_kills.py --binary BIN [--kills 200] [--sample Samples/busy-airport.cu8]

Each round starts the daemon replaying the sample (`--throttle --loop`) with the history in
one directory kept across rounds, waits a random 2 to 12 s (the store commits a batch every
5 s, so kills fall before, between and during batches), sends SIGKILL, and then opens the
store as any reader would: `PRAGMA integrity_check` must say ok, the positions must be at
least as many as after the round before (every committed batch kept), and nothing may have
been moved aside as damaged. Prints one line a round and a summary; exits 1 on any failure.
`make history-kills` runs it on the release build.
"""

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time


def inspect(path):
    """The store's integrity check and its rows of positions, read-only."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        check = connection.execute("PRAGMA integrity_check").fetchone()[0]
        rows = connection.execute("SELECT count(*) FROM positions").fetchone()[0]
        return check, rows
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--sample", default="Samples/busy-airport.cu8")
    parser.add_argument("--seed", type=int, default=None, help="for the kill moments (default: random)")
    args = parser.parse_args()
    chance = random.Random(args.seed)
    directory = tempfile.mkdtemp(prefix="aviator-history-kills-")
    store = os.path.join(directory, "history.sqlite")
    previous = 0
    failures = 0
    grew = 0
    started = time.monotonic()
    for round_number in range(1, args.kills + 1):
        daemon = subprocess.Popen(
            [args.binary, "--replay", args.sample, "--throttle", "--loop", "--receiver", "52.3,4.75",
             "--history-dir", directory],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            # Its own feed socket, so that a daemon already running elsewhere is left alone.
            env={**os.environ, "XDG_RUNTIME_DIR": directory})
        wait = chance.uniform(2, 12)
        time.sleep(wait)
        daemon.send_signal(signal.SIGKILL)
        _, stderr = daemon.communicate()
        problems = []
        if "aside" in stderr or "moved" in stderr:
            problems.append("the store was moved aside: " + stderr.strip().splitlines()[-1])
        aside = [name for name in os.listdir(directory) if "aside" in name]
        if aside:
            problems.append(f"files moved aside: {aside}")
        if os.path.exists(store):
            check, rows = inspect(store)
            if check != "ok":
                problems.append(f"integrity_check: {check}")
            if rows < previous:
                problems.append(f"{rows} positions, {previous} before the kill")
            grew += rows > previous
        else:
            rows = 0
        failures += bool(problems)
        print(f"kill {round_number}/{args.kills} after {wait:.1f} s: {rows} positions (+{rows - previous})"
              + ("" if not problems else " FAILED: " + "; ".join(problems)), flush=True)
        previous = max(previous, rows)
    minutes = (time.monotonic() - started) / 60
    print(f"{args.kills} kills in {minutes:.1f} min: {failures} failures; the store grew in {grew} rounds "
          f"to {previous} positions; integrity ok after every kill" if failures == 0 else
          f"{args.kills} kills: {failures} failures")
    subprocess.run(["rm", "-rf", directory], check=False)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
