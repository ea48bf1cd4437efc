#!/usr/bin/env python3
"""The web app's sun and moon (Sources/Web/App/almanac.js) against PyEphem (the `ephem`
package: libastro, an almanac with fuller theories of the sun and the moon of its own).

Usage: almanac_check.py [--year 2026] [--node node]

Ten places from 78° south to 70° north (the equator, the southern hemisphere, a polar night
and a midnight sun among them), every third day of the year at three times of day that move
round the clock from day to day: 3,660 samples per body. The app's module runs under node
(scripts/almanac_positions.mjs); PyEphem gives the apparent, topocentric place from sea level
with the same standard refraction (10 °C, 1010 hPa) and its own ΔT.

Compared:
- azimuth, whenever the body is above −5°: the difference times the cosine of the elevation,
  which is how far apart the two places are along the sky (near the zenith a tiny offset
  turns the azimuth by any amount, and means nothing to a view that draws the body there);
- elevation, whenever the body is above the horizon. Below it the two differ in what they
  make of refraction (the air bends no light from a body that is not seen: PyEphem carries
  its formula on down, the app fades it to none by −5°), so it would measure the convention;
- the moon's illuminated fraction, at every moment.

Prints the worst and the mean difference of each and exits with status 1 when the worst
exceeds 0.1° for the sun, 0.5° for the moon, or 0.02 for the fraction.
"""
import argparse
import datetime
import json
import math
import os
import subprocess
import sys

import ephem

# (name, latitude, longitude), degrees north and east.
PLACES = [
    ("Tromsø", 69.6492, 18.9553),
    ("Amsterdam", 52.3676, 4.9041),
    ("Anchorage", 61.2181, -149.9003),
    ("Tokyo", 35.6762, 139.6503),
    ("Honolulu", 21.3069, -157.8583),
    ("Quito", -0.1807, -78.4678),
    ("São Paulo", -23.5505, -46.6333),
    ("Cape Town", -33.9249, 18.4241),
    ("Sydney", -33.8688, 151.2093),
    ("McMurdo Station", -77.8463, 166.6681),
]
LIMITS = {"sun": 0.1, "moon": 0.5}
PHASE_LIMIT = 0.02
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def moments(year):
    """Every third day of `year`, at three times 8 h apart that start 7 h later each day."""
    start = datetime.datetime(year, 1, 1, tzinfo=datetime.timezone.utc)
    days = (datetime.datetime(year + 1, 1, 1, tzinfo=datetime.timezone.utc) - start).days
    for index, day in enumerate(range(0, days, 3)):
        for slot in range(3):
            minutes = (index * 7 * 60 + slot * 8 * 60 + 17) % 1440
            yield start + datetime.timedelta(days=day, minutes=minutes)


def reference(when, lat, lon):
    """PyEphem's sun and moon at `when` from (lat, lon): azimuth, elevation, lit fraction."""
    observer = ephem.Observer()
    observer.lat, observer.lon = str(lat), str(lon)
    observer.elevation = 0
    observer.temp, observer.pressure = 10, 1010
    observer.date = ephem.Date(when.replace(tzinfo=None))
    answers = {}
    for name, body in (("sun", ephem.Sun()), ("moon", ephem.Moon())):
        body.compute(observer)
        answers[name] = {"azimuthDeg": math.degrees(body.az), "elevationDeg": math.degrees(body.alt)}
        if name == "moon":
            answers[name]["phase"] = body.moon_phase
    return answers


def ours(samples, node):
    """The app's answers for `samples`, through node."""
    driver = os.path.join(ROOT, "scripts", "almanac_positions.mjs")
    request = [{"ms": when.timestamp() * 1000, "lat": lat, "lon": lon} for when, _, lat, lon in samples]
    run = subprocess.run([node, driver], input=json.dumps(request), capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def azimuth_apart(a, b, elevation):
    """How far apart along the sky two azimuths (degrees) are at `elevation`."""
    difference = abs(a - b) % 360
    return min(difference, 360 - difference) * math.cos(math.radians(elevation))


class Tally:
    """The worst and the mean of one kind of difference, and where the worst was."""

    def __init__(self):
        self.count, self.total, self.worst, self.where = 0, 0.0, 0.0, ""

    def add(self, difference, where):
        self.count += 1
        self.total += difference
        if difference >= self.worst:
            self.worst, self.where = difference, where

    def line(self, label, unit):
        mean = self.total / self.count if self.count else float("nan")
        return (f"  {label:<10} {self.count:5d} samples  worst {self.worst:.4f}{unit}  mean {mean:.4f}{unit}"
                f"  (worst: {self.where})")


def compare(samples, answers):
    """The tallies per body and quantity."""
    tallies = {(body, kind): Tally() for body in LIMITS for kind in ("azimuth", "elevation")}
    tallies[("moon", "phase")] = Tally()
    for (when, place, lat, lon), answer in zip(samples, answers):
        theirs = reference(when, lat, lon)
        for body in LIMITS:
            mine, truth = answer[body], theirs[body]
            where = f"{place} {when:%Y-%m-%d %H:%M} UTC, elevation {truth['elevationDeg']:.1f}°"
            if truth["elevationDeg"] > -5:
                apart = azimuth_apart(mine["azimuthDeg"], truth["azimuthDeg"], truth["elevationDeg"])
                tallies[(body, "azimuth")].add(apart, where)
            if truth["elevationDeg"] >= 0:
                tallies[(body, "elevation")].add(abs(mine["elevationDeg"] - truth["elevationDeg"]), where)
        where = f"{when:%Y-%m-%d %H:%M} UTC"
        tallies[("moon", "phase")].add(abs(answer["moon"]["phase"] - theirs["moon"]["phase"]), where)
    return tallies


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--year", type=int, default=2026)
    parser.add_argument("--node", default="node")
    arguments = parser.parse_args()
    samples = [(when, name, lat, lon) for when in moments(arguments.year) for name, lat, lon in PLACES]
    tallies = compare(samples, ours(samples, arguments.node))
    failed = False
    print(f"almanac.js against PyEphem {ephem.__version__}, {len(PLACES)} places, {arguments.year}:")
    for body, limit in LIMITS.items():
        print(f"{body} (limit {limit}°):")
        for kind in ("azimuth", "elevation"):
            tally = tallies[(body, kind)]
            print(tally.line(kind, "°"))
            failed |= tally.worst > limit or tally.count == 0
    phase = tallies[("moon", "phase")]
    print(f"moon's lit fraction (limit {PHASE_LIMIT}):")
    print(phase.line("phase", ""))
    failed |= phase.worst > PHASE_LIMIT
    if failed:
        print("almanac.js is further from PyEphem than allowed", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
