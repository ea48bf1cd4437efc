"""The web server's and the receiver network's attackers for scripts/soak.py.

Every function here runs in a thread of its own until STOP is set, counting what it saw in
COUNTERS (names starting "web " or "mqtt "); the soak fails on the counts that mean a defect
(a malformed head left unanswered, a foreign Host served, a bad upgrade accepted, a slow
/metrics, the feed late or sending invalid JSON).
"""
import base64
import json
import os
import shutil
import socket
import ssl
import struct
import subprocess
import threading
import time

STOP = threading.Event()

# Request heads the server must refuse with a 4xx answer and a close.
BAD_HEADS = [
    b"get / HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"GET / HTTP/9.9\r\nHost: localhost\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\nNoColonHere\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 90000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: localhost\r\n" + b"X-A: b\r\n" * 2000 + b"\r\n",
]

# Upgrade requests the server must refuse with a 4xx answer.
BAD_UPGRADES = [
    "POST /feed HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nContent-Length: 0\r\n\r\n",
    "GET /feed HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: !!\r\nSec-WebSocket-Version: 13\r\n\r\n",
    "GET /feed HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n",
    "GET /feed HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n",
]


def _context():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


CONTEXT = _context()


def _connect(port, timeout=10):
    raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return CONTEXT.wrap_socket(raw, server_hostname="localhost")


def _read_all(sock, limit=1 << 20):
    """What the server sends until it closes; the second value is False when it kept the
    connection open past the socket's timeout."""
    data = b""
    try:
        while len(data) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        return data, False
    except OSError:
        pass
    return data, True


def _exchange(port, request):
    """Sends `request` over TLS and returns everything read until the server closes."""
    with _connect(port, timeout=5) as sock:
        sock.sendall(request)
        return _read_all(sock)[0]


def _guarded(counters, name, action, pause):
    """Runs `action` until STOP, counting connection errors under `name`."""
    while not STOP.is_set():
        try:
            action()
        except (OSError, socket.timeout, ssl.SSLError):
            counters.add(f"web {name} connection errors")
            time.sleep(0.5)
        time.sleep(pause)


def bad_heads(port, counters, rng):
    """Malformed request heads: each must get a 4xx answer (then a close)."""
    def attack():
        answer = _exchange(port, rng.choice(BAD_HEADS))
        counters.add("web malformed heads answered" if answer.startswith(b"HTTP/1.1 4")
                     else "web malformed heads unanswered")
    _guarded(counters, "malformed heads", attack, 0.05)


def tls_hang_ups(port, counters):
    """Clients that finish the TLS handshake and close with a bare FIN, as port scanners do."""
    def attack():
        sock = _connect(port, timeout=5)
        socket.socket(fileno=sock.detach()).close()
        counters.add("web TLS hang-ups")
    _guarded(counters, "hang-ups", attack, 0.01)


def foreign_hosts(port, counters):
    """A page that rebound its name to the daemon: its Host must be refused with no data."""
    def attack():
        answer = _exchange(port, b"GET /data/receiver.json HTTP/1.1\r\nHost: attacker.example\r\n\r\n")
        counters.add("web foreign hosts refused" if answer.startswith(b"HTTP/1.1 421")
                     else "web foreign hosts served")
    _guarded(counters, "foreign hosts", attack, 0.2)


def bad_upgrades(port, counters, rng):
    """WebSocket handshakes the server must refuse, and a client that sends unmasked frames."""
    def attack():
        answer = _exchange(port, rng.choice(BAD_UPGRADES).encode())
        counters.add("web bad upgrades refused" if answer.startswith(b"HTTP/1.1 4")
                     else "web bad upgrades accepted")
        with _open_feed(port) as sock:
            sock.sendall(bytes([0x81, 2]) + b"{}")  # no mask bit: a protocol error from a client
            _, closed = _read_all(sock)
            counters.add("web unmasked frames closed" if closed else "web unmasked frames kept")
    _guarded(counters, "bad upgrades", attack, 0.2)


def _open_feed(port):
    sock = _connect(port, timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /feed HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise OSError("the feed closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise OSError("the feed refused the upgrade: " + head.split(b"\r\n")[0].decode(errors="replace"))
    return sock


def _read_exact(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise OSError("the feed closed")
        data += chunk
    return data


def _messages(sock):
    """The feed's text messages, one at a time (server frames are unmasked and unfragmented)."""
    while not STOP.is_set():
        first, second = _read_exact(sock, 2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", _read_exact(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", _read_exact(sock, 8))[0]
        payload = _read_exact(sock, length)
        opcode = first & 0x0F
        if opcode == 8:
            raise OSError("the feed sent close")
        if opcode == 9:  # ping: a pong with the same data, masked as clients must
            mask = os.urandom(4)
            masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
            sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask + masked)
        if opcode == 1:
            yield payload


def feed_watcher(port, counters, gaps):
    """One phone on the feed over HTTPS: records the longest wait between radar frames."""
    def watch():
        with _open_feed(port) as sock:
            last = time.monotonic()
            for payload in _messages(sock):
                try:
                    message = json.loads(payload)
                except ValueError:
                    counters.add("web feed invalid JSON")
                    continue
                if message.get("type") == "frame":
                    now = time.monotonic()
                    gaps.append(now - last)
                    last = now
                    counters.add("web feed frames")
    _guarded(counters, "feed", watch, 1)


def metrics_scraper(port, counters, durations):
    """Scrapes /metrics as Prometheus would, recording how long each answer took."""
    def scrape():
        started = time.monotonic()
        answer = _exchange(port, f"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                           .encode())
        durations.append(time.monotonic() - started)
        counters.add("web metrics scrapes" if answer.startswith(b"HTTP/1.1 200") else "web metrics failed")
    _guarded(counters, "metrics", scrape, 2)


# ---- the receiver network -----------------------------------------------------------------

class Broker:
    """A mosquitto broker on a free port, for the aggregator and the attackers."""

    def __init__(self, work, port):
        self.port = port
        config = os.path.join(work, "mosquitto.conf")
        with open(config, "w") as f:
            f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.process = subprocess.Popen([binary, "-c", config], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        time.sleep(1)

    def stop(self):
        self.process.terminate()
        self.process.wait()


def _length(value):
    out = bytearray()
    while True:
        byte, value = value % 128, value // 128
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _string(text):
    data = text.encode()
    return struct.pack(">H", len(data)) + data


def _mqtt_connect(port, client_id):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    body = _string("MQTT") + bytes([4, 0x02]) + struct.pack(">H", 60) + _string(client_id)
    sock.sendall(bytes([0x10]) + _length(len(body)) + body)
    if _read_exact(sock, 4)[3] != 0:
        raise OSError("the broker refused the connection")
    return sock


def _publish(sock, topic, payload, retain=False):
    body = _string(topic) + payload
    sock.sendall(bytes([0x30 | (1 if retain else 0)]) + _length(len(body)) + body)


def _batch(sequence, earlier, records):
    return bytes([1]) + struct.pack(">II", sequence, earlier) + b"".join(records)


def receiver_flood(port, counters, records):
    """Made-up receivers, a hundred new names a second, some announcing positions far away."""
    def flood():
        sock = _mqtt_connect(port, "soak-flood")
        with sock:
            number = 0
            while not STOP.is_set():
                for _ in range(10):
                    number += 1
                    name = f"made-up-{number}"
                    # From the other half of the list than the garden receiver's, so that its
                    # frames are never duplicates of these.
                    at = (len(records) // 2 + number) % len(records)
                    _publish(sock, f"aviator/{name}/beast", _batch(0, 0, records[at:at + 3]))
                    if number % 50 == 0:
                        _publish(sock, f"aviator/{name}/receiver", b'{"lat":-45.0,"lon":170.0}', retain=True)
                counters.add("mqtt made-up receivers", 10)
                time.sleep(0.1)
    _guarded(counters, "mqtt flood", flood, 1)


def garden_receiver(port, counters, records):
    """The one real receiver of the network: a batch of frames every 250 ms under one name,
    from a sky the web daemon does not hear itself (so none of it is a duplicate)."""
    def publish():
        sock = _mqtt_connect(port, "soak-garden")
        with sock:
            _publish(sock, "aviator/garden/receiver", b'{"lat":52.3,"lon":4.8}', retain=True)
            sequence, earlier = 0, 0
            while not STOP.is_set():
                chunk = records[(sequence * 20) % len(records):][:20]
                _publish(sock, "aviator/garden/beast", _batch(sequence, earlier, chunk))
                sequence, earlier = sequence + 1, earlier + len(chunk)
                counters.add("mqtt garden batches")
                time.sleep(0.25)
    _guarded(counters, "mqtt garden", publish, 1)


def garden_frames(port):
    """The garden receiver's tracked frames, from /metrics (0 when it is not there)."""
    answer = _exchange(port, f"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                       .encode()).decode(errors="replace")
    for line in answer.splitlines():
        if line.startswith('aviator_source_frames_total{source="mqtt garden"}'):
            return int(float(line.split()[-1]))
    return 0


def start(web_port, broker_port, counters, rng, records):
    """Starts every attacker; returns the lists the feed gaps and scrape times go into."""
    gaps, durations = [], []
    jobs = [
        (bad_heads, (web_port, counters, rng)),
        (tls_hang_ups, (web_port, counters)),
        (foreign_hosts, (web_port, counters)),
        (bad_upgrades, (web_port, counters, rng)),
        (feed_watcher, (web_port, counters, gaps)),
        (receiver_flood, (broker_port, counters, records)),
        (garden_receiver, (broker_port, counters, records)),
    ] + [(metrics_scraper, (web_port, counters, durations))] * 4
    for target, arguments in jobs:
        threading.Thread(target=target, args=arguments, daemon=True).start()
    return gaps, durations


def failures(counters, gaps, durations, garden_before, garden_after):
    """What the web attacks found wrong, one line each."""
    found = []
    for bad in ("web malformed heads unanswered", "web foreign hosts served", "web bad upgrades accepted",
                "web unmasked frames kept", "web feed invalid JSON", "web metrics failed"):
        if counters.get(bad):
            found.append(f"{bad}: {counters[bad]}")
    if not gaps:
        found.append("the HTTPS feed sent no frames")
    elif max(gaps) > 3:
        found.append(f"the HTTPS feed was late: {max(gaps):.1f} s between two frames")
    if durations and max(durations) > 1:
        found.append(f"a /metrics scrape took {max(durations):.2f} s")
    if garden_after <= garden_before:
        found.append("the garden receiver's frames stopped being tracked")
    return found
