#!/usr/bin/env python3
"""Replays a recording with the history on and checks the store against what the daemon showed.

    history_check.py --binary BIN [--minutes 20] [--sample Samples/busy-airport.cu8]

While the daemon replays the sample in real time (`--throttle --loop`), the script reads its
feed (the Unix socket, every aircraft within 1000 km, a frame a second) and its aircraft.json
(`--json-dir`, once a second). Then it asks the web server for the stored positions
(`/data/history/tracks`) and the diary (`/data/history/diary`) of the same period and checks:

- every aircraft the feed showed with a position is in the store with positions;
- every stored position is at the feed's position of the same aircraft at the same time: a
  fix the feed showed with the same time (to 0.05 s) within 100 m of it. The feed shows the
  latest fix once a second and the history samples the tracker once a second at another
  moment, so some fixes one keeps the other passed over: those are reported against the
  nearest fix the feed showed within 5 s, which on the busy sample (0.8 s looped, so its
  aircraft come back to the same places) is within 200 m, what an airliner flies in 0.8 s;
- the thinning as documented (docs/history.md): no two stored positions of an aircraft less
  than 1 s apart, none more than 32 s apart while the feed showed it all the time between (one
  every 30 s, from positions sampled once a second);
- the diary's count of aircraft equals the aircraft in aircraft.json over the period, and its
  lowest, highest and fastest equal the extremes of aircraft.json's `alt_baro` (in the air)
  and `gs`.

Prints the figures and exits 1 when a check fails. `make history-check` runs it for 20 minutes
on the release build.
"""

import argparse
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from procfs import free_port


def metres(a, b):
    """Distance between two (lat, lon) points on a sphere, metres."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dl = math.radians(b[1] - a[1])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
        return json.load(response)


def follow(path, seconds, json_dir):
    """The feed's positions by aircraft (position time -> lat, lon) and the moments each was
    shown, and aircraft.json's aircraft with their extremes, for `seconds`."""
    feed = socket.socket(socket.AF_UNIX)
    feed.connect(path)
    feed.settimeout(5)
    reader = feed.makefile("r", encoding="utf-8")
    reader.readline()  # hello
    feed.sendall(b'{"type":"view","range_km":1000}\n')
    fixes, shown = {}, {}
    heard, lowest, highest, fastest = set(), None, None, None
    last_json = 0.0
    end = time.time() + seconds
    while time.time() < end:
        message = json.loads(reader.readline())
        if message.get("type") == "frame":
            for plane in message["aircraft"]:
                if plane.get("lat") is None:
                    continue
                when = round(message["time"] - (plane.get("seen_pos_s") or 0), 1)
                fixes.setdefault(plane["icao"], {})[when] = (plane["lat"], plane["lon"])
                shown.setdefault(plane["icao"], []).append(message["time"])
        if time.time() - last_json >= 1:
            last_json = time.time()
            try:
                with open(os.path.join(json_dir, "aircraft.json"), encoding="utf-8") as f:
                    document = json.load(f)
            except (OSError, ValueError):
                continue
            for plane in document.get("aircraft", []):
                heard.add(plane["hex"])
                altitude = plane.get("alt_baro")
                if isinstance(altitude, (int, float)):
                    lowest = altitude if lowest is None else min(lowest, altitude)
                    highest = altitude if highest is None else max(highest, altitude)
                if isinstance(plane.get("gs"), (int, float)):
                    fastest = plane["gs"] if fastest is None else max(fastest, plane["gs"])
    feed.close()
    return fixes, shown, heard, (lowest, highest, fastest)


def stored_positions(port, start, end):
    positions, since = [], int(start)
    while True:
        answer = get(port, f"/data/history/tracks?from={since}&to={int(end) + 1}&limit=100000")
        positions += answer["positions"]
        if not answer["truncated"]:
            return positions
        since = int(positions[-1]["time"])
        positions = [p for p in positions if p["time"] < since]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--sample", default="Samples/busy-airport.cu8")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="aviator-history-check-")
    port = free_port()
    daemon = subprocess.Popen(
        [args.binary, "--replay", args.sample, "--throttle", "--loop", "--receiver", "52.3,4.75",
         "--history-dir", os.path.join(folder, "history"), "--json-dir", folder, "--http", f"127.0.0.1:{port}",
         "--frame-interval", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "XDG_RUNTIME_DIR": folder})
    failures = []
    try:
        socket_path = os.path.join(folder, "aviator-adsb.sock")
        for _ in range(300):
            if os.path.exists(socket_path):
                break
            time.sleep(0.1)
        # The first seconds are the daemon starting; the period checked begins after them.
        launched = time.time()
        time.sleep(3)
        start = time.time()
        fixes, shown, heard, extremes = follow(socket_path, args.minutes * 60, folder)
        end = time.time()
        time.sleep(7)  # the last batch (every 5 s)
        positions = stored_positions(port, start, end)
        # A visit's row is written when it begins and then every 2 minutes: the diary of
        # the whole run, from the daemon's start, holds every aircraft.
        diary = get(port, f"/data/history/diary?from={int(launched) - 1}&to={int(end)}")
    finally:
        daemon.terminate()
        daemon.wait()
        subprocess.run(["rm", "-rf", folder], check=False)

    stored = {}
    for p in positions:
        stored.setdefault(p["hex"].lstrip("~"), []).append(p)
    missing = sorted(set(fixes) - set(stored))
    if missing:
        failures.append(f"{len(missing)} aircraft shown with a position are not stored: {missing[:10]}")
    worst, unmatched, checked = 0.0, [], 0
    same, worst_same = 0, 0.0
    close_gap, wide_gaps = [], []
    for hex_, points in stored.items():
        for p in points:
            if not start <= p["time"] <= end:
                continue
            seen = fixes.get(hex_, {})
            near = [t for t in seen if abs(t - p["time"]) <= 5]
            if not near:
                unmatched.append((hex_, p["time"]))
                continue
            checked += 1
            exact = [t for t in near if abs(t - p["time"]) <= 0.05]
            if exact:
                same += 1
                worst_same = max(worst_same, min(metres((p["lat"], p["lon"]), seen[t]) for t in exact))
            else:
                worst = max(worst, min(metres((p["lat"], p["lon"]), seen[t]) for t in near))
        times = sorted(p["time"] for p in points)
        for a, b in zip(times, times[1:]):
            if b - a < 1:
                close_gap.append((hex_, a, b))
            frames = [t for t in shown.get(hex_, []) if a < t < b]
            if b - a > 32 and len(frames) >= (b - a) - 2:
                wide_gaps.append((hex_, a, b))
    if unmatched:
        failures.append(f"{len(unmatched)} stored positions the feed never showed: {unmatched[:5]}")
    if worst_same > 100:
        failures.append(f"a stored position {worst_same:.0f} m from the feed's at the same time")
    if worst > 200:
        failures.append(f"a stored position {worst:.0f} m from any the feed showed within 5 s")
    if close_gap:
        failures.append(f"{len(close_gap)} pairs of positions less than 1 s apart: {close_gap[:5]}")
    if wide_gaps:
        failures.append(f"{len(wide_gaps)} gaps over 32 s while the feed showed the aircraft: {wide_gaps[:5]}")
    lowest, highest, fastest = extremes
    diary_values = (
        diary["aircraft"], (diary.get("lowest") or {}).get("min_altitude_ft"),
        (diary.get("highest") or {}).get("max_altitude_ft"), (diary.get("fastest") or {}).get("max_speed_kt"))
    expected = (len(heard), lowest, highest, None if fastest is None else round(fastest))
    if diary_values != expected:
        failures.append(f"diary (aircraft, lowest, highest, fastest) {diary_values}, aircraft.json {expected}")
    print(f"history check over {args.minutes:g} min: {len(fixes)} aircraft with positions in the feed, "
          f"{len(stored)} in the store; of {checked} stored positions {same} are fixes the feed showed, worst "
          f"{worst_same:.1f} m from the feed's, the other {checked - same} within {worst:.1f} m of one within 5 s; "
          f"diary {diary_values} against aircraft.json {expected}")
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
