#!/usr/bin/env python3
"""Draw the seeded sample of docs/measurements.md: SEED, a severity and a
report; prints the sample sorted by file and line, one finding a line.
Usage: sample.py SEED warning|note REPORT.json [N]"""
import json, random, sys

seed, level, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 30
with open(path) as f:
    findings = json.load(f).get("findings") or []
pool = [x for x in findings if x["severity"] == level]
random.seed(seed)
picked = random.sample(pool, min(n, len(pool)))
picked.sort(key=lambda x: (x["file"], x["line"], x["column"]))
for i, x in enumerate(picked, 1):
    print(f'{i}\t{x["file"]}:{x["line"]}:{x["column"]}\t{x["rule"]}/{x["category"]}\t{x["function"]}\t{x["message"]}')
