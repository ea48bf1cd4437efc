#!/usr/bin/env python3
"""A plain reading of the VRS standing data's CSV files, answering the identity queries of
IdentityReferenceTests the way docs/identity.md describes them, written independently of
the Swift store so the two can be compared.

Usage: identity_reference.py STANDING_DATA_DIR < queries > answers
Each query line is "a HEX" (an address), "c CALLSIGN" or "t DESIGNATOR"; each answer is one
tab-separated line (see IdentityReferenceTests.swift for the fields).
"""
import csv
import glob
import os
import re
import sys

root = sys.argv[1]


def rows(folder):
    out = []
    for path in sorted(glob.glob(os.path.join(root, folder, "schema-01", "**", "*.csv"), recursive=True)):
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            next(reader, None)
            for row in reader:
                if row:
                    out.append(row + [""] * (11 - len(row)))
    return out


def clean(text):
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")


airlines = {}
iata_codes = {}
for row in rows("airlines"):
    if row[0] and row[0] not in airlines:
        airlines[row[0]] = row
        if row[2] and row[3]:
            iata_codes.setdefault(clean(row[3]), []).append(clean(row[2]))
iata_to_icao = {k: v[0] for k, v in iata_codes.items() if len(v) == 1}

airports = {}
for row in rows("airports"):
    airports.setdefault(row[0], row)

routes = {}
for row in rows("routes"):
    codes = row[4].split("-")
    if len(codes) >= 2 and all(code in airports for code in codes):
        routes.setdefault(row[0], codes)

types = {}
for row in rows("model-type"):
    if not row[0]:
        continue
    kept = types.get(row[0])
    if kept is None or (kept[8] != "1" and row[8] == "1"):
        types[row[0]] = row

blocks = []
for index, row in enumerate(rows("code-blocks")):
    start, finish = int(row[0], 16), int(row[1], 16)
    blocks.append((finish - start, index, start, finish, row[5] == "1", clean(row[6])))
blocks.sort()

def database_field(value, limit):
    """A field of the aircraft table as readsb keeps it: its first `limit` bytes of UTF-8 back
    to the last whole character, control characters as spaces, double quotes as single ones."""
    text = "".join(" " if ord(c) < 0x20 else "'" if c == '"' else c for c in clean(value.replace(";", ",")))
    return text.encode()[:limit].decode("utf-8", "ignore") or None


aircraft = {}
for row in rows("aircraft"):
    key = int(row[0], 16)
    if key in aircraft:
        continue
    aircraft[key] = tuple(database_field(row[index], limit)
                          for index, limit in ((1, 12), (2, 4), (5, 64), (10, 4), (7, 64)))


def type_class(designator, species, engine, wake):
    if designator in ("BALL", "SHIP"):
        return "balloon"
    if designator == "GLID":
        return "glider"
    if designator == "UAV":
        return "drone"
    if species in ("H", "G", "T"):
        return "helicopter"
    if wake in ("H", "J"):
        return "heavy"
    if engine == "J" and wake in ("M", "M/H"):
        return "medium_jet"
    if wake == "L" and engine in ("P", "E"):
        return "light"
    return "small"


def type_description(row):
    maker, model = clean(row[1]), clean(row[2])
    return model if not maker else maker if not model else maker + " " + model


def normalise(callsign):
    text = callsign.upper().replace(" ", "")
    match = re.fullmatch(r"([A-Z]{2,3}|[A-Z][0-9]|[0-9][A-Z])([0-9][A-Z0-9]*)", text)
    if not match or len(text) > 12:
        return None
    code, number = match.group(1), match.group(2).lstrip("0")
    if not number or number[0].isalpha():
        number = "0" + number
    if not re.fullmatch(r"[0-9]{1,4}|[0-9]{1,3}[A-Z]|[0-9]{1,2}[A-Z]{2}", number) or len(number) > 4:
        return None
    if len(code) == 2 and code in iata_to_icao:
        code = iata_to_icao[code]
    return code + number


def answer_address(text):
    address = int(text, 16)
    record = aircraft.get(address)
    registration, designator, desc, year, owner = record or (None, None, None, None, None)
    type_row = types.get(designator) if designator else None
    description = type_description(type_row) if type_row else desc
    country, military = "", False
    for _, _, start, finish, is_military, iso in blocks:
        if start <= address <= finish:
            country, military = ("" if iso == "ZZ" else iso), is_military
            break
    if type_row:
        kind = type_class(type_row[0], type_row[6], type_row[4], type_row[7])
    else:
        kind = "military" if military else ""
    fields = [registration, designator, description, year, owner, country, "1" if military else "0", kind]
    return "\t".join(["a", text] + [value or "" for value in fields])


def answer_callsign(text):
    normalised = normalise(text)
    codes = routes.get(normalised) if normalised else None
    if not codes:
        return "\t".join(["c", text, ""])
    parts = []
    for code in codes:
        row = airports[code]
        parts.append("%s|%s|%.4f|%.4f" % (clean(row[2]) or clean(row[3]), clean(row[1]), float(row[6]), float(row[7])))
    return "\t".join(["c", text, normalised] + parts)


def answer_type(text):
    row = types.get(text)
    if not row:
        return "\t".join(["t", text, "", ""])
    return "\t".join(["t", text, type_description(row), type_class(row[0], row[6], row[4], row[7])])


for line in sys.stdin:
    kind, _, value = line.rstrip("\n").partition(" ")
    print({"a": answer_address, "c": answer_callsign, "t": answer_type}[kind](value))
