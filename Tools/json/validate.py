#!/usr/bin/env python3
"""Validates JSON documents against the repository's JSON Schemas (Schemas/), with the jsonschema package.

usage: validate.py SCHEMA_NAME DOCUMENT [DOCUMENT ...]   e.g. validate.py analysis-result out.json
       validate.py --check-schemas                       every schema is itself a valid draft 2020-12 schema

A DOCUMENT of "-" is read from standard input. Exit 0 when every document is valid, 1 with one line per error
(the document, the path inside it and the reason) otherwise, 2 on a usage error. Run by the test suite
(JSONContractTests) with Debian's python3-jsonschema; a tool, never used at run time.
"""
import json
import os
import sys

import jsonschema

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Schemas")


def load_schemas() -> dict:
    schemas = {}
    for name in sorted(os.listdir(SCHEMAS)):
        if name.endswith(".schema.json"):
            with open(os.path.join(SCHEMAS, name), encoding="utf-8") as file:
                schemas[name] = json.load(file)
    return schemas


def validator_for(name: str, schemas: dict) -> jsonschema.Draft202012Validator:
    # Each schema refers to the others by file name, relative to its $id: the store answers both forms.
    store = {}
    for file_name, schema in schemas.items():
        store[schema["$id"]] = schema
        store[file_name] = schema
    schema = schemas[name + ".schema.json"]
    resolver = jsonschema.RefResolver(base_uri=schema["$id"], referrer=schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def main(arguments: list) -> int:
    schemas = load_schemas()
    if arguments == ["--check-schemas"]:
        for name, schema in schemas.items():
            jsonschema.Draft202012Validator.check_schema(schema)
            print(f"{name}: a valid schema")
        return 0
    if len(arguments) < 2 or arguments[0] + ".schema.json" not in schemas:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        print("schemas: " + ", ".join(n[: -len(".schema.json")] for n in schemas), file=sys.stderr)
        return 2
    validator = validator_for(arguments[0], schemas)
    failures = 0
    for path in arguments[1:]:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            print(f"{path}: not JSON: {error}")
            failures += 1
            continue
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(part) for part in error.absolute_path) or "(the document)"
            print(f"{path}: {where}: {error.message[:300]}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
