#!/usr/bin/env python3
"""Judges schema samples with the `jsonschema` package (PyPI): every sample must validate against
its schema. Used by the import tests (SchemaSampleValidityTests).

stdin: {"draft": "4" | "2020-12",
        "documents": {"file:///abs/spec.yaml": <the document as JSON>, ...},
        "checks": [{"ref": "file:///abs/spec.yaml#/components/schemas/Pet", "sample": <value>}, ...]}
stdout: one line per sample that does not validate; exit 1 when there is one, 0 when all do."""
import json
import sys

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4, DRAFT202012


def main():
    job = json.load(sys.stdin)
    spec = DRAFT4 if job["draft"] == "4" else DRAFT202012
    validator_class = jsonschema.Draft4Validator if job["draft"] == "4" else jsonschema.Draft202012Validator
    resources = [(uri, Resource(contents=doc, specification=spec)) for uri, doc in job["documents"].items()]
    registry = Registry().with_resources(resources)
    failures = 0
    for check in job["checks"]:
        schema = {"$ref": check["ref"]}
        validator = validator_class(schema, registry=registry, format_checker=validator_class.FORMAT_CHECKER)
        errors = sorted(validator.iter_errors(check["sample"]), key=lambda e: list(e.absolute_path))
        for e in errors:
            failures += 1
            print(f"{check['ref']}: sample {json.dumps(check['sample'])[:200]} at {list(e.absolute_path)}: {e.message[:300]}")
    print(f"{len(job['checks'])} samples, {failures} failures", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
