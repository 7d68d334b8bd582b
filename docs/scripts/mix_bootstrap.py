#!/usr/bin/env python3
"""Ratios and 95% bootstrap intervals from the output of `./bench arrow mix` (MixRuns).

Usage: python3 docs/scripts/mix_bootstrap.py OUTPUT [A B] [--resamples N] [--seed S]

A and B are two configurations of the run (default: arrow-log arrow); every ratio is A over B
(throughput, transactions a second). Python's standard library only.

It reads every run line MixRuns prints, one per run (or window):

    arrow-log    36300 txn/s, 0 aborted; workers' CPU 25.5 us a txn, 92% of their wall time[; ...
        ... 401.0 commits a force, 993 log bytes and 1.2 us of log manager CPU a txn]

and splits the output into experiments at each header line ("TPC-C-like mix, N workers ..."), so
that one file holding the 1-worker and the 2-worker runs of one quiet script gives both. Within an
experiment the runs fall into clusters:

- the rounds of `./bench arrow mix SECONDS ROUNDS THREADS A,B` (MixRuns.interleaved): the i-th run
  of A with the i-th run of B is round i (both run on fresh databases from the same seed);
- the blocks of `./bench arrow mix-pairs ...` (MixRuns.paired): every window after a line
  "block K ..." up to the next one is block K (one pair of databases, windows in ABBA order).

For each experiment it prints, each with a percentile interval from N resamples (default 10,000,
seeded, so the same file gives the same intervals):

- the ratio of medians: median of A's runs over median of B's runs. Legacy rounds: A's runs and B's
  runs resampled independently, as the intervals in docs/benchmarks.md before 2026-12-02 12:00 were
  computed; blocks: the blocks resampled (a block's windows share their databases, so they are not
  independent);
- the per-round median: the median of the rounds' ratios (a round's or block's ratio is the sum of
  A's transactions over B's in it, windows being equal in length), rounds resampled;
- the pooled ratio: all of A's transactions over all of B's, rounds (blocks) resampled;
- the mechanism: the workers' CPU a committed transaction (median of A's, of B's, their difference
  with its interval, rounds resampled) and the log manager thread's CPU a transaction (A's median).
"""

import random
import re
import statistics
import sys

HEADER = re.compile(r"^TPC-C-like mix.*?(\d+) workers")
BLOCK = re.compile(r"^block (\d+)")
RUN = re.compile(
    r"^\s+(?:\[[^\]]*\]\s+)?(?P<config>[a-z][a-z-]*)\s+(?P<tps>\d+) txn/s, (?P<aborted>\d+) aborted; "
    r"workers' CPU (?P<cpu>[\d.]+) us a txn"
    r"(?:.*?(?P<logcpu>[\d.]+) us of log manager CPU a txn)?"
)


def parse(lines):
    """Experiments: [(title, workers, blocked, [cluster: {config: [(tps, cpu, logcpu)]}])]."""
    experiments = []
    current = None
    for line in lines:
        h = HEADER.match(line)
        if h:
            current = {"title": line.strip(), "workers": int(h.group(1)), "blocked": False, "clusters": []}
            experiments.append(current)
            continue
        if current is None:
            continue
        b = BLOCK.match(line)
        if b:
            current["blocked"] = True
            current["clusters"].append({})
            continue
        m = RUN.match(line)
        if not m or "warm-up" in line:
            continue
        run = (float(m.group("tps")), float(m.group("cpu")), float(m.group("logcpu") or 0))
        if current["blocked"]:
            current["clusters"][-1].setdefault(m.group("config"), []).append(run)
        else:
            current.setdefault("legacy", {}).setdefault(m.group("config"), []).append(run)
    for e in experiments:
        if not e["blocked"]:
            runs = e.pop("legacy", {})
            n = min((len(v) for v in runs.values()), default=0)
            e["clusters"] = [{c: [v[i]] for c, v in runs.items()} for i in range(n)]
    return experiments


def percentile(sorted_xs, q):
    """The q-quantile of sorted values, linear between neighbours."""
    if not sorted_xs:
        return float("nan")
    pos = q * (len(sorted_xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def interval(stat, draws):
    xs = sorted(stat(d) for d in draws)
    return percentile(xs, 0.025), percentile(xs, 0.975)


def cluster_ratio(cluster, a, b):
    return sum(r[0] for r in cluster[a]) / sum(r[0] for r in cluster[b])


def describe(e, a, b, resamples, seed):
    clusters = [c for c in e["clusters"] if c.get(a) and c.get(b)]
    n = len(clusters)
    if n == 0:
        print(f"{e['title']}\n  no runs of both {a} and {b}\n")
        return
    rng = random.Random(seed)
    rounds = [[rng.randrange(n) for _ in range(n)] for _ in range(resamples)]

    def runs(idx, config, field=0):
        return [r[field] for i in idx for r in clusters[i][config]]

    every = list(range(n))
    tps_a, tps_b = runs(every, a), runs(every, b)
    print(e["title"])
    kind = "blocks" if e["blocked"] else "rounds"
    print(f"  {n} {kind}; {len(tps_a)} runs of {a}, {len(tps_b)} of {b}; {resamples} resamples, seed {seed}")
    print(f"  {a} median {statistics.median(tps_a):.0f} txn/s, {b} median {statistics.median(tps_b):.0f} txn/s")

    def ratio_of_medians(idx):
        return statistics.median(runs(idx, a)) / statistics.median(runs(idx, b))

    if e["blocked"]:
        rom = interval(ratio_of_medians, rounds)
    else:  # each configuration's runs resampled on their own
        other = [[rng.randrange(n) for _ in range(n)] for _ in range(resamples)]
        xs = sorted(
            statistics.median(runs(ia, a)) / statistics.median(runs(ib, b)) for ia, ib in zip(rounds, other)
        )
        rom = percentile(xs, 0.025), percentile(xs, 0.975)
    print(f"  ratio of medians {ratio_of_medians(every):.3f} [95% {rom[0]:.3f}-{rom[1]:.3f}]")

    per = [cluster_ratio(c, a, b) for c in clusters]
    pr = interval(lambda idx: statistics.median([per[i] for i in idx]), rounds)
    print(
        f"  per-{kind[:-1]} median {statistics.median(per):.3f} [95% {pr[0]:.3f}-{pr[1]:.3f}]"
        f" (range {min(per):.3f}-{max(per):.3f})"
    )

    def pooled(idx):
        return sum(runs(idx, a)) / sum(runs(idx, b))

    po = interval(pooled, rounds)
    print(f"  pooled ratio {pooled(every):.3f} [95% {po[0]:.3f}-{po[1]:.3f}]")
    print(f"  {kind}: " + " ".join(f"{x:.3f}" for x in per))

    def cpu_gap(idx):
        return statistics.median(runs(idx, a, 1)) - statistics.median(runs(idx, b, 1))

    cg = interval(cpu_gap, rounds)
    cpu_a, cpu_b = statistics.median(runs(every, a, 1)), statistics.median(runs(every, b, 1))
    log_a = [x for x in runs(every, a, 2) if x > 0]
    print(
        f"  workers' CPU a txn: {a} {cpu_a:.1f} us, {b} {cpu_b:.1f} us (medians), difference "
        f"{cpu_gap(every):+.1f} us [95% {cg[0]:+.1f} to {cg[1]:+.1f}]"
        + (f"; log manager {statistics.median(log_a):.2f} us a txn (median)" if log_a else "")
    )
    print()


def main(argv):
    import argparse

    p = argparse.ArgumentParser(description="Ratios and 95% bootstrap intervals from MixRuns output.")
    p.add_argument("output")
    p.add_argument("configs", nargs="*", default=["arrow-log", "arrow"], help="A B (default arrow-log arrow)")
    p.add_argument("--resamples", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=20261202)
    o = p.parse_args(argv[1:])
    if len(o.configs) != 2:
        p.error("name two configurations, A and B")
    a, b = o.configs
    args, resamples, seed = [o.output], o.resamples, o.seed
    with open(args[0], encoding="utf-8") as f:
        experiments = parse(f)
    if not experiments:
        print(f"{args[0]}: no MixRuns output found", file=sys.stderr)
        return 1
    for e in experiments:
        describe(e, a, b, resamples, seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
