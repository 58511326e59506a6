#!/usr/bin/env python3
"""Compare two lockaudit JSON reports: the findings only in the first
(gone) and only in the second (new), keyed by file, line, rule/category
and message. Usage: diff.py BEFORE.json AFTER.json"""
import json, sys

def load(path):
    with open(path) as f:
        return {(x["file"], x["line"], x["rule"] + "/" + x["category"], x["severity"], x["message"]): x
                for x in json.load(f).get("findings") or []}

a, b = load(sys.argv[1]), load(sys.argv[2])
for tag, keys in (("gone", sorted(a.keys() - b.keys())), ("new", sorted(b.keys() - a.keys()))):
    for k in keys:
        print(f"{tag}\t{k[0]}:{k[1]}\t{k[2]}\t{k[3]}\t{k[4][:160]}")
