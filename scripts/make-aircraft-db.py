#!/usr/bin/env python3
"""A made-up aircraft database in tar1090-db's format, for measuring --db-file's load time
and memory (make bench-identity).

Usage: make-aircraft-db.py ROWS OUTPUT.csv.gz

Rows look like the real file's: distinct addresses, registrations of 5-7 characters, types
from a few thousand, descriptions shared by type, years, owners from a long tail (many
private owners, a few airlines with thousands of aircraft), flags on a few rows. The same
ROWS always gives the same file.
"""
import gzip
import random
import sys

rows, output = int(sys.argv[1]), sys.argv[2]
random.seed(600000)
letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
types = ["".join(random.choice(letters + "0123456789") for _ in range(4)) for _ in range(3000)]
descriptions = {t: "MAKER %s MODEL %d" % (t, random.randint(100, 999)) for t in types}
airlines = ["Airline %d" % i for i in range(400)]
addresses = random.sample(range(0x000001, 0xFFFFFF), rows)
addresses.sort()
with gzip.open(output, "wt", encoding="utf-8", compresslevel=6) as out:
    for address in addresses:
        kind = random.choice(types[:300]) if random.random() < 0.6 else random.choice(types)
        registration = random.choice(letters) + "-" + "".join(random.choice(letters) for _ in range(random.randint(3, 5)))
        owner = random.choice(airlines) if random.random() < 0.4 else "Owner %d" % random.randint(1, 150000)
        year = str(random.randint(1960, 2025)) if random.random() < 0.7 else ""
        flags = random.choice(["10", "01", "0001"]) if random.random() < 0.02 else "00"
        # Each row ends with a ';', as tar1090-db's do (readsb skips a row without it).
        out.write("%06x;%s;%s;%s;%s;%s;%s;\n" % (address, registration, kind, flags, descriptions[kind], year, owner))
