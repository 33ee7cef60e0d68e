#!/usr/bin/env python3
"""Judges target files with apicli's JSON Schema, by the `jsonschema` package (PyPI): an independent
validator. Used by TargetSchemaTests and EditorSchemaCLITests.

stdin: {"schemas": {"targets": <schema>, "project": <schema>},
        "files": [{"name": "targets/github.yaml", "schema": "targets", "valid": true, "value": <the file as JSON>}, ...]}
Each schema must be a valid draft 2020-12 schema (Draft202012Validator.check_schema); each file
must validate when "valid" is true and must not when it is false.
stdout: one line per schema or file that disagrees; exit 1 when there is one, 0 when none does."""
import json
import sys

import jsonschema


def main():
    job = json.load(sys.stdin)
    failures = 0
    validators = {}
    for name, schema in job["schemas"].items():
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            failures += 1
            print(f"schema {name} is not a valid draft 2020-12 schema: {e.message[:300]} at {list(e.absolute_path)}")
            continue
        validators[name] = jsonschema.Draft202012Validator(schema)
    for f in job["files"]:
        validator = validators.get(f["schema"])
        if validator is None:
            continue
        errors = sorted(validator.iter_errors(f["value"]), key=lambda e: list(e.absolute_path))
        if f["valid"] and errors:
            failures += 1
            print(f"{f['name']}: apicli accepts it, the {f['schema']} schema does not: "
                  + "; ".join(f"at {list(e.absolute_path)}: {e.message[:200]}" for e in errors[:3]))
        elif not f["valid"] and not errors:
            failures += 1
            print(f"{f['name']}: apicli rejects it, the {f['schema']} schema accepts it")
    print(f"{len(job['files'])} files judged", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
