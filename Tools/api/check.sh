#!/usr/bin/env bash
# The public API check: the public declarations of each library product's module, as Tools/api/api_listing.py
# lists them from the symbol graph, must equal the baseline checked in under API/ (the last release's API plus
# every deliberate change since, each named in CHANGELOG.md). CI runs it; a difference fails with the diff.
#
# usage: Tools/api/check.sh            compare with API/MODULE.txt
#        Tools/api/check.sh --update   rewrite the baseline after a deliberate change (then name it in CHANGELOG.md)
#
# The symbol-graph extractor leaves out a symbol named after its module plus "Version" (it takes it for a
# framework's generated version symbol): `SleepAnalysisVersion` is in neither the listing nor DocC's symbol pages.
set -euo pipefail
cd "$(dirname "$0")/../.."
modules=(SleepAnalysis SleepAnalysisFleet)
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
Tools/api/symbol-graphs.sh "$graphs" "${modules[@]}" >/dev/null 2>"$graphs/build.log" || {
    cat "$graphs/build.log" >&2
    exit 1
}
status=0
for module in "${modules[@]}"; do
    listing="$graphs/$module.txt"
    python3 Tools/api/api_listing.py "$graphs" "$module" >"$listing"
    baseline="API/$module.txt"
    if [ "${1:-}" = "--update" ]; then
        cp "$listing" "$baseline"
        echo "API baseline rewritten: $baseline ($(wc -l <"$baseline") declarations); name the change in CHANGELOG.md"
    elif ! diff -u --label "$baseline (baseline)" --label "$module (this build)" "$baseline" "$listing"; then
        echo "The public API of $module differs from $baseline (lines above: - removed, + added)." >&2
        echo "If the change is deliberate: Tools/api/check.sh --update, and name it in CHANGELOG.md." >&2
        status=1
    else
        echo "API of $module: $(wc -l <"$listing") declarations, as in $baseline"
    fi
done
exit $status
