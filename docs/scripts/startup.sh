#!/usr/bin/env bash
# A fresh JVM's `./wastecheck analyze examples/wiki/dump.sql`, before and after issue 32's start-up
# work, alternating in one script (docs/benchmarks.md, "Start-up").
#
#   docs/scripts/startup.sh BEFORE_DIR [RUNS]
#
# BEFORE_DIR holds the earlier launcher and jar laid out as a clone does (BEFORE_DIR/wastecheck,
# BEFORE_DIR/cli/target/wastecheck.jar, BEFORE_DIR/pom.xml older than the jar), e.g. from
#   git worktree add /tmp/before <commit> && (cd /tmp/before && ./mvnw -q -DskipTests -pl cli -am package)
# Prints one line per run (wall seconds, user+sys CPU seconds) and the medians with their ranges.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
before=$1
runs=${2:-7}
dump="$here/examples/wiki/dump.sql"
"$here/wastecheck" analyze -q "$dump" >/dev/null # builds and records the class archive if needed
measure() { # prints "wall cpu" (GNU time)
  /usr/bin/time -o /tmp/startup.time -f '%e %U %S' "$@" >/dev/null 2>&1
  awk '{printf "%.2f %.2f\n", $1, $2 + $3}' /tmp/startup.time
}
: > /tmp/startup.before; : > /tmp/startup.after
for i in $(seq "$runs"); do
  b=$(measure "$before/wastecheck" analyze "$dump"); echo "$b" >> /tmp/startup.before
  a=$(measure "$here/wastecheck" analyze "$dump"); echo "$a" >> /tmp/startup.after
  echo "run $i: before $b, after $a (wall s, cpu s)"
done
summary() {
  sort -n -k"$2" "$1" | awk -v k="$2" '{v[NR]=$k} END {printf "median %.2f (range %.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'
}
echo "before: wall $(summary /tmp/startup.before 1), cpu $(summary /tmp/startup.before 2)"
echo "after:  wall $(summary /tmp/startup.after 1), cpu $(summary /tmp/startup.after 2)"
