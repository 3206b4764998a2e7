#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""annotate-itrace.sh's oracle: perf textpoke annotate --itrace against
the PT fixture's truth (truth.txt, branches.txt: what the generator ran)
and against stock perf annotate --stdio -n on the same fixture.

  annotate-itrace-check.py truth TRUTH BRANCHES OURS_N_RAW OURS_PERCENT
      OURS_N_RAW: --itrace=i1ib -n --asm-raw; OURS_PERCENT: --itrace=i1i
  annotate-itrace-check.py json TRUTH BRANCHES OURS_JSON [OURS_HTML]
      OURS_JSON: --itrace=i1ib --json, read with the json module: the
      same executions, taken counts and codes per address as the fixture;
      OURS_HTML, the same run's --html: a trace block per JSON block, each
      row the JSON's address, samples, taken count and code k of n
  annotate-itrace-check.py stock OURS_N STOCK_N
      both -n with one --itrace: stock's count at every address it
      prints equals the sum of ours over the codes run there

Prints what it checked; exits 1 with the first difference."""
import collections
import json
import re
import sys
from html.parser import HTMLParser

OUR_HEAD = re.compile(r'^ (Count|Samples|Percent)\s*\|\tSource code & Disassembly of (.+) '
                      r'for (\S+) \((\d+) (instructions executed|taken branches|samples)'
                      r'(?:, percent: ([a-z ]+))?\)$')
SYM = re.compile(r'^\s+:\s+([0-9a-f]{16}) <(.+)>:$')
OUR_RAW = re.compile(r'^\s*(\d+) :\s+([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(.*)$')
OUR_LINE = re.compile(r'^\s*([\d.]+) :\s+([0-9a-f]+):\s+(.*)$')
STOCK_HEAD = re.compile(r'^\s*(Samples|Percent)\s*\|\s*Source code & Disassembly of (\S+) '
                        r'for (\S+) \((\d+) samples')
STOCK_SYM = re.compile(r'^\s+:\s+\d+\s+([0-9a-f]+) <(.+)>:$')
STOCK_LINE = re.compile(r'^\s*(\d+) :\s+([0-9a-f]+):')


def die(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def blocks(path, head, sym, line):
    """[(header match, start address, [(line match, text)])]"""
    out = []
    with open(path) as f:
        for text in f:
            text = text.rstrip('\n')
            m = head.match(text)
            if m:
                out.append([m, None, []])
                continue
            if not out:
                continue
            m = sym.match(text)
            if m and out[-1][1] is None:
                out[-1][1] = int(m.group(1), 16)
                continue
            m = line.match(text)
            if m:
                out[-1][2].append((m, text))
    if not out:
        die(f'{path}: no block')
    return out


def read_truth(truth, branches):
    """per CPU the executed (ip, bytes) in order; per CPU the taken (from, to)"""
    runs = collections.defaultdict(list)
    with open(truth) as f:
        for text in f:
            cpu, _, ip, _, raw = text.split()
            runs[cpu].append((int(ip, 16), raw))
    taken = collections.defaultdict(list)
    with open(branches) as f:
        for text in f:
            cpu, _, frm, to = text.split()
            if int(frm, 16):
                taken[cpu].append((int(frm, 16), int(to, 16)))
    return runs, taken


def fixture_counts(truth, branches):
    """executions and times taken per (ip, hex bytes); the codes run per ip"""
    runs, taken = read_truth(truth, branches)
    execs = collections.Counter()
    codes = collections.defaultdict(set)
    for run in runs.values():
        for ip, raw in run:
            execs[(ip, raw)] += 1
            codes[ip].add(raw)
    # each taken branch is the instruction the CPU ran at its source just then
    took = collections.Counter()
    for cpu, run in runs.items():
        todo = taken[cpu]
        k = 0
        for i, (ip, raw) in enumerate(run):
            if k < len(todo) and ip == todo[k][0] and \
               (i + 1 == len(run) or run[i + 1][0] == todo[k][1]):
                took[(ip, raw)] += 1
                k += 1
        if k != len(todo):
            die(f'{branches}: CPU {cpu}: taken branch {k} ({todo[k][0]:#x}) not in {truth}')
    return execs, took, codes


def check_truth(truth, branches, ours_raw, ours_pct):
    execs, took, codes = fixture_counts(truth, branches)
    changed = [ip for ip, c in codes.items() if len(c) > 1]
    if not changed:
        die(f'{truth}: no address ran two codes: the fixture has no change mid-trace')

    got_execs, got_took, got_branches = collections.Counter(), collections.Counter(), \
        collections.Counter()
    total = 0
    poked = set()
    for m, start, lines in blocks(ours_raw, OUR_HEAD, SYM, OUR_RAW):
        what, event, n = m.group(1), m.group(3), int(m.group(4))
        if what != 'Count':
            die(f'{ours_raw}: -n with i1: the column is {what}, not Count')
        want = {'instructions': 'instructions executed', 'branches': 'taken branches'}
        if want.get(event) != m.group(5):
            die(f'{ours_raw}: the {event} block at {start:#x} says "{m.group(5)}"')
        if n != sum(int(lm.group(1)) for lm, _ in lines):
            die(f'{ours_raw}: the {event} block at {start:#x}: {n} in the header, '
                f'its lines add up to another')
        seen = set()
        for lm, text in lines:
            key = (int(lm.group(2), 16), lm.group(3).replace(' ', ''))
            target = got_execs if event == 'instructions' else got_branches
            if key in seen:
                die(f'{ours_raw}: {key[0]:#x} {key[1]} twice in the {event} block at {start:#x}')
            seen.add(key)
            # BPF programs A and B share bytes at one address: the fixture's are summed
            target[key] += int(lm.group(1))
            t = re.search(r'# taken (\d+)', lm.group(4))
            if event == 'instructions' and t:
                got_took[key] += int(t.group(1))
            # codes run at one address of one symbol (a poked site) say so
            same = sum(1 for om, _ in lines if om.group(2) == lm.group(2))
            c = re.search(r'code (\d+) of (\d+) run here', lm.group(4))
            if event == 'instructions' and (int(c.group(2)) if c else 1) != same:
                die(f'{ours_raw}: {key[0]:#x} ran {same} codes in its symbol: {text}')
            if c and same > 1:
                poked.add(key[0])
        if event == 'instructions':
            total += n
    if total != sum(execs.values()):
        die(f'{ours_raw}: {total} instructions executed in the headers, '
            f'the fixture ran {sum(execs.values())}')
    for name, got, want in (('executions', got_execs, execs), ('branch samples', got_branches,
                                                              took)):
        for key in sorted(set(got) | set(want)):
            if got[key] != want[key]:
                die(f'{ours_raw}: {key[0]:#x} {key[1]}: {got[key]} {name}, the fixture: '
                    f'{want[key]}')
    # a "taken" on every branch the trace took, 0 on the jumps it never took
    for key in sorted(set(got_took) | set(took)):
        if (got_took[key] if key in got_took else -1) != took[key] and \
           not (key not in got_took and not took[key]):
            die(f'{ours_raw}: {key[0]:#x} {key[1]}: taken {got_took.get(key, "not said")}, '
                f'the fixture took it {took[key]} times')
    if not poked:
        die(f'{ours_raw}: no line says its address ran two codes')
    print(f'{len(execs)} (address, code) pairs, {sum(execs.values())} executions, '
          f'{sum(took.values())} taken branches as the fixture ran them; '
          f'{len(changed)} addresses ran two codes, {len(poked)} of them in one symbol')

    # the percentages of i1i are of the executions
    n_lines = [(b[1], [int(lm.group(1)) for lm, _ in b[2]])
               for b in blocks(ours_raw, OUR_HEAD, SYM, OUR_RAW) if b[0].group(3) == 'instructions']
    p_blocks = blocks(ours_pct, OUR_HEAD, SYM, OUR_LINE)
    if len(p_blocks) != len(n_lines):
        die(f'{ours_pct}: {len(p_blocks)} blocks, -n printed {len(n_lines)}')
    for (m, start, lines), (start_n, counts) in zip(p_blocks, n_lines):
        if m.group(5) != 'instructions executed' or m.group(6) != 'local period':
            die(f'{ours_pct}: header "{m.group(0)}"')
        n = int(m.group(4))
        if start != start_n or len(lines) != len(counts):
            die(f'{ours_pct}: the block at {start:#x} is not -n\'s')
        for (lm, text), c in zip(lines, counts):
            if abs(float(lm.group(1)) - 100.0 * c / n) > 0.0051:
                die(f'{ours_pct}: {text}: {c} of {n} executions')
    print(f'percentages: {sum(len(c) for _, c in n_lines)} lines, each its executions\' share')


class TracePage(HTMLParser):
    """the rows of each <details class="sym trace">"""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get('class') or '').split()
        if tag == 'details' and 'sym' in cls:
            self.blocks.append(('trace' in cls, a.get('data-start'), []))
        elif tag == 'tr' and 'insn' in cls and self.blocks:
            self.blocks[-1][2].append([a.get('data-addr'), int(a.get('data-samples'))])
        elif tag == 'td' and 'data-taken' in a and self.blocks and self.blocks[-1][2]:
            self.blocks[-1][2][-1] += [int(a['data-taken']), int(a['data-code']),
                                       int(a['data-codes'])]


def check_html(page_path, d):
    page = TracePage()
    with open(page_path, encoding='utf-8') as f:
        page.feed(f.read())
    want = [b for ev in d['events'] for b in ev['symbols']]
    if len(page.blocks) != len(want):
        die(f'{page_path}: {len(page.blocks)} blocks, the JSON has {len(want)}')
    nr = 0
    for (trace, start, rows), b in zip(page.blocks, want):
        if trace != (b['trace'] is not None) or start != b['start']:
            die(f'{page_path}: block at {start} (trace {trace}) is not the JSON\'s {b["start"]}')
        if not trace:
            continue
        exp = [[x['address'], x['samples'],
                -1 if x['taken'] is None else x['taken'], x['code'], x['codes']]
               for x in b['instructions']]
        if rows != exp:
            i = next((i for i, (r, e) in enumerate(zip(rows, exp)) if r != e),
                     min(len(rows), len(exp)))
            die(f'{page_path}: block at {start}, row {i}: '
                f'{rows[i] if i < len(rows) else None}, the JSON '
                f'{exp[i] if i < len(exp) else None} (address, samples, taken, code, codes)')
        nr += len(rows)
    return nr


def check_json(truth, branches, doc, page=None):
    execs, took, _ = fixture_counts(truth, branches)
    with open(doc) as f:
        d = json.load(f)
    got = {'instructions': collections.Counter(), 'branches': collections.Counter()}
    got_took = collections.Counter()
    nr_blocks = nr_two = 0
    for ev in d['events']:
        for b in ev['symbols']:
            t = b['trace']
            if t is None:
                continue
            nr_blocks += 1
            where = f'{doc}: {t["counts"]} block {b["symbol"]} at {b["start"]}'
            insns = b['instructions']
            if not t['exact'] and t['counts'] == 'instructions':
                die(f'{where}: i1 not said exact')
            if t['count'] != sum(x['period' if t['exact'] else 'samples'] for x in insns) or \
               b['period'] != sum(x['period'] for x in insns):
                die(f'{where}: count {t["count"]}, its instructions add up to another')
            per_addr = collections.Counter(x['address'] for x in insns)
            for x in insns:
                key = (int(x['address'], 16), (x['bytes'] or '').replace(' ', ''))
                got[t['counts']][key] += x['period'] if t['exact'] else x['samples']
                if x['taken'] is not None:
                    got_took[key] += x['taken']
                if x['codes'] != per_addr[x['address']] or not 1 <= x['code'] <= x['codes']:
                    die(f'{where}: {x} is not one of {per_addr[x["address"]]} codes')
                nr_two += x['codes'] > 1
                if abs(x['percent'] - 100.0 * x['period'] / b['period']) > 1e-5:
                    die(f'{where}: {x}: not its share of {b["period"]}')
    for name, g, want in (('executions', got['instructions'], execs),
                          ('branch samples', got['branches'], took)):
        for key in sorted(set(g) | set(want)):
            if g[key] != want[key]:
                die(f'{doc}: {key[0]:#x} {key[1]}: {g[key]} {name}, the fixture: {want[key]}')
    for key in sorted(set(got_took) | set(took)):
        if got_took.get(key, 0) != took[key] or (took[key] and key not in got_took):
            die(f'{doc}: {key[0]:#x} {key[1]}: taken {got_took.get(key, "null")}, '
                f'the fixture took it {took[key]} times')
    if not nr_two:
        die(f'{doc}: no instruction is one of several codes run at its address')
    html_rows = check_html(page, d) if page else None
    print(f'--json: {nr_blocks} trace blocks, {sum(execs.values())} executions and '
          f'{sum(took.values())} taken branches as the fixture ran them, '
          f'{nr_two} lines one of several codes' +
          (f'; --html: {html_rows} trace rows as the JSON\'s' if page else ''))


def check_stock(ours, stock):
    mine = collections.defaultdict(list)
    for m, start, lines in blocks(ours, OUR_HEAD, SYM, OUR_LINE):
        if m.group(3) != 'instructions':
            continue
        per_addr = collections.Counter()
        for lm, _ in lines:
            per_addr[int(lm.group(2), 16)] += int(lm.group(1))
        mine[start].append((int(m.group(4)), per_addr))
    nr = lines_nr = 0
    for m, start, lines in blocks(stock, STOCK_HEAD, STOCK_SYM, STOCK_LINE):
        if m.group(3) != 'instructions':
            continue
        if len(mine.get(start, [])) != 1:
            die(f'{ours}: {len(mine.get(start, []))} blocks at {start:#x}, stock perf has one')
        n, per_addr = mine[start][0]
        if n != int(m.group(4)):
            die(f'{ours}: {n} at {start:#x}, stock perf: {m.group(4)}')
        for lm, text in lines:
            addr = int(lm.group(2), 16)
            if per_addr[addr] != int(lm.group(1)):
                die(f'{ours}: {per_addr[addr]} at {addr:#x}, stock perf: {text.strip()}')
            lines_nr += 1
        if sum(per_addr.values()) != sum(int(lm.group(1)) for lm, _ in lines):
            die(f'{ours}: the block at {start:#x} has counts where stock perf has none')
        nr += 1
    if not nr:
        die(f'{stock}: no instructions block')
    print(f'{nr} blocks, {lines_nr} addresses as stock perf counts them')


if __name__ == '__main__':
    if sys.argv[1:2] == ['truth'] and len(sys.argv) == 6:
        check_truth(*sys.argv[2:])
    elif sys.argv[1:2] == ['json'] and len(sys.argv) in (5, 6):
        check_json(*sys.argv[2:])
    elif sys.argv[1:2] == ['stock'] and len(sys.argv) == 4:
        check_stock(*sys.argv[2:])
    else:
        die('usage: see the comment at the top')
