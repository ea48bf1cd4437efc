#!/usr/bin/env python3
"""A long run of the daemon under everything outside can throw at it, all on loopback.

Four daemons run for --minutes (30 by default):

  replay   a busy sky replayed in real time in a loop, with 100 feed clients that connect,
           read, send views (good and bad) and leave, and readers of the Beast, SBS and AVR
           outputs, some of them too slow to keep up;
  beast    fed by a Beast sender that drops the connection every few seconds and mixes
           garbage, absurd timestamps and multilateration results into real frames;
  opensky  without a dongle, falling back to an OpenSky stand-in that answers with errors,
           429s without a wait, truncated or absurd JSON, slow answers and redirects;
  web      a quiet sky, served over HTTPS and gathering a network of receivers from a
           local mosquitto: malformed request heads, clients that close right after the TLS
           handshake, a foreign Host (DNS rebinding), bad WebSocket upgrades and unmasked
           frames, four /metrics scrapers, a phone on the feed timing its frames, a flood of
           made-up receivers (some announcing positions far away) and one real one
           (scripts/soak_web.py).

Every minute it prints each daemon's resident memory and open descriptors; at the end, their
first figures, those after the warm-up (the first five minutes, when caches and bounded tables
fill) and the last, how many clients were served and what went wrong. It fails when a daemon
died, its memory grew by more than --max-growth-mb after the warm-up, its descriptors kept
growing, or the web attacks found a defect.
"""
import argparse
import http.server
import json
import os
import random
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

import soak_web
from procfs import free_port, rss_kb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


class Counters:
    def __init__(self):
        self.lock = threading.Lock()
        self.values = {}

    def add(self, name, amount=1):
        with self.lock:
            self.values[name] = self.values.get(name, 0) + amount

    def snapshot(self):
        with self.lock:
            return dict(self.values)


COUNTERS = Counters()
STOP = threading.Event()


# ---- feed clients -------------------------------------------------------------------------

VIEWS = [
    b'{"type":"view","heading_deg":90,"range_km":30}\n',
    b'{"type":"view","heading_deg":0,"range_km":80,"hide_on_ground":true}\n',
    b'{"type":"view","range_km":5e-324}\n',
    b'{"type":"view","type":"view","range_km":10}\n',
    b'{"type":"view","heading_deg":1e308}\n',
    b'not json at all\n',
    b'{"type":"view","heading_deg":' + b'9' * 5000 + b'}\n',
    b'\xff\xfe\x00garbage\n',
]


def feed_client(path, rng):
    """One client: connects, reads for a while, maybe sends views, leaves."""
    while not STOP.is_set():
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(5)
                s.connect(path)
                COUNTERS.add("feed connections")
                stay = time.time() + rng.uniform(0.5, 20)
                buffered = b""
                while time.time() < stay and not STOP.is_set():
                    if rng.random() < 0.2:
                        s.sendall(rng.choice(VIEWS))
                    if rng.random() < 0.05:
                        time.sleep(rng.uniform(1, 4))  # a client that stops reading for a while
                    data = s.recv(65536)
                    if not data:
                        COUNTERS.add("feed closed by server")
                        break
                    buffered += data
                    *lines, buffered = buffered.split(b"\n")
                    for line in lines:
                        try:
                            message = json.loads(line)
                        except ValueError:
                            COUNTERS.add("feed invalid JSON")
                            continue
                        COUNTERS.add("feed " + str(message.get("type")))
        except (OSError, socket.timeout):
            COUNTERS.add("feed connection errors")
            time.sleep(1)
        time.sleep(rng.uniform(0, 1))


def output_reader(port, slow, rng):
    """Reads one TCP output, at full speed or a trickle; reconnects when cut off."""
    while not STOP.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                COUNTERS.add("output connections")
                until = time.time() + rng.uniform(10, 60)
                while time.time() < until and not STOP.is_set():
                    data = s.recv(256 if slow else 65536)
                    if not data:
                        COUNTERS.add("output closed by server")
                        break
                    COUNTERS.add("output bytes", len(data))
                    if slow:
                        time.sleep(1)
        except OSError:
            COUNTERS.add("output connection errors")
            time.sleep(1)


# ---- a hostile, flapping Beast sender -----------------------------------------------------

def beast_record(hex_message, timestamp, signal=0x80):
    body = timestamp.to_bytes(6, "big") + bytes([signal]) + bytes.fromhex(hex_message)
    out = bytearray([0x1A, 0x32 if len(hex_message) == 14 else 0x33])
    for b in body:
        out.append(b)
        if b == 0x1A:
            out.append(0x1A)
    return bytes(out)


def beast_sender(server, messages, rng):
    server.settimeout(1)
    while not STOP.is_set():
        try:
            conn, _ = server.accept()
        except socket.timeout:
            continue
        COUNTERS.add("beast connections")
        with conn:
            until = time.time() + rng.uniform(1, 8)
            clock = rng.randrange(1 << 40)
            try:
                while time.time() < until and not STOP.is_set():
                    chunk = bytearray()
                    for _ in range(50):
                        clock += rng.randrange(1000, 100000)
                        roll = rng.random()
                        if roll < 0.05:
                            stamp = 0xFFFFFFFFFFFF
                        elif roll < 0.10:
                            stamp = rng.randrange(1 << 48)
                        elif roll < 0.15:
                            stamp = 0xFF004D4C4154  # a multilateration result
                        else:
                            stamp = clock % (1 << 48)
                        chunk += beast_record(rng.choice(messages), stamp)
                        if rng.random() < 0.05:
                            chunk += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
                    conn.sendall(bytes(chunk))
                    time.sleep(0.05)
            except OSError:
                COUNTERS.add("beast send errors")


# ---- a misbehaving OpenSky stand-in -------------------------------------------------------

def opensky_handler(rng):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            COUNTERS.add("opensky requests")
            roll = rng.random()
            try:
                if roll < 0.15:
                    self.send_response(500)
                    self.end_headers()
                elif roll < 0.30:
                    self.send_response(429)
                    self.send_header("Retry-After", "0")
                    self.end_headers()
                elif roll < 0.40:
                    self.send_response(302)
                    self.send_header("Location", "http://127.0.0.2:9/api/states/all")
                    self.end_headers()
                elif roll < 0.50:
                    time.sleep(rng.uniform(5, 20))  # slower than the client waits
                    self.send_response(200)
                    self.end_headers()
                elif roll < 0.60:
                    self.send_response(200)
                    self.end_headers()
                    self.wfile.write(b'{"time":1,"states":[["abc123","KLM')
                else:
                    now = int(time.time())
                    states = []
                    for i in range(rng.randrange(0, 60)):
                        absurd = rng.random() < 0.1
                        states.append([
                            f"{0x400000 + i:06x}", "\u001b]0;X\u0007AB" if absurd else f"TST{i}",
                            "NL", now, now, 4.4 + i * 0.01, 52.0 + i * 0.005,
                            1e19 if absurd else 3000.0, False,
                            5e307 if absurd else 120.0, 90.0, -1e300 if absurd else 0.0,
                            None, 3100.0, "1000", False, 0, 3])
                    body = json.dumps({"time": now, "states": states}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
            except OSError:
                pass
    return Handler


# ---- the daemons --------------------------------------------------------------------------

class Daemon:
    def __init__(self, name, binary, arguments, log_dir, environment=None):
        self.name = name
        self.log_path = os.path.join(log_dir, f"{name}.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        env.update(environment or {})
        self.process = subprocess.Popen([binary] + arguments, stdout=subprocess.DEVNULL,
                                        stderr=self.log, env=env)
        self.samples = []

    def measure(self):
        if self.process.poll() is not None:
            return None
        figures = (rss_kb(self.process.pid), descriptors(self.process.pid))
        self.samples.append(figures)
        return figures

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        with open(self.log_path, errors="replace") as f:
            return f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/aviator-adsb"))
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--max-growth-mb", type=float, default=8)
    args = parser.parse_args()

    rng = random.Random(1090)
    work = tempfile.mkdtemp(prefix="aviator-soak-")
    sample = os.path.join(ROOT, "Samples/busy-airport.cu8")
    demod = subprocess.run([args.binary, "demod", sample], capture_output=True, text=True, check=True)
    messages = [line.strip()[1:-1] for line in demod.stdout.splitlines() if line.startswith("*")]

    ports = {name: free_port() for name in ("beast", "sbs", "avr", "beast-in", "opensky", "web", "mqtt")}
    broker = soak_web.Broker(work, ports["mqtt"])
    beast_server = socket.create_server(("127.0.0.1", ports["beast-in"]))
    opensky = socketserver.ThreadingTCPServer(("127.0.0.1", ports["opensky"]), opensky_handler(rng))
    opensky.daemon_threads = True
    threading.Thread(target=opensky.serve_forever, daemon=True).start()
    threading.Thread(target=beast_sender, args=(beast_server, messages, random.Random(7)), daemon=True).start()

    json_dir = os.path.join(work, "json")
    os.mkdir(json_dir)
    socket_path = os.path.join(work, "replay.sock")
    daemons = [
        Daemon("replay", args.binary, [
            "--replay", sample, "--throttle", "--loop", "--receiver", "52.3,4.75", "--socket", socket_path,
            "--beast-out", str(ports["beast"]), "--sbs-out", str(ports["sbs"]), "--avr-out", str(ports["avr"]),
            "--json-dir", json_dir, "--stats-interval", "60"], work),
        Daemon("beast", args.binary, [
            "--beast-in", f"127.0.0.1:{ports['beast-in']}", "--receiver", "52.3,4.75",
            "--socket", os.path.join(work, "beast.sock"), "--stats-interval", "60"], work),
        Daemon("opensky", args.binary, [
            "--receiver", "52.3,4.75", "--opensky-url", f"http://127.0.0.1:{ports['opensky']}",
            "--opensky-interval", "5", "--retry-interval", "5",
            "--socket", os.path.join(work, "opensky.sock"), "--stats-interval", "60"], work),
        Daemon("web", args.binary, [
            "--replay", os.path.join(ROOT, "Samples/quiet-sky-2m.cu8"), "--throttle", "--loop", "--receiver", "52.3,4.75",
            "--socket", os.path.join(work, "web.sock"), "--http", str(ports["web"]), "--tls-self-signed",
            "--state-dir", os.path.join(work, "state"), "--mqtt-in", f"mqtt://127.0.0.1:{ports['mqtt']}",
            "--stats-interval", "60"], work),
    ]
    time.sleep(3)
    records = [beast_record(message, index * 1000) for index, message in enumerate(messages)]
    gaps, durations = soak_web.start(ports["web"], ports["mqtt"], COUNTERS, random.Random(3), records)
    garden = []

    threads = []
    for index in range(args.clients):
        threads.append(threading.Thread(target=feed_client, args=(socket_path, random.Random(index)), daemon=True))
    for index, port in enumerate([ports["beast"], ports["sbs"], ports["avr"]] * 2):
        threads.append(threading.Thread(target=output_reader, args=(port, index >= 3, random.Random(500 + index)),
                                        daemon=True))
    for thread in threads:
        thread.start()

    print(f"soak: {args.minutes:g} min, {args.clients} feed clients, logs in {work}", flush=True)
    start = time.time()
    end = start + args.minutes * 60
    next_report = start
    while time.time() < end:
        if time.time() >= next_report:
            figures = []
            for daemon in daemons:
                measured = daemon.measure()
                figures.append(f"{daemon.name} " + ("DEAD" if measured is None else
                                                    f"{measured[0] / 1024:.1f} MB {measured[1]} fds"))
            try:
                garden.append(soak_web.garden_frames(ports["web"]))
            except OSError:
                garden.append(0)
            figures.append(f"garden receiver {garden[-1]} frames")
            print(f"[{(time.time() - start) / 60:5.1f} min] " + " | ".join(figures), flush=True)
            next_report += 60
        time.sleep(1)
    for daemon in daemons:
        daemon.measure()
    STOP.set()
    soak_web.STOP.set()
    broker.stop()

    failures = []
    print("\nsoak results")
    for daemon in daemons:
        alive = daemon.process.poll() is None
        log = daemon.stop()
        lines = log.splitlines()
        errors = [line for line in lines if " error" in line or "critical" in line or "Fatal" in line]
        if not alive:
            failures.append(f"{daemon.name} died (exit {daemon.process.returncode})")
        if daemon.samples:
            first, last = daemon.samples[0], daemon.samples[-1]
            warm = daemon.samples[min(5, len(daemon.samples) // 3)]
            peak = max(kb for kb, _ in daemon.samples)
            growth = (last[0] - warm[0]) / 1024
            print(f"  {daemon.name}: memory {first[0] / 1024:.1f}, after the warm-up {warm[0] / 1024:.1f}, "
                  f"at the end {last[0] / 1024:.1f} MB (peak {peak / 1024:.1f}), "
                  f"descriptors {first[1]} -> {last[1]}, {len(lines)} log lines, {len(errors)} error lines")
            if growth > args.max_growth_mb:
                failures.append(f"{daemon.name} grew by {growth:.1f} MB")
            if last[1] > first[1] + 20 + args.clients:
                failures.append(f"{daemon.name} descriptors grew from {first[1]} to {last[1]}")
        stats = [line for line in lines if "totals:" in line]
        if stats:
            print(f"    {stats[-1].split('totals: ', 1)[-1]}")
    print("  traffic: " + ", ".join(f"{k} {v}" for k, v in sorted(COUNTERS.snapshot().items())))
    if COUNTERS.snapshot().get("feed invalid JSON"):
        failures.append("the feed sent invalid JSON")
    def spread(values):
        ordered = sorted(values)
        return (f"median {ordered[len(ordered) // 2]:.3f} s, 99th percentile {ordered[len(ordered) * 99 // 100]:.3f} s, "
                f"longest {ordered[-1]:.3f} s")
    if gaps:
        print(f"  HTTPS feed: {len(gaps)} frames, gaps between them: {spread(gaps)}")
    if durations:
        print(f"  /metrics: {len(durations)} scrapes, {spread(durations)}")
    failures += soak_web.failures(COUNTERS.snapshot(), gaps, durations, garden[len(garden) // 2] if garden else 0,
                                  garden[-1] if garden else 0)
    try:
        with open(os.path.join(json_dir, "aircraft.json")) as f:
            aircraft = json.load(f)["aircraft"]
        print(f"  aircraft.json at the end: {len(aircraft)} aircraft")
    except (OSError, ValueError, KeyError) as error:
        failures.append(f"aircraft.json unreadable at the end: {error}")
    for failure in failures:
        print(f"FAIL: {failure}")
    print("soak passed" if not failures else "soak failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
