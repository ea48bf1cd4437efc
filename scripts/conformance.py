#!/usr/bin/env python3
"""Field-by-field comparison of `aviator-adsb decode` with pyModeS over the message corpora.

Both decoders read every message of the three CSV corpora in ../shared/messages, with the
rows' Unix times (so both pair CPR frames the same way). For every field that both decoders
produce for a message, the values are compared (with a tolerance where one side rounds).
Prints the agreement per field and exits non-zero when any field agrees on fewer than 99.5%
of the messages where both produced it.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

CORPORA = ["sample_data_adsb.csv", "sample_data_commb_df20.csv", "sample_data_commb_df21.csv"]
THRESHOLD = 99.5


def read_corpus(path):
    """(unix time, hex) for every row: the message is the 14/28-digit column after the time."""
    rows = []
    with open(path, encoding="utf-8-sig", newline="") as handle:
        for row in csv.reader(handle):
            if not row:
                continue
            message = next(c for c in row[1:] if len(c.strip()) in (14, 28))
            rows.append((float(row[0]), message.strip()))
    return rows


def ours(binary, path):
    result = subprocess.run([binary, "decode", path], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"conformance: {binary} decode {path} failed: {result.stderr.strip()}")
    return [json.loads(line) for line in result.stdout.splitlines()]


def theirs(rows):
    """pyModeS's streaming decoder, fed in order. Each result is copied at once: the decoder
    may later back-fill positions into dicts it handed out, which a live receiver cannot."""
    import pyModeS

    decoder = pyModeS.PipeDecoder()
    return [dict(decoder.decode(message, timestamp=time)) for time, message in rows]


def near(tolerance):
    return lambda a, b: abs(float(a) - float(b)) <= tolerance


def same(a, b):
    return a == b


def angle(tolerance):
    def compare(a, b):
        d = abs(float(a) - float(b)) % 360
        return min(d, 360 - d) <= tolerance
    return compare


def field_pairs(o, p):
    """Yields (field name, our value, their value, comparison) for fields both decoders gave."""
    tc = o.get("tc")
    commb = o.get("df") in (20, 21)

    def pair(name, ours_key, theirs_key, compare=same, ours_value=None):
        value = ours_value if ours_value is not None else o.get(ours_key)
        if value is not None and p.get(theirs_key) is not None:
            yield name, value, p[theirs_key], compare

    yield from pair("icao", "icao", "icao", lambda a, b: a.lower() == b.lower())
    yield from pair("df", "df", "df")
    yield from pair("tc", "tc", "typecode")
    if o.get("df") in (11, 17, 18):
        yield from pair("crc_ok", "crc_ok", "crc_valid")
    yield from pair("callsign", "callsign", "callsign", lambda a, b: a == b.rstrip("_ #"))
    if o.get("category") is not None:
        yield from pair("category", None, "category", same, ours_value=int(o["category"][1:]))
    yield from pair("squawk", "squawk", "squawk")
    if tc is not None and 20 <= tc <= 22:
        yield from pair("alt_geo_ft", "alt_geo_ft", "altitude", near(1))
    else:
        yield from pair("alt_baro_ft", "alt_baro_ft", "altitude")
    yield from pair("lat", "lat", "latitude", near(1e-4))
    yield from pair("lon", "lon", "longitude", near(1e-4))
    # pyModeS rounds ground speed to whole knots.
    yield from pair("ground_speed_kt", "ground_speed_kt", "groundspeed", near(1.0))
    yield from pair("track_deg", "track_deg", "true_track" if commb else "track", angle(0.01))
    yield from pair("vertical_rate_fpm", "vertical_rate_fpm", "vertical_rate")
    if o.get("vertical_rate_source") is not None:
        yield from pair("vertical_rate_source", None, "vr_source", lambda a, b: a.lower() == b.lower(),
                        ours_value=o["vertical_rate_source"])
    yield from pair("geo_minus_baro_ft", "geo_minus_baro_ft", "geo_minus_baro")
    yield from pair("velocity_subtype", "velocity_subtype", "subtype")
    yield from pair("airspeed_kt", "airspeed_kt", "airspeed", near(1.0))
    yield from pair("heading_deg", "heading_deg", "heading", angle(0.01))
    if o.get("cpr_odd") is not None:
        yield from pair("cpr_odd", None, "cpr_format", same, ours_value=1 if o["cpr_odd"] else 0)
    yield from pair("cpr_lat", "cpr_lat", "cpr_lat")
    yield from pair("cpr_lon", "cpr_lon", "cpr_lon")
    if commb:
        yield from pair("bds", "bds", "bds")
    source = o.get("selected_alt_source")
    if source is not None:
        yield from pair("selected_alt_ft", "selected_alt_ft", f"selected_altitude_{source}")
    yield from pair("baro_setting_hpa", "baro_setting_hpa", "baro_pressure_setting", near(0.05))
    yield from pair("roll_deg", "roll_deg", "roll", near(0.01))
    yield from pair("track_rate_deg_s", "track_rate_deg_s", "track_rate", near(0.001))
    yield from pair("true_airspeed_kt", "true_airspeed_kt", "true_airspeed")
    yield from pair("indicated_airspeed_kt", "indicated_airspeed_kt", "indicated_airspeed")
    yield from pair("mach", "mach", "mach", near(0.001))
    yield from pair("magnetic_heading_deg", "magnetic_heading_deg", "magnetic_heading", angle(0.01))
    yield from pair("baro_vertical_rate_fpm", "baro_vertical_rate_fpm", "baro_vertical_rate")
    yield from pair("inertial_vertical_rate_fpm", "inertial_vertical_rate_fpm", "inertial_vertical_rate")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the aviator-adsb binary")
    parser.add_argument("--messages", required=True, help="the folder holding the CSV corpora")
    parser.add_argument("--show", type=int, default=3, help="disagreements to print per field")
    args = parser.parse_args()

    if not os.path.isdir(args.messages):
        text = f"conformance: {args.messages} is missing: the message corpora are needed"
        if os.environ.get("CI") == "true":
            sys.exit(text)
        print(text + "; skipped", file=sys.stderr)
        return

    stats = {}
    examples = {}
    only_ours = {}
    for name in CORPORA:
        path = os.path.join(args.messages, name)
        rows = read_corpus(path)
        mine, reference = ours(args.binary, path), theirs(rows)
        if len(mine) != len(rows) or len(reference) != len(rows):
            sys.exit(f"conformance: {name}: {len(rows)} rows, we printed {len(mine)}, pyModeS {len(reference)}")
        for (_, hexmsg), o, p in zip(rows, mine, reference):
            for field, a, b, compare in field_pairs(o, p):
                total, agree = stats.get(field, (0, 0))
                ok = compare(a, b)
                stats[field] = (total + 1, agree + (1 if ok else 0))
                if not ok:
                    examples.setdefault(field, []).append((hexmsg, a, b))
            if o.get("df") in (20, 21) and o.get("bds") and not p.get("bds"):
                only_ours[o["bds"]] = only_ours.get(o["bds"], 0) + 1

    failed = []
    print(f"{'field':28} {'both':>7} {'agree':>7} {'%':>8}")
    for field, (total, agree) in stats.items():
        percent = 100.0 * agree / total
        mark = "" if percent >= THRESHOLD else "  BELOW 99.5%"
        print(f"{field:28} {total:7d} {agree:7d} {percent:8.2f}{mark}")
        if percent < THRESHOLD:
            failed.append(field)
    for field, rows in examples.items():
        for hexmsg, a, b in rows[: args.show]:
            print(f"  differs: {field} {hexmsg} ours={a!r} pyModeS={b!r}")
    total_compared = sum(t for t, _ in stats.values())
    total_agreed = sum(a for _, a in stats.values())
    print(f"conformance: {total_agreed} of {total_compared} field values agree with pyModeS "
          f"({100.0 * total_agreed / total_compared:.3f}%)")
    if failed:
        sys.exit(f"conformance: below {THRESHOLD}% on: {', '.join(failed)}")


if __name__ == "__main__":
    main()
