#!/usr/bin/env python3
"""A stand-in for an adsbdb-compatible route service, for the end-to-end tests.

Usage: fake_route_server.py PORT_FILE REQUEST_LOG

Listens on a free loopback port and writes it to PORT_FILE. Every callsign ending in an even
digit gets a route from Amsterdam to London; every other callsign is unknown (404). Each
request is appended to REQUEST_LOG as its method, path and headers on one line.
"""
import http.server
import json
import os
import sys
import threading
import time

PORT_FILE, REQUEST_LOG = sys.argv[1], sys.argv[2]

AMSTERDAM = {"iata_code": "AMS", "icao_code": "EHAM", "name": "Amsterdam Airport Schiphol", "municipality": "Amsterdam"}
HEATHROW = {"iata_code": "LHR", "icao_code": "EGLL", "name": "London Heathrow Airport", "municipality": "London"}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(REQUEST_LOG, "a") as log:
            log.write(json.dumps({"method": "GET", "path": self.path, "headers": dict(self.headers)}) + "\n")
        callsign = self.path.rsplit("/", 1)[-1]
        if "/callsign/" in self.path and callsign[-1:].isdigit() and int(callsign[-1]) % 2 == 0:
            body = {"response": {"flightroute": {"callsign": callsign, "origin": AMSTERDAM, "destination": HEATHROW}}}
            status = 200
        else:
            body = {"response": "unknown callsign"}
            status = 404
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def exit_with_parent(parent: int) -> None:
    """Ends the server when the test that started it is gone, however it ended."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORT_FILE, "w") as handle:
    handle.write(str(server.server_address[1]))
server.serve_forever()
