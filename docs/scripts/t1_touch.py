#!/usr/bin/env python3
"""T1's counterfactual from a PaperRun trace (-Dpaperrun.trace=FILE, tpcb-engine with -Dtpcb.touch=true):
per format, Figure 7's T1 under statements, statements+slot and statements+other, and the paired
per-round differences with a 95% bootstrap interval (docs/benchmarks.md, "TPC-B's miss, explained").

    python3 docs/scripts/t1_touch.py FILE [BATCH]
"""
import csv, random, statistics, sys
from collections import defaultdict

MODES = ['statements', 'statements+slot', 'statements+other']

def boot(xs, f=statistics.mean, n=10000, seed=25):
    r = random.Random(seed)
    m = sorted(f([xs[r.randrange(len(xs))] for _ in xs]) for _ in range(n))
    return m[int(0.025 * n)], m[int(0.975 * n)]

def main(path, batch=20000):
    t = defaultdict(dict)  # (format, op part) -> round -> ms
    for row in csv.DictReader(open(path)):
        if row['workload'] != 'tpcb-engine': continue
        t[(row['format'], row['op'])][int(row['round'])] = float(row['ms'])
    formats = sorted({f for f, _ in t}, key=lambda f: (f != 'NSM', f))
    part = 'T1 r account'
    print('| format | T1 ms a batch, mean (sd): plain | slot loaded before | other line loaded before | other - slot, ms a batch, mean [95%] | ns a T1 |')
    print('|---|---:|---:|---:|---:|---:|')
    for f in formats:
        cols = [t[(f, m + ' ' + part)] for m in MODES]
        rounds = sorted(set(cols[1]) & set(cols[2]))
        d = [cols[2][r] - cols[1][r] for r in rounds]
        lo, hi = boot(d)
        cells = ['%.2f (%.2f)' % (statistics.mean(c.values()), statistics.stdev(c.values())) for c in cols]
        print('| %s | %s | %.2f [%.2f, %.2f] | %.0f [%.0f, %.0f] |' % (
            f, ' | '.join(cells), statistics.mean(d), lo, hi,
            statistics.mean(d) * 1e6 / batch, lo * 1e6 / batch, hi * 1e6 / batch))
    if 'NSM' in formats and 'HPL' in formats:
        # The slot line's own cost: NSM's gain from the touch less HPL's gain from the same offset of
        # its page (a line its T1 does not read), paired by round.
        n = {m: t[('NSM', m + ' ' + part)] for m in MODES[1:]}
        h = {m: t[('HPL', m + ' ' + part)] for m in MODES[1:]}
        rounds = sorted(set.intersection(*(set(x) for x in list(n.values()) + list(h.values()))))
        dd = [(n['statements+other'][r] - n['statements+slot'][r]) - (h['statements+other'][r] - h['statements+slot'][r])
              for r in rounds]
        lo, hi = boot(dd)
        print()
        print('NSM\'s gain less HPL\'s (the slot line net of touching the page): %.2f ms a batch [%.2f, %.2f], '
              '%.0f ns a T1 [%.0f, %.0f], %d rounds' % (statistics.mean(dd), lo, hi, statistics.mean(dd) * 1e6 / batch,
                                                       lo * 1e6 / batch, hi * 1e6 / batch, len(rounds)))
        print()
        print('| T1 | NSM - HPL, ms a batch, mean [95%] (paired by round) | ns a T1 | Perf.Δ mean(NSM) / mean(HPL) - 1 [95%] |')
        print('|---|---:|---:|---:|')
        for m in MODES:
            a, b = t[('NSM', m + ' ' + part)], t[('HPL', m + ' ' + part)]
            rounds = sorted(set(a) & set(b))
            d = [a[r] - b[r] for r in rounds]
            lo, hi = boot(d)
            r = random.Random(7)
            pd = []
            for _ in range(10000):
                s = [rounds[r.randrange(len(rounds))] for _ in rounds]
                pd.append(sum(a[i] for i in s) / sum(b[i] for i in s) - 1)
            pd.sort()
            point = sum(a[i] for i in rounds) / sum(b[i] for i in rounds) - 1
            print('| %s | %.2f [%.2f, %.2f] | %.0f | %+.1f%% [%+.1f%%, %+.1f%%] |' % (
                m, statistics.mean(d), lo, hi, statistics.mean(d) * 1e6 / batch,
                100 * point, 100 * pd[250], 100 * pd[9750]))
        print()
        print('| transaction (sum of T1..T7) | NSM ms | HPL ms | Perf.Δ |')
        print('|---|---:|---:|---:|')
        for m in MODES:
            a, b = t[('NSM', m)], t[('HPL', m)]
            parts = ['T1 r account', 'T2 u account', 'T3 i history', 'T4 r teller', 'T5 u teller', 'T6 r branch', 'T7 u branch']
            sa = [sum(t[('NSM', m + ' ' + p)][r] for p in parts) for r in sorted(a)]
            sb = [sum(t[('HPL', m + ' ' + p)][r] for p in parts) for r in sorted(b)]
            print('| %s | %.2f | %.2f | %+.1f%% |' % (m, statistics.mean(sa), statistics.mean(sb), 100 * (sum(sa) / sum(sb) - 1)))

if __name__ == '__main__':
    main(sys.argv[1], *map(int, sys.argv[2:3]))
