#!/usr/bin/env python3
"""Samples of Figure 7's T1 in the engine's TPC-B (EngineTpcb.add called from EngineTpcb.run's account
line, on its B+tree probe line or its balance-read line) from `jfr print --json --stack-depth 64
--events jdk.ExecutionSample`, counted by frame and line (docs/benchmarks.md, "TPC-B's miss, explained").

    python3 docs/scripts/t1_frames.py F.jfr RUN_LINE PROBE_LINE READ_LINE UPDATE_LINE [top|own] [MIN]

RUN_LINE: EngineTpcb.run's line calling add for the account; PROBE_LINE, READ_LINE, UPDATE_LINE:
add's lookup, table.getLong and table.setLongs lines. `top`: the sample's top frame and line; `own`:
the first frame of our code (dev.wastecheck), with its caller when it is an AbstractPage helper.
MIN: print rows with at least MIN samples."""
import json, subprocess, sys, collections

def frames(ev):
    st = ev['values']['stackTrace']
    for f in st['frames']:
        m = f['method']
        full = m['type']['name']
        cls = full.split('/')[-1]
        yield cls + '.' + m['name'], f.get('lineNumber', -1), full.startswith('dev/wastecheck')

def main(jfr, run_line, probe_line, read_line, update_line):
    out = subprocess.run(['jfr', 'print', '--json', '--stack-depth', '64', '--events', 'jdk.ExecutionSample', jfr],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(out)['recording']['events']
    top = collections.Counter()
    part = collections.Counter()
    total = in_run = 0
    for ev in events:
        total += 1
        fs = list(frames(ev))
        # the outermost EngineTpcb.add frame and the EngineTpcb.run frame calling it
        idx = [i for i, (n, l, o) in enumerate(fs) if n == 'EngineTpcb.add']
        runs = [i for i, (n, l, o) in enumerate(fs) if n == 'EngineTpcb.run']
        if runs: in_run += 1
        if not idx or not runs: continue
        a = idx[-1]
        if fs[a + 1][:2] != ('EngineTpcb.run', run_line): continue  # not the account's add
        line = fs[a][1]
        if line == probe_line: kind = 'probe'
        elif line == read_line: kind = 'read'
        elif line == update_line: kind = 'T2'
        else: kind = 'add:%d' % line
        part[kind] += 1
        if kind in ('probe', 'read'):
            # top frame (first of the stack) with its line
            owns = [f for f in fs if f[2]]
            own = owns[0][0] + ':' + str(owns[0][1])
            if owns[0][0].startswith('AbstractPage.') and len(owns) > 1:
                own += ' < ' + owns[1][0] + ':' + str(owns[1][1])
            top[(kind, fs[0][0] + ':' + str(fs[0][1]), own)] += 1
    print('samples %d, in EngineTpcb.run %d; account add: %s' % (total, in_run, dict(part)))
    mode = sys.argv[6] if len(sys.argv) > 6 else 'top'
    agg = collections.Counter()
    for (kind, t, own), n in top.items():
        agg[(kind, t if mode == 'top' else own)] += n
    for (kind, name), n in sorted(agg.items(), key=lambda x: (x[0][0], -x[1])):
        if n >= int(sys.argv[7] if len(sys.argv) > 7 else 1): print('%s\t%s\t%d' % (kind, name, n))

if __name__ == '__main__':
    main(sys.argv[1], *map(int, sys.argv[2:6]))
