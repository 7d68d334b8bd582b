#!/usr/bin/env python3
"""The text bytes a generated wiki's held-out half must read, raw and at zstd's best (docs/benchmarks.md,
"NBLB in the engine": the floor under any held-out working set).

    python3 docs/scripts/heldout_bytes.py DUMP TRACE [TRAIN]

Splits the trace as `replay --train TRAIN` does (default 0.5: half of the events; a join is one event
per table), collects the distinct `text` rows the held-out events read (`SELECT old_text ... WHERE
old_id = N`), with their values from the dump or from the trace's INSERTs, and prints their bytes:
raw; each value compressed alone by zstd at levels 3 and 19; each alone with a dictionary zstd trains
on the texts the training half read (112 KB, `zstd --train`, the way a per-field trained dictionary
would be built); and all of them concatenated in one zstd -19 --long frame (what the best codec here
reaches when it may use every other value as context). Any design that returns these values must
hold their information in memory or read it from the device, so the last figure is a floor under
the held-out working set. Needs the `zstd` command.
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


def main(dump, trace, train=0.5):
    texts = dump_texts(dump)
    raw = open(trace, 'rb').read().split(b'\n')
    stmts = [line for line in raw if line.startswith(b'/*')]
    events = [2 if b' JOIN ' in line else 1 for line in stmts]
    half, seen_events, k = round(sum(events) * float(train)), 0, 0
    while seen_events < half:
        seen_events += events[k]
        k += 1
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


if __name__ == '__main__':
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
