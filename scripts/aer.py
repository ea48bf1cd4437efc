#!/usr/bin/env python3
"""Azimuth, elevation and slant range by pymap3d, an independent geodesy library.

Reads one JSON array on standard input: objects with the observer's `lat0`, `lon0`, `h0`
and the target's `lat`, `lon`, `h` (degrees; metres above the WGS-84 ellipsoid). Writes a
JSON array of `[azimuth_deg, elevation_deg, slant_m]`, one per object, in the same order.
The tests compare the daemon's projection with it.
"""
import json
import sys

import pymap3d


def main() -> None:
    points = json.load(sys.stdin)
    answers = []
    for p in points:
        az, el, slant = pymap3d.geodetic2aer(p["lat"], p["lon"], p["h"], p["lat0"], p["lon0"], p["h0"])
        answers.append([float(az), float(el), float(slant)])
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
