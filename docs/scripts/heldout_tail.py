#!/usr/bin/env python3
"""The held-out tail of a generated wiki's trace (docs/benchmarks.md, "Where the working set goes").

    python3 docs/scripts/heldout_tail.py TRACE [OUT]

Splits the trace as `replay --train 0.5` does (half of the events; a join is one event per table)
and prints, per table, the share of held-out lookups whose tuple the first half never read or
wrote (a row inserted after the split counts as seen: inserts go hot). With OUT, writes the trace
without those lookups (writes kept) and prints the --train fraction that keeps the same training
events. Knows the statement shapes of `wastecheck trace generate`; other statements pass through.
"""
import collections
import re
import sys

LOOKUPS = [
    ('page', re.compile(r"FROM page WHERE page_namespace = (\d+) AND page_title = '((?:[^']|'')*)'")),
    ('revision', re.compile(r"FROM revision WHERE rev_id = (\d+)")),
    ('slots/content', re.compile(r"FROM slots JOIN content .* WHERE slot_revision_id = (\d+)")),
    ('text', re.compile(r"FROM text WHERE old_id = (\d+)")),
    ('actor', re.compile(r"FROM actor WHERE actor_name = '((?:[^']|'')*)'")),
    ('watchlist', re.compile(r"FROM watchlist WHERE wl_user = (\d+)")),
]
INSERTS = [
    ('revision', re.compile(r"INSERT INTO revision \(.*?\) VALUES \((\d+),")),
    ('slots/content', re.compile(r"INSERT INTO slots \(.*?\) VALUES \((\d+),")),
    ('text', re.compile(r"INSERT INTO text \(.*?\) VALUES \((\d+),")),
]


def main(src, dst=None):
    lines = open(src, encoding='utf-8', errors='replace').read().split('\n')
    stmts = [i for i, line in enumerate(lines) if line.startswith('/*')]
    events = {i: 2 if ' JOIN ' in lines[i] else 1 for i in stmts}
    half, train_events, k = round(sum(events.values()) * 0.5), 0, 0
    while train_events < half:
        train_events += events[stmts[k]]
        k += 1
    seen, born = collections.defaultdict(set), collections.defaultdict(set)
    stats = collections.defaultdict(lambda: [0, 0, set()])  # held-out lookups, never seen, distinct
    drop, dropped_events = set(), 0
    for n, i in enumerate(stmts):
        line, train = lines[i], n < k
        for table, p in INSERTS:
            m = p.search(line)
            if m:
                (seen if train else born)[table].add(m.group(1))
        for table, p in LOOKUPS:
            m = p.search(line)
            if not m:
                continue
            key = m.groups() if len(m.groups()) > 1 else m.group(1)
            if train:
                seen[table].add(key)
            else:
                s = stats[table]
                s[0] += 1
                if key not in seen[table] and key not in born[table]:
                    s[1] += 1
                    s[2].add(key)
                    drop.add(i)
                    dropped_events += events[i]
            break
    print(f"{src}: {len(stmts)} statements, {train_events} training events")
    print(f"{'table':15} {'held-out lookups':>16} {'never seen':>11} {'share':>6} {'distinct':>9}")
    total = unseen = 0
    for table, (n, u, d) in sorted(stats.items(), key=lambda x: -x[1][0]):
        total, unseen = total + n, unseen + u
        print(f"{table:15} {n:16,} {u:11,} {100 * u / n:5.1f}% {len(d):9,}")
    print(f"{'all lookups':15} {total:16,} {unseen:11,} {100 * unseen / total:5.1f}%")
    if dst:
        with open(dst, 'w', encoding='utf-8') as f:
            f.write('\n'.join(line for i, line in enumerate(lines) if i not in drop))
        kept = sum(events.values()) - dropped_events
        print(f"wrote {dst} without {len(drop)} lookups ({dropped_events} events): --train {train_events / kept!r}")


if __name__ == '__main__':
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
