#!/usr/bin/env python3
"""Magnetic declination by NOAA's own WMM2025 software (the wmm-calculator package, module
`wmm`), an implementation independent of the daemon's.

Reads one JSON array on standard input: objects with `lat`, `lon` (degrees, WGS-84),
`alt_km` (km above the WGS-84 ellipsoid) and `year` (decimal year). Writes a JSON array of
declinations in degrees (east positive), one per object, in the same order. The tests compare
the daemon's model with it.
"""
import json
import sys

from wmm import wmm_calc


def main() -> None:
    points = json.load(sys.stdin)
    model = wmm_calc()
    model.setup_time(dyear=[p["year"] for p in points])
    model.setup_env([p["lat"] for p in points], [p["lon"] for p in points], [p["alt_km"] for p in points])
    json.dump([float(d) for d in model.get_Bdec()], sys.stdout)


if __name__ == "__main__":
    main()
