#!/usr/bin/env python3
"""Extracts the evaluation inputs (never labels) from the recorded ATS responses in
shared/fixtures/ats/ into tests/data/postings.json.

Each record: id, fixture, title, company, location (joined the way adapters join place parts:
", " inside one place, "; " between places), description (visible-text excerpt, HTML-escaped).
Labels are written by hand in tests/data/labels.tsv; this script never produces them.

Usage: python3 tools/extract_eval.py /path/to/shared/fixtures/ats
       python3 tools/extract_eval.py --eval /path/to/shared/fixtures/ats

The second form writes tests/data/postings_new.json (hand labels in tests/data/labels_new.tsv)
from the 90 boards in ashby-eval/ instead, and nothing else. Selection rule, deterministic: the
boards in sorted file-name order; inside a board its jobs sorted by job id; a job whose input
(title, location, description excerpt) is identical to one already kept is skipped; the first
PER_BOARD (4) kept jobs of each board are taken (all of a board with fewer). Records have the same
shape as postings.json: id "ashby-eval/<board>:<job id>", company = the board name.
"""
import html
import json
import re
import sys
import xml.etree.ElementTree as ET

args = [a for a in sys.argv[1:] if a != "--eval"]
root = args[0]
EXCERPT = 4000
out = []


def visible(h):
    h = h or ""
    if "&lt;" in h and "<" not in h:
        h = html.unescape(h)
    h = re.sub(r"(?is)<(script|style).*?</\1>", " ", h)
    h = re.sub(r"<[^>]+>", " ", h)
    h = html.unescape(h)
    return re.sub(r"\s+", " ", h).strip()


def join(*parts):
    return ", ".join(p.strip() for p in parts if p and p.strip())


def add(fixture, ident, title, company, location, description=""):
    text = visible(description)[:EXCERPT]
    out.append({
        "id": f"{fixture}:{ident}",
        "fixture": fixture,
        "title": (title or "").strip(),
        "company": (company or "").strip(),
        "location": location,
        "description": html.escape(text, quote=False),
    })


def ashby(path, fixture, company):
    for j in json.load(open(path))["jobs"]:
        locs = [j.get("location") or ""] + [s.get("location") or "" for s in j.get("secondaryLocations", [])]
        add(fixture, j["id"], j["title"], company, "; ".join(l for l in locs if l), j.get("descriptionHtml"))


if "--eval" in sys.argv[1:]:
    import os
    PER_BOARD = 4
    kept, seen = [], set()
    for name in sorted(f for f in os.listdir(f"{root}/ashby-eval") if f.endswith(".json")):
        board = name[: -len(".json")]
        jobs = sorted(json.load(open(f"{root}/ashby-eval/{name}"))["jobs"], key=lambda j: j["id"])
        taken = 0
        for j in jobs:
            if taken == PER_BOARD:
                break
            out.clear()
            locs = [j.get("location") or ""] + [s.get("location") or "" for s in j.get("secondaryLocations", [])]
            add(f"ashby-eval/{board}", j["id"], j["title"], board, "; ".join(l for l in locs if l), j.get("descriptionHtml"))
            r = out[0]
            k = (r["title"], r["location"], r["description"])
            if k in seen:
                continue
            seen.add(k)
            kept.append(r)
            taken += 1
    json.dump(kept, open("tests/data/postings_new.json", "w"), indent=1, ensure_ascii=False)
    print(len(kept), "postings from", len({r["fixture"] for r in kept}), "boards")
    sys.exit(0)


for board in ["Diagrid", "Windsurf", "anara", "cartesia", "hiverge", "mobbin.com", "reedsy"]:
    ashby(f"{root}/ashby-boards/{board}.json", f"ashby-boards/{board}", board)

ck = f"{root}/careerkit"
ashby(f"{ck}/ashby.json", "careerkit/ashby", "HighlightTA")
for j in json.load(open(f"{ck}/greenhouse.json"))["jobs"]:
    add("careerkit/greenhouse", j["id"], j["title"], j.get("company_name"), j["location"]["name"], j.get("content"))
for j in json.load(open(f"{ck}/lever.json")):
    c = j.get("categories", {})
    desc = (j.get("description") or "") + " " + " ".join(
        (l.get("text", "") + " " + l.get("content", "")) for l in j.get("lists", [])) + " " + (j.get("additional") or "")
    add("careerkit/lever", j["id"], j["text"], "Idealist Consulting", "; ".join(c.get("allLocations") or [c.get("location", "")]), desc)
for o in json.load(open(f"{ck}/recruitee.json"))["offers"]:
    desc = o.get("translations", {}).get("en", {})
    add("careerkit/recruitee", o["id"], o["title"], "Acme", o.get("location", ""),
        (desc.get("description") or "") + " " + (desc.get("requirements") or ""))
for j in json.load(open(f"{ck}/bamboohr.json"))["result"]:
    add("careerkit/bamboohr", j["id"], j["jobOpeningName"], "Acme", join(j["location"].get("city"), j["location"].get("state")))
for j in json.load(open(f"{ck}/eightfold.json"))["positions"]:
    add("careerkit/eightfold", j["id"], j["name"], "Albemarle", "; ".join(j.get("locations") or [j["location"]]), j.get("job_description"))
for item in json.load(open(f"{ck}/oracle_orc.json"))["items"]:
    for r in item["requisitionList"]:
        locs = [r["PrimaryLocation"]] + [s["Name"] for s in r.get("secondaryLocations", [])]
        add("careerkit/oracle_orc", r["Id"], r["Title"], "Acme", "; ".join(locs), r.get("ShortDescriptionStr"))
d = json.load(open(f"{ck}/oracle_orc_detail.json"))
add("careerkit/oracle_orc_detail", d["Id"], d["Title"], "Acme", join(d["PrimaryLocation"], d.get("PrimaryLocationCountry")),
    " ".join(d.get(k) or "" for k in ["ExternalDescriptionStr", "ExternalResponsibilitiesStr", "ExternalQualificationsStr"]))
for p in json.load(open(f"{ck}/pinpoint.json"))["data"]:
    desc = " ".join(p.get(k) or "" for k in ["description", "key_responsibilities", "skills_knowledge_expertise", "benefits"])
    add("careerkit/pinpoint", p["id"], p["title"], "Acme", (p.get("location") or {}).get("name", ""), desc)
for j in json.load(open(f"{ck}/rippling.json")):
    add("careerkit/rippling", j["uuid"] + ":" + j["workLocation"]["id"], j["name"], "Acme", j["workLocation"]["label"])
for j in json.load(open(f"{ck}/smartrecruiters.json"))["content"]:
    add("careerkit/smartrecruiters", j["id"], j["name"], j["company"]["name"], j["location"].get("fullLocation", ""))
for i in json.load(open(f"{ck}/teamtailor.json"))["items"]:
    locs = [join(a["address"].get("addressLocality"), a["address"].get("addressCountry")) for a in i["_jobposting"].get("jobLocation", [])]
    add("careerkit/teamtailor", i["id"], i["title"], "Teamtailor", "; ".join(locs), i.get("content_html") or i.get("content_text"))
for j in json.load(open(f"{ck}/workable.json"))["jobs"]:
    add("careerkit/workable", j["shortcode"] + ":" + j["country"], j["title"], "Zaelab", join(j.get("city"), j.get("state"), j.get("country")))
for j in json.load(open(f"{ck}/workday.json"))["jobPostings"]:
    loc = " - ".join(p.replace("-", " ") for p in j["externalPath"].split("/")[2].split("---"))
    add("careerkit/workday", j["bulletFields"][0], j["title"], "Salesforce", loc)
for m in re.finditer(r'<span>([^<]*)</span></div>\s*<div class="col-xs-12 title">\s*<a [^>]*title="(\d+) - ([^"]+)"', open(f"{ck}/icims.html").read()):
    add("careerkit/icims", m.group(2), m.group(3), "Wipfli", m.group(1))
for m in re.finditer(r'<a href="/feedingamerica/job/(\w+)">([^<]+)</a></td><td class="jv-job-list-location">([^<]+)<', open(f"{ck}/jobvite.html").read()):
    add("careerkit/jobvite", m.group(1), html.unescape(m.group(2)), "Feeding America", m.group(3))
page = re.search(r"window.pageData = (\{.*\});", open(f"{ck}/paylocity.html").read()).group(1)
for j in json.loads(page)["Jobs"]:
    l = j["JobLocation"]
    add("careerkit/paylocity", j["JobId"], j["JobTitle"], "NCAEC", join(j["LocationName"], l.get("City"), l.get("State"), l.get("Country")))
page = re.search(r"phApp.ddo = (\{.*?\}); phApp", open(f"{ck}/phenom.html").read()).group(1)
for j in json.loads(page)["eagerLoadRefineSearch"]["data"]["jobs"]:
    add("careerkit/phenom", j["jobId"], j["title"], "Phenom", j["location"], j.get("descriptionTeaser"))
for p in ET.parse(f"{ck}/personio.xml").getroot().iter("position"):
    offices = [p.findtext("office")] + [o.text for o in p.findall("additionalOffices/office")]
    add("careerkit/personio", p.findtext("id") + ":" + str(len(out)), p.findtext("name"), "Acme", "; ".join(o for o in offices if o))
ns = {"j": "http://www.neogov.com/namespaces/JobListing"}
for it in ET.parse(f"{ck}/neogov.xml").getroot().iter("item"):
    loc = it.findtext("j:location", default="", namespaces=ns) or join(it.findtext("j:city", default="", namespaces=ns), it.findtext("j:state", default="", namespaces=ns))
    add("careerkit/neogov", it.findtext("j:jobId", namespaces=ns), it.findtext("title"), "Example Public Agency", loc, it.findtext("description"))

# Deduplicate identical inputs (fixtures repeat some postings verbatim).
seen, unique = set(), []
for r in out:
    k = (r["title"], r["location"], r["description"])
    if k not in seen:
        seen.add(k)
        unique.append(r)
json.dump(unique, open("tests/data/postings.json", "w"), indent=1, ensure_ascii=False)
print(len(unique), "postings")

# Every single place string the fixtures carry (one per secondary location, address, …) that
# is not already a whole posting location: geography-only cases.
places = set()
for r in unique:
    for part in r["location"].split("; "):
        places.add(part.strip())
for board in ["Diagrid", "Windsurf", "anara", "cartesia", "hiverge", "mobbin.com", "reedsy"]:
    for j in json.load(open(f"{root}/ashby-boards/{board}.json"))["jobs"]:
        a = (j.get("address") or {}).get("postalAddress") or {}
        places.add(join(a.get("addressLocality"), a.get("addressRegion"), a.get("addressCountry")))
        for s2 in j.get("secondaryLocations", []):
            a = (s2.get("address") or {})
            places.add(join(a.get("addressLocality"), a.get("addressRegion"), a.get("addressCountry")))
places -= {r["location"] for r in unique}
places.discard("")
json.dump(sorted(places), open("tests/data/locations.json", "w"), indent=1, ensure_ascii=False)
print(len(places), "location strings")
