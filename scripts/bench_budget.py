#!/usr/bin/env python3
"""The demodulator's governor on a slow computer, imitated: simulated skies replayed through
the daemon N times faster than real time (`--replay FILE --speed N`), so that the demodulator
has 1/N of this computer's processor per second of air, as on a computer N times slower.

    bench_budget.py BINARY READSB WORK [--speeds 1,2,4,8,16,32] [--streams dense,busy] [--doc FILE]

For each sky and speed, the daemon runs with the governor (`--demod-budget 100`, the whole
core the fixed levels have, and `--demod-budget 25`) and held at each fixed level
(`--demod-level 0` to `4`). Each run's
frames come from its Beast output (with their 12 MHz timestamps, so yield.py credits the very
copy of a message decoded) and are scored against the sky's truth: frames found, samples
dropped, the level the governor ended at and how often it moved, and the whole daemon's
processor time from its first sample on (its start is paid once, not per second of air; the
sky goes in through standard input once the daemon is ready). readsb decodes the same sky as
fast as it can, in the same run: its processor time per second of air says at which speed it
would itself fall behind (one core) and at which it would take a quarter of a core.

Prints a table per sky (with --doc, also written into FILE between the `make bench-budget`
markers) and, at the end, the checks the governor is held to:
  - governed, at every speed up to the one where the plain path itself drops samples:
    nothing dropped, and at least the frames of the best fixed level that drops nothing;
  - with --demod-budget 25 at the speed where readsb takes a quarter of a core: nothing
    dropped, the yield at least readsb's, and the whole daemon's processor time at most 1.5
    times readsb's for the same air (the median of --pairs pairs of runs in turn, since one
    run's time moves by a sixth from one run to the next).
"""
import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

from procfs import free_port, process_seconds

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (simulate options, seconds of air, label)
SKIES = {
    "dense": (["--busy", "--aircraft", "350", "--seed", "7105"], 20, "dense sky (350 aircraft)"),
    "busy": (["--busy", "--seed", "7102"], 10, "busy sky (150 aircraft)"),
}


def score(truth, frames_path):
    """(frames found, yield in % of the messages on air, false frames) of an AVR file."""
    out = subprocess.run([sys.executable, os.path.join(HERE, "yield.py"), truth, f"x={frames_path}", "--json"],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)["decoders"]["x"]
    found, total = result["rows"]["all"][:2]
    return found, 100.0 * found / max(1, total), result.get("false", 0)


def run_daemon(binary, sky, speed, flags, work):
    """Replays `sky` at `speed` with `flags`; returns what the run found and cost.

    The sky goes in through standard input, and only once the Beast output's client is
    connected: a replay that began as the daemon started would send its first frames before
    anyone listened (at speed 32 a tenth of a second is 3 s of air). The processor time counted
    is the daemon's from then on: its start (the identity store, the history, the listeners)
    is paid once, not per second of air, and at speed 8 on 20 s of air it would weigh as 3 %
    of a core."""
    port = free_port()
    log_path = os.path.join(work, "daemon.log")
    log = open(log_path, "w")
    daemon = subprocess.Popen(
        [binary, "--replay", "-", "--format", "cu8", "--speed", str(speed), "--beast-out", str(port),
         "--receiver", "52.3,4.75", "--socket", os.path.join(work, "bench.sock"), "--stats-interval", "86400"]
        + flags, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
    received = bytearray()
    for _ in range(200):
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=2)
            break
        except OSError:
            time.sleep(0.05)
    else:
        daemon.kill()
        raise SystemExit(f"bench-budget: the daemon's Beast output never listened ({log_path})")

    def read():
        with connection:
            connection.settimeout(None)
            while chunk := connection.recv(1 << 16):
                received.extend(chunk)

    def write():
        with open(sky, "rb") as source:
            while chunk := source.read(1 << 20):
                daemon.stdin.write(chunk)
        daemon.stdin.close()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # The daemon accepts the client on its event loop, a moment after the connection is made.
    time.sleep(0.3)
    started = process_seconds(daemon.pid)
    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    deadline = time.time() + 600
    while time.time() < deadline:
        time.sleep(0.1)
        with open(log_path) as f:
            if "(pass 1):" in f.read():
                break
        if daemon.poll() is not None:
            break
    # The last frames on their way out of the pipeline.
    time.sleep(0.5)
    cpu = process_seconds(daemon.pid) - started
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=30)
    reader.join(timeout=5)
    log.close()
    text = open(log_path).read()
    beast = os.path.join(work, "frames.beast")
    with open(beast, "wb") as f:
        f.write(received)
    avr = os.path.join(work, "frames.avr")
    with open(beast, "rb") as source, open(avr, "w") as sink:
        subprocess.run([sys.executable, os.path.join(HERE, "beast_to_avr.py")], stdin=source, stdout=sink, check=True)
    found, percent, false = score(sky + ".truth.jsonl", avr)
    totals = re.search(r"totals: .* (\d+) samples dropped", text)
    levels = re.findall(r"demodulator \d \([a-z ]+\) -> (\d) ", text)
    changes = re.search(r"demodulator [a-z ]+ \(level (\d), (\d+) changes\)", text.split("totals:")[-1])
    return {
        "frames": found, "yield": percent, "false": false, "cpu": cpu,
        "dropped": int(totals.group(1)) if totals else -1,
        "level": int(changes.group(1)) if changes else 4,
        "changes": int(changes.group(2)) if changes else 0,
        "levels": [int(level) for level in levels],
    }


def run_readsb(readsb, sky, work):
    """readsb on `sky` as fast as it can: (processor seconds, frames, yield %)."""
    dump = os.path.join(work, "readsb-dump")
    os.makedirs(dump, exist_ok=True)
    for name in os.listdir(dump):
        os.remove(os.path.join(dump, name))
    raw = os.path.join(work, "readsb.raw")
    started = os.times()
    with open(raw, "w") as out:
        subprocess.run([readsb, "--device-type", "ifile", "--ifile", sky, "--iformat", "UC8", "--raw",
                        f"--dump-beast={dump},3600"], stdout=out, stderr=subprocess.DEVNULL, check=True)
    ended = os.times()
    cpu = (ended.children_user - started.children_user) + (ended.children_system - started.children_system)
    avr = os.path.join(work, "readsb.avr")
    dumped = b"".join(subprocess.run(["zstd", "-qdc", os.path.join(dump, name)], capture_output=True,
                                     check=True).stdout for name in sorted(os.listdir(dump)))
    with open(avr, "w") as sink:
        subprocess.run([sys.executable, os.path.join(HERE, "beast_to_avr.py"), raw], input=dumped, stdout=sink,
                       check=True)
    found, percent, _ = score(sky + ".truth.jsonl", avr)
    return cpu, found, percent


def bench_sky(args, name):
    options, seconds, label = SKIES[name]
    sky = os.path.join(args.work, f"{name}.cu8")
    if not os.path.exists(sky):
        print(f"bench-budget: simulating the {label}, {seconds} s...", file=sys.stderr)
        subprocess.run([args.binary, "simulate", "--channel", "real", "--out", sky, "--sample-rate", "2.4M",
                        "--duration", str(seconds)] + options, check=True, capture_output=True)
    readsb_cpu, readsb_frames, readsb_yield = run_readsb(args.readsb, sky, args.work)
    readsb_share = readsb_cpu / seconds
    print(f"\n{label}: readsb {readsb_frames} frames ({readsb_yield:.1f}%), {readsb_cpu:.2f} s of processor "
          f"for {seconds} s of air: {100 * readsb_share:.1f}% of a core at speed 1, so it falls behind above "
          f"speed {1 / readsb_share:.0f} and takes a quarter of a core at speed {0.25 / readsb_share:.1f}")
    configurations = [("governed 100%", ["--demod-budget", "100"]), ("governed 25%", ["--demod-budget", "25"])] + [
        (f"level {level}", ["--demod-level", str(level)]) for level in range(5)]
    results = {}
    print("speed  configuration   frames  yield   dropped samples  level (changes)  daemon CPU/air")
    for speed in args.speeds:
        for title, flags in configurations:
            result = run_daemon(args.binary, sky, speed, flags, args.work)
            results[(speed, title)] = result
            print(f"{speed:5}  {title:14} {result['frames']:7}  {result['yield']:5.1f}%  {result['dropped']:15}  "
                  f"{result['level']} ({result['changes']}){'':11}  {100 * result['cpu'] * speed / seconds:5.1f}%",
                  flush=True)
    # The processor-time ratio at the speed where readsb takes a quarter of a core, from pairs of
    # runs in turn: one run of each moves by a sixth from one run to the next on this computer.
    quarter = min(args.speeds, key=lambda s: abs(s - 0.25 / readsb_share))
    ratios = [results[(quarter, "governed 25%")]["cpu"] / readsb_cpu]
    for _ in range(args.pairs - 1):
        cpu = run_readsb(args.readsb, sky, args.work)[0]
        ratios.append(run_daemon(args.binary, sky, quarter, ["--demod-budget", "25"], args.work)["cpu"] / cpu)
    print(f"processor time against readsb's at speed {quarter}, budget 25 %, {len(ratios)} pairs: "
          + ", ".join(f"{r:.2f}" for r in ratios), flush=True)
    return {"label": label, "seconds": seconds, "readsb": {"cpu": readsb_cpu, "frames": readsb_frames,
            "yield": readsb_yield}, "runs": {f"{speed}|{title}": r for (speed, title), r in results.items()},
            "ratios": ratios}


def markdown(summary, speeds, lines):
    """The tables and the checks' lines for docs/demodulator.md."""
    out = [f"_Written by `make bench-budget` on {time.strftime('%Y-%m-%d')}._", ""]
    titles = ["governed 100%", "governed 25%"] + [f"level {level}" for level in range(5)]
    for sky in summary.values():
        readsb = sky["readsb"]
        share = readsb["cpu"] / sky["seconds"]
        out += [f"The {sky['label']}, {sky['seconds']} s: readsb finds {readsb['frames']} frames "
                f"({readsb['yield']:.1f} %) in {100 * share:.1f} % of a core at speed 1 (it would fall behind "
                f"above speed {1 / share:.0f}). Per speed and configuration: frames found, samples dropped "
                "(millions), and for the governor the level it ended at and its changes; the whole daemon's "
                "processor time per second of air in % of a core:", "",
                "| speed | " + " | ".join(titles) + " |", "| --- |" + " --- |" * len(titles)]
        for speed in speeds:
            cells = []
            for title in titles:
                run = sky["runs"][f"{speed}|{title}"]
                dropped = f", {run['dropped'] / 1e6:.1f} M dropped" if run["dropped"] else ""
                level = f", level {run['level']} ({run['changes']})" if title.startswith("governed") else ""
                cpu = 100 * run["cpu"] * speed / sky["seconds"]
                cells.append(f"{run['frames']}{dropped}{level}, {cpu:.0f} %")
            out.append(f"| {speed} | " + " | ".join(cells) + " |")
        out.append("")
    out += [f"- {line}" for line in lines]
    return "\n".join(out) + "\n"


def write_doc(path, text):
    """Replaces what is between the bench-budget markers in `path` with `text`."""
    begin, end = "<!-- make bench-budget: begin -->\n", "<!-- make bench-budget: end -->"
    document = open(path).read()
    head, _, rest = document.partition(begin)
    _, _, tail = rest.partition(end)
    with open(path, "w") as f:
        f.write(head + begin + text + end + tail)


def checks(summary, speeds):
    """The failures of the governor's targets, one line each."""
    failures, lines = [], []
    for sky in summary.values():
        runs = sky["runs"]
        for speed in speeds:
            if runs[f"{speed}|level 0"]["dropped"] > 0:
                break
            governed = runs[f"{speed}|governed 100%"]
            clean = [runs[f"{speed}|level {level}"]["frames"] for level in range(5)
                     if runs[f"{speed}|level {level}"]["dropped"] == 0]
            if governed["dropped"] > 0:
                failures.append(f"{sky['label']}, speed {speed}: governed, {governed['dropped']} samples dropped")
            if clean and governed["frames"] < max(clean):
                failures.append(f"{sky['label']}, speed {speed}: governed found {governed['frames']} frames, "
                                f"the best fixed level without drops {max(clean)}")
        quarter = 0.25 * sky["seconds"] / sky["readsb"]["cpu"]
        speed = min(speeds, key=lambda s: abs(s - quarter))
        run = runs[f"{speed}|governed 25%"]
        daemon_share = run["cpu"] * speed / sky["seconds"]
        readsb_share = sky["readsb"]["cpu"] * speed / sky["seconds"]
        ratio = statistics.median(sky["ratios"])
        lines.append(f"{sky['label']}: at speed {speed} (readsb takes a quarter of a core at {quarter:.1f}), "
                     f"budget 25 %: {run['dropped']} samples dropped, yield {run['yield']:.1f} % against readsb's "
                     f"{sky['readsb']['yield']:.1f} %, the daemon {100 * daemon_share:.1f} % of a core against "
                     f"readsb's {100 * readsb_share:.1f} %; over {len(sky['ratios'])} pairs of runs in turn, "
                     f"{ratio:.2f} times readsb's processor time (median; "
                     f"{min(sky['ratios']):.2f} to {max(sky['ratios']):.2f})")
        print(lines[-1])
        if run["dropped"] > 0:
            failures.append(f"{sky['label']}, budget 25% at speed {speed}: {run['dropped']} samples dropped")
        if run["yield"] < sky["readsb"]["yield"]:
            failures.append(f"{sky['label']}, budget 25% at speed {speed}: yield below readsb's")
        if ratio > 1.5:
            failures.append(f"{sky['label']}, budget 25% at speed {speed}: daemon over 1.5 times readsb's CPU")
    return failures, lines + ([f"not met: {failure}" for failure in failures] if failures else ["every check met"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("readsb")
    parser.add_argument("work")
    parser.add_argument("--speeds", default="1,2,4,8,16,32")
    parser.add_argument("--streams", default="dense,busy")
    parser.add_argument("--pairs", type=int, default=5,
                        help="pairs of runs (readsb, the daemon at a 25 %% budget) for the processor-time ratio")
    parser.add_argument("--json")
    parser.add_argument("--doc")
    args = parser.parse_args()
    args.speeds = [float(s) if "." in s else int(s) for s in args.speeds.split(",")]
    os.makedirs(args.work, exist_ok=True)
    summary = {name: bench_sky(args, name) for name in args.streams.split(",")}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    print()
    failures, lines = checks(summary, args.speeds)
    for failure in failures:
        print("not met:", failure)
    if args.doc:
        write_doc(args.doc, markdown(summary, args.speeds, lines))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
