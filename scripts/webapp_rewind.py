"""The history in headless Chromium: `webapp_browser.py rewind URL --at SECONDS [--screenshots DIR]`.

Opens the radar live, then the Today panel (the diary's cards, the charts and the coverage
drawn), then the
radar rewound to `--at` (`/?rewind=SECONDS`), pauses it there and reads the accessible list
(each aircraft's place in the sky as the page has it) and the frame it shows; opens the sky
view while rewound and reads which frame it draws; selects an aircraft and reads how many
points of its stored pass the scope draws; goes back to live. Screenshots of each, and the
console's errors and CSP violations. It judges nothing: the test does
(Tests/EndToEndTests/WebAppHistoryTests.swift), from the store's own positions.
"""

import os
import time

from cdp import Browser, CDPError, find_chromium

PAGE = """
(() => {
  const list = document.getElementById('list');
  const sky = document.getElementById('sky');
  return {
    seq: Number(list.dataset.seq), status: document.getElementById('status').textContent,
    rewinding: !document.getElementById('rewind').hidden, when: document.getElementById('rewind-when').textContent,
    skySeq: Number(sky.dataset.seq || 0), skyMarkers: sky.querySelectorAll('.sky-marker:not([hidden])').length,
    skyArrows: sky.querySelectorAll('.sky-arrow:not([hidden])').length,
    trackPoints: Number(document.getElementById('radar').dataset.trackPoints || 0),
    items: [...list.children].map((item) => ({
      icao: item.dataset.icao,
      distanceKm: item.dataset.distanceKm === '' ? null : Number(item.dataset.distanceKm),
      azimuthDeg: item.dataset.azimuthDeg === '' ? null : Number(item.dataset.azimuthDeg),
      altitudeFt: item.dataset.altitudeFt === '' ? null : Number(item.dataset.altitudeFt),
    })),
  };
})()
"""

TODAY = """
(() => ({
  count: document.getElementById('history-count').textContent,
  cards: document.querySelectorAll('#history-cards li').length,
  charts: document.querySelectorAll('#history-charts canvas').length,
  when: document.getElementById('history-when').textContent,
  coverageInk: (() => {
    // Pixels of the coverage plot not of its background: rings, labels and the bands drawn.
    const canvas = document.getElementById('history-coverage');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] !== 0 || data[i + 1] !== 68 || data[i + 2] !== 17) ink += 1;
    return ink;
  })(),
}))()
"""


def shoot(browser, args, name):
    if args.screenshots:
        browser.screenshot(os.path.join(args.screenshots, name))


def rewind(args, browser_args, watch_violations, console_problems):
    report = {"problems": []}
    browser = Browser(find_chromium(), extra_args=browser_args)
    try:
        browser.open_page()
        browser.send("Emulation.setDeviceMetricsOverride", {"width": 412, "height": 915, "deviceScaleFactor": 2,
                                                            "mobile": True})
        browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": watch_violations})
        origin = "/".join(args.url.split("/")[:3])
        # The sky view asks for the phone's position: it stands at --lat, --lon.
        browser.send("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": origin}, session=False)
        browser.send("Emulation.setGeolocationOverride", {"latitude": args.lat, "longitude": args.lon, "accuracy": 5})
        browser.navigate(origin + "/")
        browser.wait_for("Number(document.getElementById('list').dataset.seq) > 0", timeout=60)
        browser.evaluate("document.getElementById('open-history').click()")
        browser.wait_for("document.querySelectorAll('#history-cards li').length > 0"
                         " && document.querySelectorAll('#history-charts canvas').length > 0"
                         " && document.getElementById('history-when').textContent.startsWith('From')", timeout=30)
        time.sleep(1)  # the coverage plot's answer
        report["today"] = browser.evaluate(TODAY)
        shoot(browser, args, "history-today.png")
        browser.evaluate("document.getElementById('history-coverage').scrollIntoView({block: 'center'})")
        time.sleep(0.3)
        shoot(browser, args, "history-coverage.png")

        browser.navigate(f"{origin}/?rewind={args.at}")
        browser.wait_for("!document.getElementById('rewind').hidden", timeout=30)
        browser.evaluate("document.getElementById('rewind-play').click()")
        browser.wait_for("document.getElementById('rewind-play').getAttribute('aria-pressed') === 'false'", timeout=10)
        time.sleep(2)  # the paused moment's frame
        report["rewound"] = browser.evaluate(PAGE)
        shoot(browser, args, "history-rewind.png")

        browser.evaluate("document.getElementById('open-sky').click()")
        browser.wait_for("Number(document.getElementById('sky').dataset.seq) > 0", timeout=20)
        time.sleep(1)
        report["sky"] = browser.evaluate(PAGE)
        shoot(browser, args, "history-rewind-sky.png")
        browser.evaluate("document.getElementById('close-sky').click()")

        flying = [item for item in report["rewound"]["items"] if (item["altitudeFt"] or 0) > 0]
        if flying:
            icao = flying[0]["icao"]
            browser.evaluate(f"document.querySelector('#list li[data-icao=\"{icao}\"]').click()")
            browser.wait_for("Number(document.getElementById('radar').dataset.trackPoints) > 1", timeout=15)
            report["track"] = {"icao": icao, **browser.evaluate(PAGE)}
            del report["track"]["items"]
            shoot(browser, args, "history-track.png")

        browser.evaluate("document.getElementById('rewind-live').click()")
        browser.wait_for("document.getElementById('rewind').hidden", timeout=10)
        time.sleep(2)
        report["live"] = browser.evaluate(PAGE)
        del report["live"]["items"]
    except CDPError as error:
        report["failure"] = str(error)
    finally:
        report["problems"] += console_problems(browser) if browser.session else []
        browser.close()
    return report
