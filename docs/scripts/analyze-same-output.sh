#!/usr/bin/env bash
# Runs analyze (JSON and text) of two builds on the same inputs and diffs the reports, timings
# removed: a change to the loader must leave every finding as it was (issue 32).
#
#   docs/scripts/analyze-same-output.sh BEFORE_TREE AFTER_TREE OUT_DIR [INPUT ...]
#
# Each tree is a built checkout (its ./wastecheck launcher and cli/target/wastecheck.jar). An
# INPUT is a file or folder, or several joined by '+' (a schema and its data). Without inputs:
# the example dump and the real dumps in /work/shared/data.
set -euo pipefail
before=$1 after=$2 out=$3
shift 3
if [ $# -eq 0 ]; then
  d=/work/shared/data
  set -- "$before/examples/wiki/dump.sql" \
    "$d/chinook/Chinook_MySql.sql" "$d/chinook/Chinook_MySql_AutoIncrementPKs.sql" \
    "$d/chinook/Chinook_PostgreSql.sql" "$d/chinook/Chinook_PostgreSql_SerialPKs.sql" \
    "$d/chinook/Chinook_Sqlite.sql" "$d/chinook/Chinook_Sqlite.sqlite" \
    "$d/sakila-mv/sakila-mv-schema.sql+$d/sakila-mv/sakila-mv-data.sql" \
    "$d/pagila-pgdump/pagila-schema.sql+$d/pagila-pgdump/pagila-data.sql" \
    "$d/mediawiki-smw-2017-dump" "$d/mediawiki-schema/tables-generated.sql"
fi
mkdir -p "$out"
# timings and the temporary paths a run names are not findings
strip() { sed -E '/"timings_ms" *: *\{/,/\}/d; s/"[a-z_]*(seconds|millis|_ms|elapsed|duration)[a-z_]*" *: *[0-9.eE+-]+/"T":0/g; s/[0-9.]+ s\b/N s/g; s/[0-9.]+ ms\b/N ms/g' "$1"; }
status=0
i=0
for input in "$@"; do
  i=$((i + 1))
  IFS='+' read -r -a files <<< "$input"
  for side in before after; do
    tree=${!side}
    "$tree/wastecheck" analyze -q --format json -o "$out/$i.$side.json" "${files[@]}" || echo "exit $? ($side, $input)" >> "$out/$i.$side.exit"
    "$tree/wastecheck" analyze -q --format text -o "$out/$i.$side.txt" "${files[@]}" || true
  done
  for ext in json txt; do
    if diff <(strip "$out/$i.before.$ext") <(strip "$out/$i.after.$ext") > "$out/$i.$ext.diff"; then
      echo "same   $ext  $input"
    else
      echo "DIFFER $ext  $input ($(wc -l < "$out/$i.$ext.diff") lines: $out/$i.$ext.diff)"
      status=1
    fi
  done
done
exit $status
