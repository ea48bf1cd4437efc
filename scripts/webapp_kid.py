"""Kid mode's silhouettes in headless Chromium: `webapp_browser.py kid URL [--screenshots DIR]`.

Opens the radar in kid mode on a 1280x800 screen and reads which silhouette each aircraft
drawn on the scope got (the accessible list's `data-silhouette`, written where the aircraft is
drawn), then opens the sky view in kid mode on a 412x915 phone, the camera refused, its
orientation emulated looking 8 degrees up towards the bearing with the most aircraft low in the
sky, and reads the silhouette of each marker in the picture (`data-silhouette` on the marker).
Takes a screenshot of each (DIR/kid-silhouettes.png, DIR/kid-silhouettes-sky.png) and reports
the silhouettes drawn, with how many aircraft each, the console errors and CSP violations. It
judges nothing: the test does (Tests/EndToEndTests/WebAppKidSilhouetteTests.swift).
"""

import collections
import json
import os
import time

from cdp import Browser, CDPError, find_chromium
from webapp_sky import emulated_rotation

# What the scope drew: every listed aircraft with its place and silhouette, where drawn.
SCOPE_READING = """
(() => [...document.querySelectorAll('#list li')].map((item) => ({
  icao: item.dataset.icao, drawn: item.dataset.x !== undefined,
  azimuthDeg: item.dataset.azimuthDeg === '' ? null : Number(item.dataset.azimuthDeg),
  elevationDeg: item.dataset.elevationDeg === '' ? null : Number(item.dataset.elevationDeg),
  silhouette: item.dataset.silhouette || null,
})))()
"""

# The sky view's markers in the picture, with their silhouettes and sizes.
SKY_READING = """
(() => [...document.querySelectorAll('.sky-marker')].filter((m) => !m.hidden).map((m) => ({
  icao: m.dataset.icao, silhouette: m.dataset.silhouette || null,
  size: m.querySelector('.sky-icon').getBoundingClientRect().width,
  path: m.querySelector('.sky-icon path').getAttribute('d'),
})))()
"""

ELEVATION_DEG = 8
FOV_DEG = 100


def busiest_bearing(items):
    """The bearing (every 10 degrees) with the most aircraft within 45 degrees of it and at
    most 30 degrees up: where a phone held up sees the most."""
    def count(bearing):
        return sum(1 for item in items if item["azimuthDeg"] is not None and item["elevationDeg"] is not None
                   and -1 <= item["elevationDeg"] <= 30
                   and abs((item["azimuthDeg"] - bearing + 180) % 360 - 180) <= 45)
    return max(range(0, 360, 10), key=count)


def tally(readings):
    return dict(collections.Counter(reading["silhouette"] for reading in readings))


def kid(args, browser_args, watch_violations, console_problems):
    report = {"problems": []}
    browser = Browser(find_chromium(), extra_args=browser_args)
    try:
        browser.open_page()
        origin = "/".join(args.url.split("/")[:3])
        browser.send("Browser.grantPermissions", {"permissions": ["geolocation", "sensors"], "origin": origin},
                     session=False)
        browser.send("Browser.setPermission", {"permission": {"name": "camera"}, "setting": "denied",
                                               "origin": origin}, session=False)
        browser.send("Emulation.setGeolocationOverride", {"latitude": args.lat, "longitude": args.lon, "accuracy": 5})
        browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": watch_violations})
        browser.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1,
                                                            "mobile": False})
        browser.navigate(origin + "/")
        settings = {"kid": True, "rangeKm": args.range_km, "skyFovDeg": FOV_DEG}
        browser.evaluate(f"localStorage.setItem('aviator-adsb.settings', {json.dumps(json.dumps(settings))})")
        browser.navigate(origin + "/")
        browser.wait_for("Number(document.getElementById('list').dataset.seq) > 2", timeout=60)
        time.sleep(1.5)  # drawn positions are written four times a second
        items = browser.evaluate(SCOPE_READING)
        drawn = [item for item in items if item["drawn"]]
        report["scope"] = {"listed": len(items), "drawn": [{"icao": item["icao"], "silhouette": item["silhouette"]}
                                                          for item in drawn], "silhouettes": tally(drawn)}
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "kid-silhouettes.png"))

        bearing = busiest_bearing(items)
        browser.send("Emulation.setSensorOverrideEnabled", {"enabled": True, "type": "absolute-orientation"})
        browser.send("Emulation.setDeviceMetricsOverride", {
            "width": 412, "height": 915, "deviceScaleFactor": 2, "mobile": True,
            "screenOrientation": {"type": "portraitPrimary", "angle": 0}})
        rotation = emulated_rotation(bearing, ELEVATION_DEG, 0, args.declination)
        browser.navigate(origin + "/?view=sky")
        browser.send("Emulation.setSensorOverrideReadings", {"type": "absolute-orientation", "reading": {
            "quaternion": dict(zip("xyzw", rotation))}})
        seq = browser.wait_for("Number(document.getElementById('sky').dataset.seq) || 0", timeout=30)
        browser.wait_for(f"Number(document.getElementById('sky').dataset.seq) >= {seq + 2}", timeout=30)
        time.sleep(1.5)  # the smoothed orientation settles in well under a second
        markers = browser.evaluate(SKY_READING)
        report["sky"] = {"bearingDeg": bearing, "markers": markers, "silhouettes": tally(markers)}
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "kid-silhouettes-sky.png"))
        report["problems"] = console_problems(browser)
    except CDPError as error:
        report["problems"] = console_problems(browser) if browser.session else []
        report["failure"] = str(error)
    finally:
        browser.close()
    return report
