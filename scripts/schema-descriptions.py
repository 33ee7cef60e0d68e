#!/usr/bin/env python3
"""scripts/schema-descriptions.py — copies the manual's key tables into the schema's descriptions:
docs/target-files.md's rows (file → $defs/service, target → $defs/target, sample → $defs/sample)
and docs/project-file.md's two tables ($defs/project, $defs/rule), as plain text (no links, no code
marks). Run it after editing those tables, then scripts/embed-schema.sh; TargetSchemaTests
fails until both have run. Needs only python3."""
import json
import os
import re

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = os.path.join(repo, "schema", "apicli-targets.schema.json")


def plain(cell):
    cell = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)
    return cell.replace("`", "").replace("\\|", "|")


def tables(page):
    out, current = [], None
    for line in open(os.path.join(repo, page), encoding="utf-8"):
        if not line.startswith("|"):
            current = None
            continue
        if current is None:
            current = []
            out.append(current)
            continue  # the heading row
        if line.startswith("| ---"):
            continue
        current.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return out


def keys(cell):
    return [k.strip().strip("`") for k in re.split(r"[,/]", cell) if k.strip().startswith("`")]


schema = json.load(open(path, encoding="utf-8"))
defs = schema["$defs"]


def describe(name, key, text):
    properties = defs[name]["properties"]
    if key not in properties:
        raise SystemExit(f"schema-descriptions: the manual names {key} in {name}, which the schema does not have")
    properties[key]["description"] = plain(text)


where = {"file": "service", "target": "target", "sample": "sample"}
for row in tables("docs/target-files.md")[0]:
    if row[0] in where:
        for key in keys(row[1]):
            describe(where[row[0]], key, row[2])
project, rule = tables("docs/project-file.md")[:2]
for row in project:
    for key in keys(row[0]):
        describe("project", key, row[1])
for row in rule:
    for key in keys(row[0]):
        describe("rule", key, row[1])

with open(path, "w", encoding="utf-8") as f:
    f.write(json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
print("schema-descriptions: wrote schema/apicli-targets.schema.json")
