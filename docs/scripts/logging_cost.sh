#!/usr/bin/env bash
# Logging's cost on the TPC-C-like mix (issue 26), in one run: ABBA paired windows of the mix with
# the log on and off (MixPairs), 1 worker, then 2 workers; then the bootstrap of both.
#
#   /work/bin/cpu ./bench arrow mix 1 1 1 arrow     # build first (the quiet run does not build)
#   /work/bin/quiet docs/scripts/logging_cost.sh OUT [BLOCKS] [QUADS] [MILLIS]
#
# Defaults: 20 blocks of 2 ABBA quadruples of 1,000 ms windows for each worker count (about 4 minutes
# each on the 2-core VM). Writes uptime, the commit and lscpu into OUT beside the runs. The JVM gets a
# fixed heap, touched at start (BENCH_JVM_ARGS, default below: the default maximum on this 23 GiB VM,
# made fixed), so that no window pays the kernel's page faults of a growing heap (up to 18 us of
# system time a transaction in a window of the pilot runs) while the next one does not.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: logging_cost.sh OUT [BLOCKS] [QUADS] [MILLIS]}
blocks=${2:-20}
quads=${3:-2}
millis=${4:-1000}
export BENCH_JVM_ARGS=${BENCH_JVM_ARGS--Xms6g -Xmx6g -XX:+AlwaysPreTouch}
{
  echo "== logging_cost.sh $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), JVM $BENCH_JVM_ARGS"
  lscpu | head -14
  echo "uptime: $(uptime)"
  BENCH_BUILD=0 ./bench arrow mix-pairs "$millis" "$quads" "$blocks" 1
  echo "uptime: $(uptime)"
  BENCH_BUILD=0 ./bench arrow mix-pairs "$millis" "$quads" "$blocks" 2
  echo "uptime: $(uptime)"
  echo "== ended $(date -u +%FT%TZ)"
} 2>&1 | grep -v '^CompileCommand' | tee "$out"
python3 docs/scripts/mix_bootstrap.py "$out" | tee "$out.bootstrap"
