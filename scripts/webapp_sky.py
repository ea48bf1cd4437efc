"""The sky view in headless Chromium: `webapp_browser.py sky URL --lat LAT --lon LON --declination DEG`.

Opens `/?view=sky` with the phone's position and its whole orientation emulated (the
absolute-orientation sensor, whose alpha the app takes as a compass's: from magnetic north, so
each view's heading is emulated as the true one less `--declination`), on a phone screen in
portrait and in landscape (`Emulation.setDeviceMetricsOverride` with `screenOrientation`),
with Chromium's fake camera and with the camera refused. For each view it reports the frame
shown, where every aircraft's marker is centred, the arrows at the edge, the camera's video
size, the rotation emulated and the screen; then it taps a marker and reads the card, and
collects console errors and CSP violations (the tap is made in the first view with a marker).
In the portrait view with the camera refused it also calibrates, and reports the view after. It judges nothing: the test does
(Tests/EndToEndTests/WebAppSkyViewTests.swift), with a pinhole projection of its own.

A view may be seen from a place of its own (`--place NAME=LAT,LON,DECLINATION`, repeated): the
phone is carried there (its emulated position) and its heading emulated with that place's
declination; the others are seen from `--lat`, `--lon` with `--declination`.
"""

import json
import math
import os
import time

from cdp import Browser, CDPError, find_chromium

# Every view: its name, the screen (CSS pixels, orientation type and angle), the true
# heading and elevation the camera looks at (None: straight up, the phone's top to the
# north), and whether the camera is allowed.
VIEWS = [
    ("portrait", 412, 915, "portraitPrimary", 0, 120, 20, True),
    ("landscape", 915, 412, "landscapePrimary", 90, 300, 45, True),
    ("up", 412, 915, "portraitPrimary", 0, None, 90, True),
    ("portrait-drawn", 412, 915, "portraitPrimary", 0, 120, 20, False),
    ("landscape-drawn", 915, 412, "landscapePrimary", 90, 300, 45, False),
]
SNAPSHOTS = 4
FOV_DEG = 60

# For `perf --view sky`: a hand that never holds quite still. The page is sent orientation
# events 30 times a second (from the test, outside the frames it measures): the camera looks
# round the eastern sky, 10° to 25° up, so every marker moves on every frame.
SWAY = """
(() => {
  const started = performance.now();
  setInterval(() => {
    const t = (performance.now() - started) / 1000;
    const event = new DeviceOrientationEvent('deviceorientationabsolute', {
      alpha: 270 + 25 * Math.sin(t / 3), beta: 107 + 7 * Math.sin(t / 2), gamma: 2 * Math.sin(t), absolute: true });
    window.dispatchEvent(event);
  }, 33);
})()
"""

SNAPSHOT = """
(() => {
  const sky = document.getElementById('sky');
  const video = document.getElementById('sky-camera');
  const centre = (element) => { const r = element.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const box = sky.getBoundingClientRect();
  return {
    seq: Number(sky.dataset.seq), camera: sky.dataset.camera || null,
    video: video.hidden ? null : [video.videoWidth, video.videoHeight],
    screen: [box.width, box.height], screenAngle: screen.orientation.angle,
    heading: document.getElementById('sky-heading').textContent,
    toolsTop: Math.min(...[...document.querySelectorAll('#sky-tools button')].filter((b) => b.getClientRects().length > 0)
      .map((b) => b.getBoundingClientRect().top - box.top)),
    status: document.getElementById('status').textContent,
    markers: [...document.querySelectorAll('.sky-marker')].filter((m) => !m.hidden).map((m) => {
      const icon = m.querySelector('.sky-icon');
      const [x, y] = centre(icon);
      return { icao: m.dataset.icao, x: x - box.left, y: y - box.top, label: m.getAttribute('aria-label'),
               size: icon.getBoundingClientRect().width };
    }),
    arrows: [...document.querySelectorAll('.sky-arrow')].filter((a) => !a.hidden).map((a) => {
      const [x, y] = centre(a.querySelector('.sky-arrow-head'));
      return { icao: a.dataset.icao, x: x - box.left, y: y - box.top, angleDeg: Number(a.dataset.angleDeg),
               text: a.textContent };
    }),
  };
})()
"""


def q_multiply(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def about(axis, degrees):
    half = math.radians(degrees) / 2
    return tuple([component * math.sin(half) for component in axis] + [math.cos(half)])


def emulated_rotation(heading, elevation, screen_angle, declination):
    """The device's rotation (x, y, z, w) for a camera looking at true `heading`, `elevation`
    up, upright on a screen turned `screen_angle`; alpha from magnetic north, as a compass
    gives it. Straight up (heading None): screen down, its top to the true north."""
    if heading is None:
        alpha, beta = 180 + declination, 180
    else:
        alpha, beta = (360 - heading + declination) % 360, 90 + elevation
    device = q_multiply(about((0, 0, 1), alpha), about((1, 0, 0), beta))
    return q_multiply(device, about((0, 0, 1), screen_angle))


def place_of(args, name):
    """Where view `name` is seen from (a place given for `landscape` serves `landscape-drawn`
    too): latitude, longitude and the declination there."""
    for place in args.place or []:
        label, _, numbers = place.partition("=")
        if name == label or name.startswith(label + "-"):
            lat, lon, declination = (float(number) for number in numbers.split(","))
            return lat, lon, declination
    return args.lat, args.lon, args.declination


def open_view(browser, args, view):
    name, width, height, kind, angle, heading, elevation, camera = view
    origin = "/".join(args.url.split("/")[:3])
    lat, lon, declination = place_of(args, name)
    browser.send("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": 5})
    browser.send("Browser.setPermission", {"permission": {"name": "camera"}, "setting": "granted" if camera else "denied",
                                           "origin": origin}, session=False)
    browser.send("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 2, "mobile": True,
        "screenOrientation": {"type": kind, "angle": angle}})
    browser.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    rotation = emulated_rotation(heading, elevation, angle, declination)
    # A calibration holds for the browser's session: each view starts without one.
    browser.evaluate("sessionStorage.clear()")
    browser.navigate(origin + "/?view=sky")
    browser.send("Emulation.setSensorOverrideReadings", {"type": "absolute-orientation", "reading": {
        "quaternion": dict(zip("xyzw", rotation))}})
    browser.wait_for("document.getElementById('status').textContent.includes('from here')", timeout=30)
    seq = browser.wait_for("Number(document.getElementById('sky').dataset.seq) || 0", timeout=30)
    browser.wait_for(f"Number(document.getElementById('sky').dataset.seq) >= {seq + 2}", timeout=30)
    browser.wait_for("document.getElementById('sky').dataset.camera !== undefined", timeout=20)
    time.sleep(1)  # the smoothed orientation settles in well under a second
    return {"name": name, "rotation": rotation, "screenAngle": angle, "heading": heading, "elevation": elevation,
            "cameraAllowed": camera, "place": [lat, lon], "declination": declination}


def tap_a_marker(browser, snapshot):
    """Taps the marker with the most room around it and reads the card it opens."""
    markers = snapshot["markers"]
    if not markers:
        return None
    room = lambda m: min([math.hypot(m["x"] - o["x"], m["y"] - o["y"]) for o in markers if o is not m] or [1e9])
    target = max(markers, key=room)
    box = browser.evaluate("(() => { const r = document.getElementById('sky').getBoundingClientRect(); return [r.left, r.top]; })()")
    point = [{"x": box[0] + target["x"], "y": box[1] + target["y"], "id": 1}]
    browser.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    browser.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    browser.wait_for("!document.getElementById('card').hidden && document.getElementById('card').dataset.icao", timeout=10)
    card = browser.evaluate("({ icao: document.getElementById('card').dataset.icao,"
                            " title: document.getElementById('card-title').textContent })")
    return {"tapped": target["icao"], "card": card}


def run_views(args, browser_args, views, watch_violations, report):
    """Opens each of `views` in one browser, adding what it saw to `report`. The camera is
    allowed by Chromium's fake prompt, or refused with the permission set to denied (without
    the fake prompt, which would allow it anyway)."""
    allowed = views[0][-1]
    fake = ["--use-fake-device-for-media-stream"] + (["--use-fake-ui-for-media-stream"] if allowed else [])
    browser = Browser(find_chromium(), extra_args=browser_args + fake)
    try:
        browser.open_page()
        origin = "/".join(args.url.split("/")[:3])
        browser.send("Browser.grantPermissions", {"permissions": ["geolocation", "sensors"], "origin": origin},
                     session=False)
        if not allowed:
            browser.send("Browser.setPermission", {"permission": {"name": "camera"}, "setting": "denied",
                                                   "origin": origin}, session=False)
        browser.send("Emulation.setGeolocationOverride", {"latitude": args.lat, "longitude": args.lon, "accuracy": 5})
        browser.send("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": "absolute-orientation"})
        browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": watch_violations})
        browser.navigate(origin + "/")
        settings = {"useLocation": True, "labels": True, "skyFovDeg": FOV_DEG}
        browser.evaluate(f"localStorage.setItem('aviator-adsb.settings', {json.dumps(json.dumps(settings))})")
        for view in views:
            result = open_view(browser, args, view)
            result["snapshots"] = []
            for _ in range(SNAPSHOTS):
                result["snapshots"].append(browser.evaluate(SNAPSHOT))
                time.sleep(0.5)
            if args.screenshots:
                browser.screenshot(os.path.join(args.screenshots, f"sky-{view[0]}.png"))
            if view[0] == "portrait-drawn":
                result["calibration"] = calibrate(browser, result["snapshots"][-1])
            if "tap" not in report:
                tapped = tap_a_marker(browser, result["snapshots"][-1])
                if tapped:
                    report["tap"] = {**tapped, "view": view[0]}
            report["views"].append(result)
    except CDPError as error:
        report["failure"] = str(error)
    finally:
        report["problems"] += report["console"](browser) if browser.session else []
        browser.close()


def touch(browser, x, y):
    point = [{"x": x, "y": y, "id": 1}]
    browser.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    browser.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def calibrate(browser, snapshot):
    """Calibrates as a user would who sees the aircraft of the marker with the most room 50 px
    to the right of its marker: a tap on Calibrate, then one there. Reports the tap, the frame
    it was judged against, the view's answer and a reading after it."""
    markers = snapshot["markers"]
    if not markers:
        return None
    room = lambda m: min([math.hypot(m["x"] - o["x"], m["y"] - o["y"]) for o in markers if o is not m] or [1e9])
    target = max(markers, key=room)
    box = browser.evaluate("(() => { const r = document.getElementById('sky').getBoundingClientRect(); return [r.left, r.top]; })()")
    button = browser.evaluate("(() => { const r = document.getElementById('sky-calibrate').getBoundingClientRect();"
                              " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    touch(browser, *button)
    browser.wait_for("document.getElementById('sky-calibrate').getAttribute('aria-pressed') === 'true'", timeout=10)
    tap = [target["x"] + 50, target["y"]]
    touch(browser, box[0] + tap[0], box[1] + tap[1])
    # The frame the tap was judged against: the touch is handled before the call returns.
    seq = browser.evaluate("Number(document.getElementById('sky').dataset.seq)")
    browser.wait_for("document.getElementById('sky-calibrate').getAttribute('aria-pressed') === 'false'", timeout=10)
    time.sleep(1.5)  # the view turns smoothly to the corrected heading
    return {"icao": target["icao"], "tap": tap, "seq": seq, "hint": browser.evaluate("document.getElementById('sky-hint').textContent"),
            "after": browser.evaluate(SNAPSHOT)}


def sky(args, browser_args, watch_violations, console_problems):
    report = {"views": [], "problems": [], "fovDeg": FOV_DEG, "console": console_problems}
    for allowed in (True, False):
        views = [view for view in VIEWS if view[-1] == allowed]
        run_views(args, browser_args, views, watch_violations, report)
        if "failure" in report:
            break
    del report["console"]
    return report
