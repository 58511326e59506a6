#!/usr/bin/env python3
"""Re-evaluate a triaged sample against a later report: which sampled
findings are gone, and how the verdicts count among those still reported.
Usage: reeval.py SAMPLE.txt VERDICTS.md LATER.json
SAMPLE.txt is sample.py's output; VERDICTS.md has rows "| # | where | ... |
TRUE or FALSE | reason |" numbered as the sample."""
import json, re, sys

sample, verdicts, later = sys.argv[1:4]
rows = {}
for line in open(sample):
    n, where, rc, fn, msg = line.rstrip("\n").split("\t", 4)
    path, ln, _ = where.rsplit(":", 2)
    rows[int(n)] = (path, int(ln), rc, msg)
verdict = {}
for line in open(verdicts):
    m = re.match(r"\|\s*(\d+)\s*\|.*\|\s*(TRUE|FALSE)[^|]*\|", line)
    if m:
        verdict[int(m.group(1))] = m.group(2)
with open(later) as f:
    now = {(x["file"], x["line"], x["rule"] + "/" + x["category"], x["message"]) for x in json.load(f).get("findings") or []}
kept = {"TRUE": 0, "FALSE": 0}
for n, key in sorted(rows.items()):
    v = verdict.get(n, "?")
    if key in now:
        kept[v] = kept.get(v, 0) + 1
    else:
        print(f"gone #{n} ({v}): {key[0]}:{key[1]} {key[2]}")
print(f"still reported: {kept['TRUE']} true, {kept['FALSE']} false")
