#!/usr/bin/env python3
"""Drives the web radar in headless Chromium and reports what it saw, as one JSON object.

    webapp_browser.py check URL --lat LAT --lon LON --heading DEG [--expect-heading DEG] --screenshots DIR [--cert PEM]
    webapp_browser.py perf URL --seconds S --throttle 4 [--kid]
    webapp_browser.py shots URL --screenshots DIR [--ranges 50,8] [--name scope]
    webapp_browser.py sky URL --lat LAT --lon LON --declination DEG [--place NAME=LAT,LON,DEG ...] [--screenshots DIR] [--cert PEM]
    webapp_browser.py rewind URL --at SECONDS [--screenshots DIR]
    webapp_browser.py kid URL --lat LAT --lon LON --declination DEG [--range-km KM] [--screenshots DIR]

`check` emulates the phone's position and compass (`--heading`, magnetic; `--expect-heading` is
the true heading the radar should then show), turns on "Use my location", and records
the accessible list (with the frame number it shows, where and how large each aircraft is
drawn, whether it is on the ground, and the box of its callsign), the
card of a tapped aircraft, console errors and CSP violations, the layout at 360x640 and
1280x800, and a screenshot of each. `perf` runs the radar on a busy sky with the CPU
slowed down and records frame times, frame rate and memory over time. `shots` takes a
screenshot of the radar at 1280x800 for each range in `--ranges` (km), callsigns on, seen
from the receiver (DIR/NAME-RANGEkm.png), for the documentation. `sky` checks the sky view
(scripts/webapp_sky.py); `perf --view sky` measures it. `kid` reads which silhouette kid mode
gave each aircraft on the scope and in the sky view (scripts/webapp_kid.py). `rewind` checks
the Today panel and the rewind (scripts/webapp_rewind.py).

With `--cert`, the browser trusts exactly that certificate (by its public key, as a user
who compared the daemon's logged fingerprint would), so an https:// URL is a secure page
with no warning: compass, location and the service worker work as on a phone.

The test (Tests/EndToEndTests/WebAppBrowserTests.swift) starts the daemon, runs this, and
judges the result against the daemon's own feed. Standard library only (scripts/cdp.py).
"""

import argparse
import base64
import hashlib
import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError, find_chromium  # noqa: E402
from webapp_kid import kid  # noqa: E402
from webapp_rewind import rewind  # noqa: E402
from webapp_sky import SWAY, sky  # noqa: E402

# Reports CSP violations to the console even where the browser would only count them.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__violations.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
});
"""

# Readings of the list and of the card, each of a different frame if the feed keeps up.
SNAPSHOTS = 4

LIST_SNAPSHOT = """
(() => {
  const list = document.getElementById('list');
  const canvas = document.getElementById('radar').getBoundingClientRect();
  const radar = document.getElementById('radar').dataset;
  return {
    seq: Number(list.dataset.seq),
    headingDeg: Number(radar.headingDeg),
    rangeKm: Number(radar.rangeKm),
    centre: [canvas.left + Number(radar.centerX), canvas.top + Number(radar.centerY)],
    radius: Number(radar.radius),
    status: document.getElementById('status').textContent,
    items: [...list.children].map((item) => ({
      icao: item.dataset.icao, text: item.textContent,
      distanceKm: item.dataset.distanceKm === '' ? null : Number(item.dataset.distanceKm),
      azimuthDeg: item.dataset.azimuthDeg === '' ? null : Number(item.dataset.azimuthDeg),
      elevationDeg: item.dataset.elevationDeg === '' ? null : Number(item.dataset.elevationDeg),
      x: item.dataset.x === undefined ? null : Number(item.dataset.x),
      y: item.dataset.y === undefined ? null : Number(item.dataset.y),
      onGround: item.dataset.onGround === 'true',
      size: item.dataset.size ? Number(item.dataset.size) : null,
      label: item.dataset.label ? item.dataset.label.split(',').map(Number) : null,
    })),
  };
})()
"""

CARD_READING = """
(() => {
  const card = document.getElementById('card');
  return {
    icao: card.dataset.icao, seq: Number(card.dataset.seq),
    elevationDeg: Number(card.dataset.elevationDeg), azimuthDeg: Number(card.dataset.azimuthDeg),
    where: document.getElementById('card-where').textContent, turn: document.getElementById('card-turn').textContent,
    title: document.getElementById('card-title').textContent,
  };
})()
"""

LAYOUT = """
(() => {
  const inside = (rect) => rect.left >= -0.5 && rect.top >= -0.5 && rect.right <= innerWidth + 0.5 && rect.bottom <= innerHeight + 0.5;
  const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
  const buttons = [...document.querySelectorAll('#tools button')].filter(shown);
  const canvas = document.getElementById('radar').getBoundingClientRect();
  const radar = document.getElementById('radar').dataset;
  const card = document.getElementById('card');
  return {
    width: innerWidth, height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,
    canvas: [canvas.left, canvas.top, canvas.width, canvas.height],
    radius: Number(radar.radius),
    buttonsInside: buttons.every((button) => inside(button.getBoundingClientRect())),
    buttons: buttons.length,
    smallestButton: Math.min(...buttons.map((button) => Math.min(button.getBoundingClientRect().width, button.getBoundingClientRect().height))),
    cardInside: card.hidden || inside(card.getBoundingClientRect()),
    listVisible: (() => { const rect = document.getElementById('aircraft').getBoundingClientRect(); return rect.width > 100 && rect.height > 100; })(),
  };
})()
"""


def heading_quaternion(heading):
    """The absolute-orientation reading of a phone lying flat, its top towards `heading`."""
    alpha = math.radians((360 - heading) % 360)  # alpha turns anticlockwise from north
    return {"x": 0, "y": 0, "z": math.sin(alpha / 2), "w": math.cos(alpha / 2)}


def set_viewport(browser, width, height, mobile):
    browser.send("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1, "mobile": mobile})
    browser.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5 if mobile else 1})
    # Let the page lay itself out and draw at the new size.
    browser.wait_for(f"innerWidth === {width} && innerHeight === {height}", timeout=20)
    time.sleep(0.5)


def click(browser, x, y, touch=False):
    """A real press and release at page coordinates (a finger when touch)."""
    if touch:
        point = [{"x": x, "y": y, "id": 1}]
        browser.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
        browser.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        return
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


def element_centre(browser, selector):
    return browser.evaluate(
        f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; })()")


def console_problems(browser):
    """Errors from the console, uncaught exceptions, log entries and CSP violations."""
    problems = []
    for event in browser.events("Runtime.consoleAPICalled"):
        params = event["params"]
        if params.get("type") in ("error", "assert"):
            problems.append("console: " + " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", [])))
    for event in browser.events("Runtime.exceptionThrown"):
        details = event["params"]["exceptionDetails"]
        problems.append("exception: " + (details.get("exception", {}).get("description") or details.get("text", "")))
    for event in browser.events("Log.entryAdded"):
        entry = event["params"]["entry"]
        if entry.get("level") == "error":
            problems.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".strip())
    try:
        problems += ["csp: " + text for text in browser.evaluate("window.__violations || []")]
    except CDPError as error:
        problems.append(str(error))
    return problems


def choose_target(snapshot):
    """An aircraft to tap: drawn, with an elevation, and as far from the others as can be."""
    drawn = [item for item in snapshot["items"] if item["x"] is not None and item["elevationDeg"] is not None]
    best, room = None, -1
    for item in drawn:
        others = [math.hypot(item["x"] - other["x"], item["y"] - other["y"]) for other in drawn if other is not item]
        space = min(others) if others else 1e9
        if space > room:
            best, room = item, space
    return best


def open_radar(browser, url, lat, lon, heading):
    origin = "/".join(url.split("/")[:3])
    browser.send("Browser.grantPermissions", {"permissions": ["geolocation", "sensors"], "origin": origin}, session=False)
    browser.send("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": 5})
    browser.send("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": "absolute-orientation"})
    browser.send("Emulation.setSensorOverrideReadings",
                 {"type": "absolute-orientation", "reading": {"quaternion": heading_quaternion(heading)}})
    browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_VIOLATIONS})
    browser.navigate(url)


def offline_and_back(browser):
    """With the network gone the app still opens (the service worker's copy) and waits for the
    daemon; with it back, the feed returns by itself. The browser's own messages about the
    failed connections are expected here, so this runs after the console was read."""
    browser.wait_for("navigator.serviceWorker.controller !== null", timeout=30)
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.send("Network.enable")
    browser.send("Network.emulateNetworkConditions", offline)
    browser.send("Page.reload")
    browser.wait_for("document.readyState === 'complete' && document.getElementById('status') !== null", timeout=30)
    time.sleep(1)
    result = {
        "status": browser.evaluate("document.getElementById('status').textContent"),
        "aircraft": browser.evaluate("document.getElementById('list').children.length"),
    }
    browser.send("Network.emulateNetworkConditions", {**offline, "offline": False})
    started = time.monotonic()
    browser.wait_for("document.getElementById('list').children.length > 0", timeout=30)
    result["reconnectSeconds"] = round(time.monotonic() - started, 1)
    return result


def frame_failures(browser):
    """Makes the drawing throw in two frames and counts the drawing done after them: the
    radar must log the failures and go on."""
    browser.evaluate("""(() => {
        const original = CanvasRenderingContext2D.prototype.fillText;
        window.__throws = 2;
        window.__drawnAfter = 0;
        CanvasRenderingContext2D.prototype.fillText = function (...args) {
            if (window.__throws > 0) { window.__throws -= 1; throw new Error("injected drawing failure"); }
            window.__drawnAfter += 1;
            return original.apply(this, args);
        };
    })()""")
    browser.wait_for("window.__throws === 0 && window.__drawnAfter > 50", timeout=10)
    logged = [problem for problem in console_problems(browser) if "injected drawing failure" in problem]
    return {"drawnAfter": browser.evaluate("window.__drawnAfter"), "logged": len(logged)}


def kid_mode(browser):
    """Kid mode draws no aircraft on the ground, unless its setting asks for them; the list
    names them either way. Counts what is drawn and listed with each setting."""
    result = {}
    for name, settings in (("kid", {"kid": True}), ("kidGround", {"kid": True, "kidGround": True})):
        stored = browser.evaluate("localStorage.getItem('aviator-adsb.settings')")
        merged = {**json.loads(stored or "{}"), **settings}
        browser.evaluate(f"localStorage.setItem('aviator-adsb.settings', {json.dumps(json.dumps(merged))})")
        browser.send("Page.reload")
        browser.wait_for("document.getElementById('list').children.length > 0", timeout=30)
        time.sleep(1)  # drawn positions are written four times a second
        result[name] = browser.evaluate("""(() => {
            const items = [...document.querySelectorAll('#list li')];
            const ground = items.filter((item) => item.dataset.onGround === 'true');
            const flying = items.filter((item) => item.dataset.onGround !== 'true');
            const drawn = (list) => list.filter((item) => item.dataset.x !== undefined).length;
            return { groundListed: ground.length, groundDrawn: drawn(ground), flyingDrawn: drawn(flying) };
        })()""")
    return result


def public_key_pin(pem_path):
    """Base64 SHA-256 of the certificate's SubjectPublicKeyInfo: what Chromium's
    --ignore-certificate-errors-spki-list takes to trust one certificate and no other."""
    key = subprocess.run(["openssl", "x509", "-in", pem_path, "-noout", "-pubkey"],
                         check=True, capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "DER"], input=key,
                         check=True, capture_output=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def browser_for(args):
    extra = [f"--ignore-certificate-errors-spki-list={public_key_pin(args.cert)}"] if args.cert else []
    return Browser(find_chromium(), extra_args=extra)


def check(args):
    browser = browser_for(args)
    report = {"problems": []}
    try:
        browser.open_page()
        set_viewport(browser, 1280, 800, mobile=False)
        open_radar(browser, args.url, args.lat, args.lon, args.heading)
        browser.wait_for("document.getElementById('list').children.length > 0", timeout=40)
        report["page"] = browser.evaluate("({ protocol: location.protocol, secure: window.isSecureContext })")
        x, y = element_centre(browser, "#locate")
        click(browser, x, y)
        browser.wait_for("document.getElementById('status').textContent.includes('from here')", timeout=30)
        # Frames made for the new observer: two frames after the one on screen now.
        seq = browser.evaluate("Number(document.getElementById('list').dataset.seq)")
        browser.wait_for(f"Number(document.getElementById('list').dataset.seq) >= {seq + 2}", timeout=30)
        shown = args.heading if args.expect_heading is None else args.expect_heading
        browser.wait_for(f"Number(document.getElementById('radar').dataset.headingDeg) === {math.floor(shown + 0.5) % 360}",
                         timeout=20)
        time.sleep(0.4)  # drawn positions are written four times a second
        # A few snapshots of different frames: a loaded machine may make the test's own feed
        # client miss one (a slow reader gets the newest frame, not every frame).
        report["snapshots"] = []
        for _ in range(SNAPSHOTS):
            report["snapshots"].append(browser.evaluate(LIST_SNAPSHOT))
            time.sleep(0.6)

        target = choose_target(report["snapshots"][-1])
        report["tapped"] = target
        if target:
            fresh = browser.evaluate(
                f"(() => {{ const item = document.querySelector('#list li[data-icao=\"{target['icao']}\"]');"
                " return item && item.dataset.x ? [Number(item.dataset.x), Number(item.dataset.y)] : null; })()")
            if fresh:
                click(browser, *fresh)
                browser.wait_for("!document.getElementById('card').hidden", timeout=10)
                report["cards"] = []
                for _ in range(SNAPSHOTS):
                    time.sleep(0.6)
                    report["cards"].append(browser.evaluate(CARD_READING))
        report["layout"] = {"desktop": browser.evaluate(LAYOUT)}
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "web-desktop.png"))

        set_viewport(browser, 360, 640, mobile=True)
        report["layout"]["phone"] = browser.evaluate(LAYOUT)
        time.sleep(0.4)  # drawn positions are written four times a second
        report["phoneSnapshot"] = browser.evaluate(LIST_SNAPSHOT)
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "web-phone.png"))
        report["problems"] = console_problems(browser)
        report["frame_failures"] = frame_failures(browser)
        report["offline"] = offline_and_back(browser)
        report["kid"] = kid_mode(browser)
    except CDPError as error:
        report["problems"] = console_problems(browser) if browser.session else []
        report["failure"] = str(error)
    finally:
        browser.close()
    return report


def measure_frames(browser, seconds, every=None):
    """Frame rate and the page's own time per frame (its 'radar-frame' Performance measures)
    over `seconds`, calling `every` before and every 5 s."""
    browser.evaluate("performance.clearMeasures('radar-frame')")
    if every:
        every()
    durations = []
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        time.sleep(min(5, seconds))
        durations += browser.evaluate(
            "(() => { const d = performance.getEntriesByName('radar-frame').map((e) => e.duration);"
            " performance.clearMeasures('radar-frame'); return d; })()")
        if every:
            every()
    elapsed = time.monotonic() - start
    durations.sort()
    count = len(durations)
    return {
        "frames": count, "seconds": round(elapsed, 1), "fps": round(count / elapsed, 1),
        "medianMs": round(durations[count // 2], 2) if count else None,
        "p95Ms": round(durations[int(count * 0.95)], 2) if count else None,
        "maxMs": round(durations[-1], 2) if count else None,
    }


def perf(args):
    browser = browser_for(args)
    report = {}
    try:
        browser.open_page()
        origin = "/".join(args.url.split("/")[:3])
        browser.navigate(args.url)
        set_viewport(browser, args.width, args.height, mobile=args.width < 600)
        # A radar that reaches the whole sky, labels on (the sky view at its widest field).
        settings = {"rangeKm": 400, "labels": True, "skyFovDeg": 100, "kid": args.kid}
        browser.evaluate(f"localStorage.setItem('aviator-adsb.settings', {json.dumps(json.dumps(settings))})")
        browser.navigate(origin + ("/?measure&view=sky" if args.view == "sky" else "/?measure"))
        if args.view == "sky":
            browser.evaluate(SWAY)
        browser.wait_for(f"document.getElementById('list').children.length >= {args.aircraft}", timeout=60)
        # First at the machine's own speed: the frame rate the display allows.
        time.sleep(2)
        full_speed = measure_frames(browser, min(10, args.seconds))
        report["unthrottled"] = {"fps": full_speed["fps"], "medianMs": full_speed["medianMs"]}
        # Then slowed down like a cheap phone, long enough to see whether memory stays flat.
        browser.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
        time.sleep(3)
        heap = []
        started = time.monotonic()

        def sample():
            browser.send("HeapProfiler.collectGarbage")
            usage = browser.send("Runtime.getHeapUsage")
            nodes = browser.send("Memory.getDOMCounters")
            heap.append({"t": round(time.monotonic() - started, 1), "heapMB": round(usage["usedSize"] / 1e6, 2),
                         "nodes": nodes["nodes"], "listeners": nodes["jsEventListeners"]})

        report.update(measure_frames(browser, args.seconds, every=sample))
        report.update({
            "aircraft": browser.evaluate("document.getElementById('list').children.length"),
            "memory": heap, "throttle": args.throttle,
            "viewport": [args.width, args.height],
        })
        report["problems"] = console_problems(browser)
    except CDPError as error:
        report["failure"] = str(error)
    finally:
        browser.close()
    return report


def shots(args):
    browser = browser_for(args)
    report = {"shots": []}
    try:
        browser.open_page()
        origin = "/".join(args.url.split("/")[:3])
        set_viewport(browser, 1280, 800, mobile=False)
        browser.navigate(args.url)
        for range_km in [float(text) for text in args.ranges.split(",")]:
            settings = {"rangeKm": range_km, "labels": True}
            browser.evaluate(f"localStorage.setItem('aviator-adsb.settings', JSON.stringify({json.dumps(settings)}))")
            browser.navigate(origin + "/")
            browser.wait_for("Number(document.getElementById('list').dataset.seq) > 0", timeout=60)
            time.sleep(args.settle)  # a few frames, so that trails are drawn
            name = f"{args.name}-{range_km:g}km.png"
            browser.screenshot(os.path.join(args.screenshots, name))
            report["shots"].append(name)
        report["problems"] = console_problems(browser)
    except CDPError as error:
        report["failure"] = str(error)
    finally:
        browser.close()
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("check", "perf", "shots", "sky", "kid", "rewind"))
    parser.add_argument("url")
    parser.add_argument("--lat", type=float, default=52.3)
    parser.add_argument("--lon", type=float, default=4.75)
    parser.add_argument("--heading", type=float, default=90)
    parser.add_argument("--expect-heading", type=float, default=None,
                        help="the heading the radar should show (the compass's corrected to true north)")
    parser.add_argument("--screenshots")
    parser.add_argument("--cert", help="PEM certificate of an https:// URL to trust")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--throttle", type=float, default=4)
    parser.add_argument("--aircraft", type=int, default=250)
    parser.add_argument("--width", type=int, default=412)
    parser.add_argument("--height", type=int, default=915)
    parser.add_argument("--ranges", default="50,8", help="shots: the ranges to show, in km")
    parser.add_argument("--name", default="scope", help="shots: the screenshots' names start with this")
    parser.add_argument("--settle", type=float, default=6, help="shots: seconds to wait before each")
    parser.add_argument("--declination", type=float, default=0, help="sky: the feed's declination at --lat, --lon")
    parser.add_argument("--place", action="append", metavar="NAME=LAT,LON,DECLINATION",
                        help="sky: view NAME seen from a place of its own, with the feed's declination there")
    parser.add_argument("--range-km", type=float, default=50, help="kid: the scope's range")
    parser.add_argument("--kid", action="store_true", help="perf: in kid mode (its silhouettes)")
    parser.add_argument("--view", default="scope", choices=("scope", "sky"), help="perf: the view to measure")
    parser.add_argument("--at", type=int, default=0, help="rewind: the moment to rewind to, seconds since 1970")
    args = parser.parse_args()
    if not find_chromium():
        print(json.dumps({"failure": "chromium not found: run `make deps`"}))
        return 0
    if args.mode in ("sky", "kid"):
        extra = [f"--ignore-certificate-errors-spki-list={public_key_pin(args.cert)}"] if args.cert else []
        report = (sky if args.mode == "sky" else kid)(args, extra, WATCH_VIOLATIONS, console_problems)
    elif args.mode == "rewind":
        report = rewind(args, [], WATCH_VIOLATIONS, console_problems)
    else:
        report = {"check": check, "perf": perf, "shots": shots}[args.mode](args)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
