#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# hier-json-check.py OURS.json PERF.txt: the "hierarchy" rows of ours
# --json --hierarchy (first event) must be the rows stock perf report
# --stdio --hierarchy -n --show-total-period prints, in its order: the
# level (from the indent), samples, period, the overhead (the text's two
# decimals), the key's value as the text prints it, the "no entry" line
# under a row, and, where the text prints a tree under a row, a
# "callchain" in the JSON row; with a third argument "strict" (no filter:
# every level above a row printed), each row's parent is the row of the
# level above.  Prints a summary, exits 1 on a difference.
import json
import re
import sys

ROW = re.compile(r'^( *)(\d+\.\d\d)%\s+(\d+)\s+(\d+)\s+(.*?)\s*$')
# the first value column ends 2 + 8 blanks right of the indent
BASE = 10


def text_rows(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#'):
                continue
            m = ROW.match(line)
            if m:
                end = len(m.group(1)) + len(m.group(2)) + 1
                depth, rem = divmod(end - BASE, 3)
                if rem or depth < 0:
                    sys.exit('bad indent: %r' % line)
                rows.append({'depth': depth, 'overhead': m.group(2),
                             'nr_samples': int(m.group(3)), 'period': int(m.group(4)),
                             'value': m.group(5), 'no_entry': False, 'tree': False})
            elif re.match(r'^ +no entry >= ', line):
                rows[-1]['no_entry'] = True
            elif re.match(r'^ {12}[|-]', line) and rows:
                rows[-1]['tree'] = True
    return rows


def value(r):
    k = r['key']
    if k == 'comm':
        return r['comm']
    if k == 'dso':
        return r['dso'] if r['dso'] is not None else '[unknown]'
    if k == 'pid':
        return '%d:%s' % (r['tid'], r['thread_comm'])
    if k == 'sym':
        lvl = 'k' if r['level'] == 'kernel' else '.'
        if r['sym'] is None:
            return '[%s] 0x%016x' % (lvl, int(r['ip'], 16))
        return '[%s] %s%s' % (lvl, r['sym'], ' (inlined)' if r['inlined'] else '')
    sys.exit('key %s: not checked here' % k)


def main():
    doc = json.load(open(sys.argv[1]))
    ours = doc['profile'][0]['hierarchy']
    want = text_rows(sys.argv[2])
    strict = len(sys.argv) > 3 and sys.argv[3] == 'strict'
    if len(ours) != len(want):
        sys.exit('%d rows in the JSON, %d in the text' % (len(ours), len(want)))
    stack = []
    trees = 0
    for i, (o, w) in enumerate(zip(ours, want)):
        where = 'row %d (%s)' % (i, w['value'])
        if o['depth'] != w['depth']:
            sys.exit('%s: depth %d, the text %d' % (where, o['depth'], w['depth']))
        if (o['nr_samples'], o['period']) != (w['nr_samples'], w['period']):
            sys.exit('%s: samples/period %d/%d, the text %d/%d' % (
                where, o['nr_samples'], o['period'], w['nr_samples'], w['period']))
        # the text rounds to two decimals, the JSON to six
        if abs(o['overhead'] - float(w['overhead'])) > 0.005 + 1e-6:
            sys.exit('%s: overhead %f, the text %s' % (where, o['overhead'], w['overhead']))
        if value(o) != w['value']:
            sys.exit('%s: value %r' % (where, value(o)))
        if o['no_entry'] != w['no_entry']:
            sys.exit('%s: no_entry %s' % (where, o['no_entry']))
        # a tree below the threshold is an empty callchain, and no text
        if bool(o.get('callchain')) != w['tree']:
            sys.exit('%s: callchain in the JSON %s, tree in the text %s' % (
                where, bool(o.get('callchain')), w['tree']))
        trees += w['tree']
        # the parent: the row above it printed at a lower level, when the text's
        # indent says so (the rows the text prints under nothing have -1 or an
        # ancestor printed further up)
        while stack and ours[stack[-1]]['depth'] >= o['depth']:
            stack.pop()
        if o['parent'] != -1 and (o['parent'] not in stack or
                                  ours[o['parent']]['depth'] >= o['depth']):
            sys.exit('%s: parent %d is no row above it' % (where, o['parent']))
        # without filters every level above a row is printed: its parent is the row above
        if strict and o['depth'] and o['parent'] != stack[-1]:
            sys.exit('%s: parent %d, the row above it is %d' % (where, o['parent'], stack[-1]))
        stack.append(i)
    print('%d rows, %d trees, as the text' % (len(ours), trees))


main()
