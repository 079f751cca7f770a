#!/usr/bin/env python3
"""Turns symbol graphs (swift-symbolgraph-extract's JSON) into the public API as sorted lines of text, one
declaration per line, so that two versions of the API compare with diff.

usage: api_listing.py GRAPH_DIR MODULE      prints MODULE's public API (its own symbols and its extensions of
                                            other modules' types)

A line is `<kind> <path>: <declaration>`, e.g.
`func SleepCycleSdk.initialize(logLevel:logger:apiKey:...): static func initialize(...) async throws -> ...`.
Doc comments and source locations are left out: only what a user's code compiles against.
"""
import json
import os
import sys


def declaration(symbol: dict) -> str:
    fragments = symbol.get("declarationFragments", [])
    text = "".join(fragment["spelling"] for fragment in fragments)
    return " ".join(text.split())


def lines_of(graph: dict) -> list:
    lines = []
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        kind = symbol["kind"]["identifier"].removeprefix("swift.")
        path = ".".join(symbol["pathComponents"])
        extension = symbol.get("swiftExtension", {})
        constraints = extension.get("constraints", [])
        where = ""
        if constraints:
            where = " where " + ", ".join(
                f"{c['lhs']} {':' if c['kind'] == 'conformance' else '=='} {c['rhs']}" for c in constraints)
        lines.append(f"{kind} {path}: {declaration(symbol)}{where}")
    names = {
        s["identifier"]["precise"]: ".".join(s["pathComponents"])
        for s in graph.get("symbols", [])
        if s.get("accessLevel") in ("public", "open")
    }
    for relationship in graph.get("relationships", []):
        if relationship["kind"] == "conformsTo":
            source = relationship["source"]
            target = relationship.get("targetFallback") or relationship["target"]
            if source in names:
                lines.append(f"conformance {names[source]}: {target.split('.')[-1] if '.' in target else target}")
    return lines


def main(arguments: list) -> int:
    if len(arguments) != 2:
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    directory, module = arguments
    lines = set()
    for name in sorted(os.listdir(directory)):
        if name == f"{module}.symbols.json" or (name.startswith(f"{module}@") and name.endswith(".symbols.json")):
            with open(os.path.join(directory, name), encoding="utf-8") as file:
                lines.update(lines_of(json.load(file)))
    if not lines:
        print(f"no symbol graph of {module} in {directory}", file=sys.stderr)
        return 1
    print("\n".join(sorted(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
