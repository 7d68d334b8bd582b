#!/usr/bin/env python3
"""Tables 2 and 3 in transactions a second, from hpl-targets' per-fork traces (-Dpaperrun.trace=FILE
with --forks F writes FILE.fork1..F): each fork's mean batch time per operation and format, tps =
batch / mean, Perf.Δ = mean(NSM) / mean(HPL) - 1 per fork, and across forks the mean of the forks'
Perf.Δ with a 95% t interval (HplTargets.FORK_RULE) (docs/benchmarks.md, issue 25).

    python3 docs/scripts/run6_tables.py FILE.fork1 FILE.fork2 ...
"""
import csv, statistics, sys
from collections import defaultdict

BATCH = {'new_order': 400, 'payment': 400, 'order_status': 400, 'delivery': 40, 'stock_level': 40, 'mix': 1000, 'txn': 20000}
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365}

def main(files):
    forks = []
    for f in files:
        t = defaultdict(list)
        for row in csv.DictReader(open(f)):
            if row['op'] in BATCH and row['workload'] in ('tpcc-engine', 'tpcb-engine'):
                t[(row['op'], row['format'])].append(float(row['ms']))
        forks.append({k: statistics.mean(v) for k, v in t.items()})
    print('| transaction | NSM tps | HPL tps | Perf.Δ per fork | across forks: mean [95% t] |')
    print('|---|---:|---:|---|---:|')
    for op in BATCH:
        nsm = [f[(op, 'NSM')] for f in forks]
        hpl = [f[(op, 'HPL')] for f in forks]
        d = [100 * (a / b - 1) for a, b in zip(nsm, hpl)]
        m = statistics.mean(d)
        h = T975[len(d) - 1] * statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float('nan')
        print('| %s | %s | %s | %s | %+.1f%% [%+.1f%%, %+.1f%%] |' % (
            op, '{:,.0f}'.format(BATCH[op] / (statistics.mean(nsm) / 1e3)),
            '{:,.0f}'.format(BATCH[op] / (statistics.mean(hpl) / 1e3)),
            ' / '.join('%+.1f%%' % x for x in d), m, m - h, m + h))

if __name__ == '__main__':
    main(sys.argv[1:])
