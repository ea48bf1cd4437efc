#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus, Fuzz/Corpus/<target>/, from the project's own data.

message-line: lines of ../shared/messages in every form the decoder reads (CSV rows, AVR,
  timestamped AVR, bare hex) and a few broken ones.
beast:        Beast streams of the same messages, written by the project's BeastEncoder (a
  small Swift program built from Sources/ModeS), whole, escaped and cut short.
feed:         the lines of docs/feed.md: the server's hello, frame, view and error lines and
  the commands a client sends, right and wrong.
opensky:      response bodies shaped like the ones in Tests/ReceiversTests/OpenSky, and
  Retry-After values (seconds, HTTP dates).
demod:        short IQ snippets of Samples/ and ../shared/iq in each format and at both
  rates, behind the two control bytes the demod target reads.
mqtt:         messages of the network of receivers: frame batches made of the beast seeds'
  frames, receiver announcements and statuses, behind the topic byte the mqtt target reads,
  and broken ones.

With target names as arguments (e.g. `mqtt`), only those are written again.

Files are named by content, so running it again only adds what changed. Inputs saved by a
fuzzer as regressions (regression-*) are left alone.
"""
import glob
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def write(target, data, name=None):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    name = name or "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def shared_lines(name, count, step):
    with open(os.path.join(SHARED, "messages", name), encoding="utf-8-sig") as f:
        lines = [line.rstrip("\r\n") for line in f if line.strip()]
    return lines[::step][:count]


def messages():
    rows = shared_lines("sample_data_adsb.csv", 12, 97) + shared_lines("sample_data_commb_df20.csv", 6, 331) \
        + shared_lines("sample_data_commb_df21.csv", 6, 331)
    hexes = [next(c.strip('"') for c in row.split(",")[1:] if len(c.strip('"')) == 28) for row in rows]
    return rows, hexes


def message_line_seeds(rows, hexes):
    for row in rows:
        write("message-line", row + "\n")
    for i, h in enumerate(hexes[:8]):
        write("message-line", f"*{h};\n")
        write("message-line", f"@{i * 123456789:012X}{h};\n")
        write("message-line", h.lower() + "\n")
    write("message-line", "\n".join(rows[:10]) + "\n")
    write("message-line", "\ufeff" + rows[0] + "\r\n*" + hexes[1] + ";\r\n")
    # DF11 and short replies as AVR, and broken lines the parser must refuse.
    write("message-line", "*5D4840D6E1CA54;\n*02E19898C5B53F;\n*28001B3ADFAEA6;\n")
    write("message-line", "*8D4840D6202CC371C32CE057609;\n*ZZ;\n@12;\n,,,\n1e999,8D4840D6202CC371C32CE0576098\n")


def beast_seeds(hexes):
    """Beast frames from the project's encoder: a Swift program built from Sources/ModeS."""
    with tempfile.TemporaryDirectory() as tmp:
        main = os.path.join(tmp, "main.swift")
        with open(main, "w") as f:
            f.write("""
import Foundation
// Reads "hex timestamp level" lines, prints each as a Beast frame in hex.
while let line = readLine() {
    let parts = line.split(separator: " ")
    let bits = ModeSBits(hex: parts[0])!
    let frame = Frame(bits: bits, address: 0, timestamp: UInt64(parts[1])!, signalLevel: Double(parts[2])!)
    print(BeastEncoder.encode(frame).map { String(format: "%02x", $0) }.joined())
}
""")
        sources = sorted(glob.glob(os.path.join(ROOT, "Sources", "ModeS", "**", "*.swift"), recursive=True))
        binary = os.path.join(tmp, "encode")
        subprocess.run(["swiftc", "-O", "-module-name", "BeastSeeds", "-o", binary, main] + sources, check=True)
        requests = []
        for i, h in enumerate(hexes + ["5D4840D6E1CA54", "02E19898C5B53F", "28001B3ADFAEA6"]):
            # Timestamps and levels that put 0x1A bytes in the frame now and then.
            requests.append(f"{h} {0x1A1A00000000 + i * 0x1A1A if i % 3 == 0 else i * 1_000_003} {-3.0 - i}")
        out = subprocess.run([binary], input="\n".join(requests) + "\n", capture_output=True, text=True, check=True)
        frames = [bytes.fromhex(x) for x in out.stdout.split()]
    for i, frame in enumerate(frames):
        write("beast", bytes([i]) + frame)
    write("beast", bytes([1]) + b"".join(frames))
    write("beast", bytes([2]) + b"".join(frames[:5]) + bytes([0x1A, 0x31, 0, 0, 0, 0, 0, 1, 50, 0x12, 0x34]))
    # Cut short: a frame missing its tail, then a whole one.
    write("beast", bytes([3]) + frames[0][:9] + frames[1] + frames[2][:3] + bytes([0x1A, 0x1A, 0x1A, 0x35]) + frames[3])
    return frames


def mqtt_seeds(frames):
    """Byte 0 picks the topic (0 beast, 1 receiver, 2 status, 3 topic in the input up to a zero byte)."""
    def batch(sequence, before, chosen):
        return bytes([1]) + struct.pack(">II", sequence, before) + b"".join(chosen)
    write("mqtt", bytes([0]) + batch(0, 0, frames))
    write("mqtt", bytes([0]) + batch(7, 1000, frames[:3]))
    write("mqtt", bytes([0]) + batch(0xFFFFFFFF, 0xFFFFFFF0, frames[3:6]))
    write("mqtt", bytes([0]) + batch(1, 0, []))
    write("mqtt", bytes([0]) + batch(2, 5, frames[:2]) + frames[2][:5])
    write("mqtt", bytes([0]) + bytes([2]) + batch(0, 0, frames[:1])[1:])
    write("mqtt", bytes([0]) + batch(3, 3, frames[:2]) + bytes([0x1A, 0x31, 0, 0, 0, 0, 0, 1, 50, 0x12, 0x34]))
    write("mqtt", bytes([1]) + b'{"lat":52.3,"lon":4.8,"version":"aviator-adsb 0.9.0","sources":"rtl-sdr"}')
    write("mqtt", bytes([1]) + b'{"version":"aviator-adsb 0.9.0","sources":"replay+beast"}')
    write("mqtt", bytes([1]) + b'{"lat":91,"lon":0}')
    write("mqtt", bytes([1]) + b'{"lat":-33.9,"lon":151.2,"extra":{"a":[1,2,null]},"version":"v\\u0007"}')
    write("mqtt", bytes([1]))
    write("mqtt", bytes([2]) + b"online")
    write("mqtt", bytes([2]) + b"offline")
    write("mqtt", bytes([3]) + b"aviator/alpha/beast\0" + batch(0, 0, frames[:4]))
    write("mqtt", bytes([3]) + b"region/aviator/b.c/receiver\0" + b'{"lat":0,"lon":0}')
    write("mqtt", bytes([3]) + b"aviator/+/beast\0" + batch(0, 0, frames[:1]))
    write("mqtt", bytes([3]) + b"aviator/self/beast\0" + batch(0, 0, frames[:1]))
    write("mqtt", bytes([3]) + b"\0")


def feed_seeds():
    with open(os.path.join(ROOT, "docs", "feed.md"), encoding="utf-8") as f:
        doc = f.read()
    lines = sorted(set(re.findall(r'^(\{"type".*\})\s*$', doc, re.M)))
    lines += re.findall(r"sendall\(b'(\{.*?\})\\n'\)", doc)
    commands = [
        '{"type":"view","heading_deg":270}',
        '{"type":"view","range_km":1000,"min_alt_ft":-2000,"max_alt_ft":100000}',
        '{"type":"view","min_alt_ft":null,"max_distance_km":0.5}',
        '{"type":"view","heading_deg":360,"hide_on_ground":false}',
        '{"type":"view","heading_deg":"north"}',
        '{"type":"view","range_km":0}',
        '{"type":"view","zoom":2}',
        '{"type":"zoom"}',
        '{"type":7}',
        '[1,2,3]',
        '{"type":"view","heading_deg":1e400}',
        '   ',
        '{"type":"hello","version":1,"receiver":null,"source":"x","view":{"heading_deg":359.999,"range_km":1e20}}',
        '{"type":"frame","seq":1,"heading_deg":0,"range_km":50,"aircraft":[{"icao":"abc"},{"icao":"\\u2028\\n\\"x"}]}',
        '{"type":"frame","seq":1.5,"heading_deg":0,"range_km":50,"aircraft":[]}',
        '{"type":"error","message":"\\u0000\\t\\\\ \\ud83d\\ude80"}',
        '{"type":"radar","unknown":true}',
    ]
    everything = lines + commands
    for i, line in enumerate(everything):
        write("feed", bytes([i]) + line.encode() + b"\n")
    write("feed", bytes([0]) + "\r\n".join(everything).encode() + b"\r\n")
    write("feed", bytes([5]) + b"{" * 3000 + b"\n" + lines[0].encode() + b"\n")


def opensky_seeds():
    now = 1763781234
    cruising = f'["4b1805","SWR8KR  ","Switzerland",{now - 1},{now},8.6521,47.4502,3048,false,100,271.5,-5.08,null,3100.8,"1000",false,0]'
    taxiing = f'["3c6675","DLH4TK  ","Germany",null,{now},null,null,null,true,4.12,92.81,null,null,null,"7000",false,0,4]'
    sparse = f'["a1b2c3",null,"United States",{now - 3},{now - 2},8.3,47.2,null,false,null,null,null,null,null,null,false,2,null]'
    sensors = f'["40621d","BAW12   ","United Kingdom",{now},{now},-0.4,51.47,11277.6,false,245.1,88.2,0,[1,2,3],11582.4,"7500",true,1,6]'
    bad = [
        f'["zzzzzz",null,"",null,{now},null,null,null,false,null,null,null,null,null,null,false,0]',
        f'["4b1805",null,"",null,{now},200,95,null,false,null,null,null,null,null,null,false,0]',
        f'["4b1805",null,"",null,{now},1,1,99999,false,5000,null,null,null,null,"12345",false,0]',
        '["4b1805"]',
        '"not a row"',
    ]
    bodies = [
        {"states": [cruising, taxiing, sparse]},
        {"states": [sensors]},
        {"states": [cruising] + bad},
        {"states": bad},
        {"states": None},
        {"states": []},
    ]
    for body in bodies:
        states = "null" if body["states"] is None else "[" + ",".join(body["states"]) + "]"
        write("opensky", f'{{"time":{now},"states":{states}}}')
    for text in ['{"time":1}', '{"states":[]}', '', '   \n', '<html><body>502 Bad Gateway</body></html>',
                 '{"time":1e308,"states":null}', '{"time":-5,"states":[[]]}',
                 f'{{"time":{now},"states":[{cruising}', '[]', 'null']:
        write("opensky", text)
    # The same bytes are read as a Retry-After header too: seconds and HTTP dates.
    for text in ['120', ' 2.5 ', 'Sun, 06 Nov 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 08:50:07 GMT',
                 'Thu, 29 Feb 2024 23:59:60 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'Sun, 31 Nov 1994 08:49:37 GMT']:
        write("opensky", text)


def demod_seeds():
    """Snippets of IQ in each format and at each rate. The first byte: format (0 cu8, 1 cs16,
    2 cf32) + 4 for 2.0 MS/s; the options bits stay 0 (every stage on) except in a few."""
    def cu8_to_cs16(data):
        return b"".join(struct.pack("<h", (b - 127) * 256) for b in data)

    def cu8_to_cf32(data):
        return b"".join(struct.pack("<f", (b - 127.5) / 128) for b in data)

    picks = [  # file, rate flag, format of the file, snippet bytes, offsets
        (os.path.join(ROOT, "Samples", "busy-airport.cu8"), 0, "cu8", 4096, [0, 400_000, 1_200_000, 2_500_000, 3_700_000]),
        (os.path.join(ROOT, "Samples", "weak-signals.cu8"), 0, "cu8", 4096, [100_000, 1_900_000]),
        (os.path.join(ROOT, "Samples", "quiet-sky-2m.cu8"), 4, "cu8", 4096, [0, 600_000, 1_500_000]),
    ]
    for path, rate, _, size, offsets in picks:
        with open(path, "rb") as f:
            data = f.read()
        for n, offset in enumerate(offsets):
            snippet = data[offset:offset + size]
            write("demod", bytes([rate, n * 37]) + snippet)
            if n == 0:
                write("demod", bytes([rate | 1, 1]) + cu8_to_cs16(snippet[:2048]))
                write("demod", bytes([rate | 2, 2]) + cu8_to_cf32(snippet[:2048]))
                write("demod", bytes([rate | 0xF8, 3]) + snippet)
    # Real recordings around the frames their peers found (positions from a demod run).
    real = [("rsadsb_1641427457780.sc16", 1, 0), ("adsbread_x1.cu8", 0, 4)]
    for name, fmt, rate in real:
        path = os.path.join(SHARED, "iq", name)
        if not os.path.exists(path):
            continue
        with open(path, "rb") as f:
            data = f.read(600_000)
        for n, offset in enumerate([0, 250_000, 500_000]):
            write("demod", bytes([rate | fmt, n]) + data[offset:offset + 6000])
    write("demod", bytes([2, 0]) + struct.pack("<8f", float("nan"), float("inf"), -float("inf"), 1e38, -1e38, 0, 5e-45, 1))
    write("demod", bytes([1, 9]) + struct.pack("<8h", -32768, 32767, -32768, -32768, 32767, 32767, 0, 1) * 64)
    write("demod", bytes([0, 7]) + bytes([255, 0]) * 1024 + b"\x01")


def history_query_seeds():
    """Query strings of the history's endpoints: good ones of each, and the refused kinds."""
    for query in [
        "", "from=1796670000&to=1796673600&limit=5000", "hex=40621d", "hex=~a0b1c2&from=1796600000",
        "period=24h", "period=7d", "at=1796674930&lat=52.3&lon=4.75&alt_m=12.5&range_km=50",
        "at=1796674930&lat=-33.8688197&lon=151.2092957", "at=1&lat=52", "lat=1e5&lon=0", "from=1'%20OR%201=1--",
        "limit=0", "hex=40621d&hex=40621d", "x=1", "=", "&&", "at=99999999999&range_km=0.0000001",
        "lat=-&lon=.5", "from=" + "9" * 12, "a" * 600,
    ]:
        write("history-query", query)


def main():
    chosen = sys.argv[1:] or ["message-line", "beast", "feed", "opensky", "demod", "mqtt"]
    for target in chosen:
        folder = os.path.join(CORPUS, target)
        for old in glob.glob(os.path.join(folder, "seed-*")):
            os.remove(old)
    rows, hexes = messages()
    if "message-line" in chosen:
        message_line_seeds(rows, hexes)
    if "beast" in chosen or "mqtt" in chosen:
        # Writing the beast seeds again writes the same files: they are named by content.
        frames = beast_seeds(hexes)
        if "mqtt" in chosen:
            mqtt_seeds(frames)
    if "feed" in chosen:
        feed_seeds()
    if "opensky" in chosen:
        opensky_seeds()
    if "demod" in chosen:
        demod_seeds()
    if "history-query" in chosen:
        history_query_seeds()
    for target in sorted(os.listdir(CORPUS)):
        files = glob.glob(os.path.join(CORPUS, target, "*"))
        print(f"{target}: {len(files)} inputs, {sum(os.path.getsize(x) for x in files)} bytes")


if __name__ == "__main__":
    sys.exit(main())
