#!/usr/bin/env python3
"""Count the findings of lockaudit JSON reports per severity, rule/category
and _test.go. Usage: counts.py REPORT.json..."""
import collections, json, sys

for path in sys.argv[1:]:
    with open(path) as f:
        findings = json.load(f).get("findings") or []
    by = collections.Counter((x["severity"], x["rule"] + "/" + x["category"]) for x in findings)
    tests = sum(1 for x in findings if x["file"].endswith("_test.go"))
    parts = ", ".join(f"{sev} {rc} {n}" for (sev, rc), n in sorted(by.items()))
    print(f"{path}: {len(findings)} findings ({tests} in _test.go): {parts}")
