#!/usr/bin/env python3
"""Validates real responses against an OpenAPI 3.1 document of the repository (Schemas/*.openapi.json), with the
jsonschema package: the response schema of an operation and status, whose $refs reach the document's components
and the JSON Schemas beside it (Schemas/*.schema.json).

usage: validate_openapi.py OPENAPI METHOD PATH STATUS DOCUMENT   e.g. validate_openapi.py night-service GET
                                                                 /v1/sessions/{sessionId} 200 body.json
       validate_openapi.py OPENAPI --operations                  one "METHOD PATH STATUS…" line per operation
       validate_openapi.py OPENAPI --check                       the component schemas are valid 2020-12 schemas

PATH is the document's path template. Exit 0 when the DOCUMENT is valid, 1 with one line per error, 2 when the
operation, status or JSON content is not in the OpenAPI document. Run by the tests (NightServiceContractTests);
a tool, never used at run time.
"""
import json
import os
import sys
import warnings

import jsonschema

# RefResolver is deprecated in newer jsonschema releases but is what Debian 12's python3-jsonschema offers.
warnings.filterwarnings("ignore", category=DeprecationWarning)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from validate import SCHEMAS, load_schemas  # noqa: E402

BASE = "https://sleepanalysis.invalid/schemas/v1/"


def load(name: str) -> dict:
    with open(os.path.join(SCHEMAS, name + ".openapi.json"), encoding="utf-8") as file:
        return json.load(file)


def validator(document: dict, name: str, schema: dict) -> jsonschema.Draft202012Validator:
    store = {}
    for file_name, other in load_schemas().items():
        store[other["$id"]] = other
        store[file_name] = other
    base = BASE + name + ".openapi.json"
    store[base] = document
    resolver = jsonschema.RefResolver(base_uri=base, referrer=document, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def main(arguments: list) -> int:
    if len(arguments) < 2:
        print(__doc__.strip().splitlines()[4], file=sys.stderr)
        return 2
    name = arguments[0]
    document = load(name)
    if arguments[1] == "--operations":
        for path, item in sorted(document["paths"].items()):
            for method, operation in sorted(item.items()):
                print(method.upper(), path, " ".join(sorted(operation["responses"])))
        return 0
    if arguments[1] == "--check":
        for component, schema in document["components"]["schemas"].items():
            jsonschema.Draft202012Validator.check_schema(schema)
            print(f"{component}: a valid schema")
        return 0
    if len(arguments) != 5:
        print(__doc__.strip().splitlines()[4], file=sys.stderr)
        return 2
    method, path, status, file_name = arguments[1].lower(), arguments[2], arguments[3], arguments[4]
    response = document["paths"].get(path, {}).get(method, {}).get("responses", {}).get(status)
    if response is None:
        print(f"{method.upper()} {path} has no {status} response in {name}.openapi.json")
        return 2
    schema = response.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        print(f"{method.upper()} {path} {status} has no application/json content in {name}.openapi.json")
        return 2
    text = sys.stdin.read() if file_name == "-" else open(file_name, encoding="utf-8").read()
    try:
        body = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"{file_name}: not JSON: {error}")
        return 1
    failures = 0
    for error in sorted(validator(document, name, schema).iter_errors(body), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(part) for part in error.absolute_path) or "(the document)"
        print(f"{method.upper()} {path} {status}: {where}: {error.message[:300]}")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
