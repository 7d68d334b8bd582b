#!/usr/bin/env python3
"""The text bytes a generated wiki's held-out half must read, raw and at zstd's best (docs/benchmarks.md,
"NBLB in the engine": the floor under any held-out working set).

    python3 docs/scripts/heldout_bytes.py DUMP TRACE [TRAIN]
    python3 docs/scripts/heldout_bytes.py --blocks DUMP        # every text of a dump, per value against blocks
    python3 docs/scripts/heldout_bytes.py --tail DUMP TRACE    # what the held-out reads are, against the training;
                                                               # and the training's reads superseded before the split;
                                                               # and the held-out edits' predecessors read again
    python3 docs/scripts/heldout_bytes.py --export DUMP TRACE DIR  # the values DecompressBenchmark reads (below)

Splits the trace as `replay --train TRAIN` does (default 0.5: half of the events; a join is one event
per table), collects the distinct `text` rows the held-out events read (`SELECT old_text ... WHERE
old_id = N`), with their values from the dump or from the trace's INSERTs, and prints their bytes:
raw; each value compressed alone by zstd at levels 3 and 19; each alone with a dictionary zstd trains
on the texts the training half read (112 KB, `zstd --train`, the way a per-field trained dictionary
would be built); and all of them concatenated in one zstd -19 --long frame (what the best codec here
reaches when it may use every other value as context); then the same values packed in old_id order (the
order a partition holds them in) into blocks of 4, 16 and 64 KiB raw, each block one zstd -9 frame, with
and without the dictionary (what `compress_block=` stores). Any design that returns these values must
hold their information in memory or read it from the device, so the last figure is a floor under
the held-out working set. Needs the `zstd` command.

With --export, writes three files of values for the engine's JMH benchmarks of its decompression
(`./bench engine DecompressBenchmark`) and compression (`./bench engine CompressBenchmark`), each value
a 4-byte little-endian length and its bytes: DIR/sample.bin, the dump's texts of at least 64 bytes,
evenly spaced, at most 4,096 (what `Table.trainDictionaries` trains the field's dictionary on at the
split), DIR/reads.bin, the distinct texts the held-out half reads, in the order it first reads them,
and DIR/inserts.bin, the texts the held-out half inserts, in its order.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

TEXT_READ = re.compile(r"FROM text WHERE old_id = (\d+)")
TEXT_INSERT = re.compile(r"INSERT INTO text \(old_id,old_text,old_flags\) VALUES \((\d+),'")
ESCAPES = {'0': b'\0', 'n': b'\n', 'r': b'\r', 't': b'\t', 'Z': b'\x1a', 'b': b'\b'}


def sql_string(s, i):
    """The MySQL string literal that starts after the quote at s[i-1]; returns (bytes, index after the closing quote)."""
    out = bytearray()
    while True:
        j = s.find(b"'", i)
        k = s.find(b"\\", i)
        if k != -1 and k < j:
            out += s[i:k]
            c = chr(s[k + 1])
            out += ESCAPES.get(c, bytes([s[k + 1]]))
            i = k + 2
            continue
        if s[j + 1:j + 2] == b"'":  # '' inside a literal
            out += s[i:j] + b"'"
            i = j + 2
            continue
        out += s[i:j]
        return bytes(out), j + 1


def dump_texts(path):
    texts = {}
    with open(path, 'rb') as f:
        for line in f:
            if not line.startswith(b'INSERT INTO `text` VALUES ('):
                continue
            i = len(b'INSERT INTO `text` VALUES (')
            while i < len(line):
                m = re.match(rb'(\d+),\'', line[i:])
                if not m:
                    break
                old_id = int(m.group(1))
                value, i = sql_string(line, i + m.end())
                _, i = sql_string(line, line.index(b"'", i) + 1)  # old_flags
                texts[old_id] = value
                i = line.find(b'(', i)
                if i == -1:
                    break
                i += 1
    return texts


def zstd_size(data, *args):
    return len(subprocess.run(['zstd', '-q', '-c', *args], input=data, capture_output=True, check=True).stdout)


BLOCK_KIB = (4, 16, 64)


def blocks(values, kib):
    """values (in order) packed into blocks of at most kib KiB raw; a longer value is a block alone."""
    out, cur = [], b''
    for v in values:
        if cur and len(cur) + len(v) > kib << 10:
            out.append(cur)
            cur = b''
        cur += v
        if len(cur) >= kib << 10:
            out.append(cur)
            cur = b''
    return out + ([cur] if cur else [])


def block_rows(values, raw_bytes, dictionary=None):
    mib = lambda b: b / 2 ** 20
    per9 = sum(min(len(v), zstd_size(v, '-9')) for v in values)
    print(f"  zstd -9, each value alone   {mib(per9):8.3f} MiB ({raw_bytes / per9:.2f}x)")
    if dictionary:
        d9 = sum(min(len(v), zstd_size(v, '-9', '-D', dictionary)) for v in values)
        print(f"  zstd -9 + dict, each alone  {mib(d9):8.3f} MiB ({raw_bytes / d9:.2f}x)")
    for kib in BLOCK_KIB:
        bs = blocks(values, kib)
        plain = sum(zstd_size(b, '-9') for b in bs)
        line = f"  {kib:3d} KiB blocks, zstd -9     {mib(plain):8.3f} MiB ({raw_bytes / plain:.2f}x; {len(bs)} blocks)"
        if dictionary:
            dict_blocks = sum(zstd_size(b, '-9', '-D', dictionary) for b in bs)
            line += f"; + dict {mib(dict_blocks):.3f} MiB ({raw_bytes / dict_blocks:.2f}x)"
        print(line)


def main_blocks(dump):
    """Every text of a dump in old_id order: per value against blocks (no dictionary: nothing to train it on apart)."""
    texts = dump_texts(dump)
    values = [texts[i] for i in sorted(texts)]
    raw_bytes = sum(len(v) for v in values)
    print(f"{dump}: {len(values):,} texts, {raw_bytes / 2 ** 20:.3f} MiB raw, median "
          f"{sorted(len(v) for v in values)[len(values) // 2]:,} bytes")
    block_rows(values, raw_bytes)


READ_KEY = re.compile(r"FROM (revision|text|slots|watchlist|actor|page) (?:JOIN \w+ ON [\w= ]+ )?WHERE "
                      r"(rev_id|old_id|slot_revision_id|wl_user|actor_name|page_namespace) = ('[^']*'|\d+)"
                      r"(?: AND page_title = ('(?:[^'\\]|\\.|'')*'))?")
LATEST = re.compile(r"UPDATE page SET page_latest = (\d+).* WHERE page_id = \d+ AND page_latest = (\d+)")


def sql_tuples(line, i):
    """The rows of an extended INSERT from line[i] (at a '('): lists of field texts, strings unquoted."""
    rows = []
    while i < len(line) and line[i:i + 1] == b'(':
        i += 1
        row = []
        while True:
            if line[i:i + 1] == b"'":
                v, i = sql_string(line, i + 1)
                row.append(v)
            else:
                j = i
                while line[j:j + 1] not in (b',', b')'):
                    j += 1
                row.append(line[i:j])
                i = j
            if line[i:i + 1] == b')':
                i += 1
                break
            i += 1  # ,
        rows.append(row)
        if line[i:i + 1] == b',':
            i += 1
    return rows


def initial_latest(dump):
    """page_latest of every page in the dump (the revisions hot=refs' rule names at the start)."""
    latest = set()
    with open(dump, 'rb') as f:
        for line in f:
            if line.startswith(b'INSERT INTO `page` VALUES ('):
                for row in sql_tuples(line, len(b'INSERT INTO `page` VALUES ')):
                    latest.add(int(row[8]))  # page_latest, the ninth column of MediaWiki's page
    return latest


def split_trace(trace, train):
    """
    The trace's statements, their events (a JOIN reads two tables), and where --train splits them:
    the index of the first held-out statement and the training half's events.
    """
    raw = open(trace, 'rb').read().split(b'\n')
    stmts = [line for line in raw if line.startswith(b'/*')]
    events = [2 if b' JOIN ' in line else 1 for line in stmts]
    half, seen_events, k = round(sum(events) * float(train)), 0, 0
    while seen_events < half:
        seen_events += events[k]
        k += 1
    return stmts, events, k, seen_events


def main_tail(dump, trace, train=0.5):
    """
    The held-out reads, split by what the training half could have taught a design: keys the training
    read, revisions that are their page's latest when read (hot=refs' rule names them whether read or
    not; written held out or before), older revisions, watchlists, pages and actors the training never
    read. Counts of events and of distinct keys, from the trace and the dump alone (no replay).
    """
    latest = initial_latest(dump)
    stmts, events, k, seen_events = split_trace(trace, train)
    trained = collections.defaultdict(set)
    written_held = set()
    counts = collections.Counter()
    keys = collections.defaultdict(set)
    latest_at_split = None
    read_held = set()
    superseded_held = set()  # the predecessors the held-out edits supersede: the upkeep demotes them
    read_after_demotion = set()
    for n, line in enumerate(stmts):
        if n == k:
            latest_at_split = set(latest)
        text = line.decode('utf-8', 'replace')
        if text.find('UPDATE page SET page_latest') > 0:
            m = LATEST.search(text)
            if m:
                latest.discard(int(m.group(2)))
                latest.add(int(m.group(1)))
                if n >= k:
                    written_held.add(int(m.group(1)))
                    superseded_held.add(int(m.group(2)))
            continue
        m = READ_KEY.search(text)
        if not m:
            continue
        table = m.group(1)
        key = m.group(3) + (m.group(4) or '')
        family = 'revision' if table in ('revision', 'text', 'slots') else table
        if n < k:
            trained[table].add(key)
            continue
        if family == 'revision':
            rid = int(key)
            read_held.add((table, rid))
            if rid in superseded_held:
                read_after_demotion.add((table, rid))
            if key in trained[table]:
                cls = 'read by the training'
            elif rid in latest:
                cls = ('latest, written held out' if rid in written_held
                       else 'latest when read, never read by the training')
            else:
                cls = 'older revision, never read by the training'
        else:
            cls = 'read by the training' if key in trained[table] else 'never read by the training'
        counts[(table, cls)] += events[n]
        keys[(table, cls)].add(key)
    print(f"{trace}: {len(stmts)} statements, {seen_events} training events (--train {train})")
    print(f"{'table':10} {'held-out reads':48} {'events':>8} {'keys':>7}")
    for (table, cls), c in sorted(counts.items()):
        print(f"{table:10} {cls:48} {c:8,} {len(keys[(table, cls)]):7,}")
    # What the split puts in the hot partition that §3.1's rule would not: read by the training, then
    # superseded by one of its edits (no longer its page's latest at the split).
    if latest_at_split is None:
        latest_at_split = set(latest)
    for table in ('revision', 'slots', 'text'):
        read = {int(x) for x in trained[table]}
        stale = read - latest_at_split
        again = {rid for rid in stale if (table, rid) in read_held}
        print(f"{table:10} read by the training, not latest at the split: {len(stale):,} keys, "
              f"read held out {len(again):,}; latest at the split, read by the training: {len(read & latest_at_split):,}")
    # What the upkeep writes to the cold partition held out (each demoted predecessor), and whether anything reads it.
    for table in ('revision', 'slots', 'text'):
        again = {rid for (t, rid) in read_after_demotion if t == table}
        print(f"{table:10} superseded by a held-out edit (demoted by the upkeep): {len(superseded_held):,} keys, "
              f"read after the edit {len(again):,}")


def main(dump, trace, train=0.5):
    texts = dump_texts(dump)
    stmts, events, k, seen_events = split_trace(trace, train)
    train_read, held_read = [], collections.OrderedDict()
    for n, line in enumerate(stmts):
        m = TEXT_INSERT.search(line.decode('utf-8', 'replace')) if b'INSERT INTO text' in line else None
        if m:
            start = line.index(b"VALUES (") + len(b"VALUES (")
            old_id = int(re.match(rb'(\d+)', line[start:]).group(1))
            texts[old_id] = sql_string(line, line.index(b"'", start) + 1)[0]
            continue
        m = TEXT_READ.search(line.decode('utf-8', 'replace')) if b'FROM text' in line else None
        if m:
            old_id = int(m.group(1))
            (train_read.append(old_id) if n < k else held_read.setdefault(old_id, None))
    values = [texts[i] for i in held_read if i in texts]
    raw_bytes = sum(len(v) for v in values)
    with tempfile.TemporaryDirectory() as d:
        sample_dir = os.path.join(d, 'train')
        os.mkdir(sample_dir)
        for i in sorted(set(train_read)):
            if i in texts:
                with open(os.path.join(sample_dir, str(i)), 'wb') as f:
                    f.write(texts[i])
        dictionary = os.path.join(d, 'dict')
        subprocess.run(['zstd', '-q', '--train', '-r', sample_dir, '-o', dictionary, '--maxdict=112640'],
                       check=True, capture_output=True)
        per3 = sum(min(len(v), zstd_size(v, '-3')) for v in values)
        per19 = sum(min(len(v), zstd_size(v, '-19')) for v in values)
        dict19 = sum(min(len(v), zstd_size(v, '-19', '-D', dictionary)) for v in values)
        dict_bytes = os.path.getsize(dictionary)
        ordered = [texts[i] for i in sorted(held_read) if i in texts]
        print(f"held-out texts in old_id order, per value against blocks (zstd -9; dictionary as below):")
        block_rows(ordered, raw_bytes, dictionary)
    whole = zstd_size(b''.join(values), '-19', '--long=27')
    mib = lambda b: b / 2 ** 20
    print(f"{trace}: {len(stmts)} statements, {seen_events} training events (--train {train})")
    print(f"held-out text reads: {len(held_read):,} distinct old_id, {len(values):,} with a value")
    print(f"  raw                         {mib(raw_bytes):8.2f} MiB")
    print(f"  zstd -3, each value alone   {mib(per3):8.2f} MiB ({raw_bytes / per3:.2f}x)")
    print(f"  zstd -19, each value alone  {mib(per19):8.2f} MiB ({raw_bytes / per19:.2f}x)")
    print(f"  zstd -19 + trained dict     {mib(dict19):8.2f} MiB ({raw_bytes / dict19:.2f}x; dictionary "
          f"{dict_bytes / 1024:.0f} KiB from {len(set(train_read)):,} training texts)")
    print(f"  zstd -19 --long, all in one {mib(whole):8.2f} MiB ({raw_bytes / whole:.2f}x)")


def write_values(path, values):
    with open(path, 'wb') as f:
        for v in values:
            f.write(len(v).to_bytes(4, 'little'))
            f.write(v)


def main_export(dump, trace, out, train=0.5):
    texts = dump_texts(dump)
    ids = sorted(texts)
    every = max(1, len(ids) // 4096)
    sample = [texts[i] for n, i in enumerate(ids) if n % every == 0 and len(texts[i]) >= 64][:4096]
    stmts, events, k, seen_events = split_trace(trace, train)
    held_read = collections.OrderedDict()
    inserts = []
    for n, line in enumerate(stmts):
        if b'INSERT INTO text' in line and TEXT_INSERT.search(line.decode('utf-8', 'replace')):
            start = line.index(b"VALUES (") + len(b"VALUES (")
            old_id = int(re.match(rb'(\d+)', line[start:]).group(1))
            texts[old_id] = sql_string(line, line.index(b"'", start) + 1)[0]
            if n >= k:
                inserts.append(texts[old_id])
            continue
        m = TEXT_READ.search(line.decode('utf-8', 'replace')) if n >= k and b'FROM text' in line else None
        if m:
            held_read.setdefault(int(m.group(1)), None)
    reads = [texts[i] for i in held_read if i in texts]
    os.makedirs(out, exist_ok=True)
    write_values(os.path.join(out, 'sample.bin'), sample)
    write_values(os.path.join(out, 'reads.bin'), reads)
    write_values(os.path.join(out, 'inserts.bin'), inserts)
    print(f"{out}: {len(sample):,} sample values ({sum(map(len, sample)):,} bytes), "
          f"{len(reads):,} held-out reads ({sum(map(len, reads)):,} bytes), "
          f"{len(inserts):,} held-out inserts ({sum(map(len, inserts)):,} bytes)")


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[1] == '--export':
        main_export(*sys.argv[2:])
        sys.exit(0)
    if len(sys.argv) == 3 and sys.argv[1] == '--blocks':
        main_blocks(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == '--tail':
        main_tail(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (3, 4):
        main(*sys.argv[1:])
    else:
        sys.exit(__doc__)
