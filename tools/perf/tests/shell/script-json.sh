#!/bin/bash
# script: --json lines parse as JSON and hold the figures of the text listing, field by field
# SPDX-License-Identifier: GPL-2.0-only
#
# Stock perf records a shell loop that names itself q"b\c, a control byte
# and invalid UTF-8 (through /proc/self/comm), with user registers, then
# a -g recording.  Our --json output of each (every -F field the samples
# can supply: comm to poked, the abi, uregs, insnlen, insn and disasm
# fields included; callchains; side-band records) is checked by a Python
# script that shares nothing with our code:
#   - every line is one JSON object (json.loads), as many as text lines;
#   - each value equals the one it parses out of our text listing of the
#     same file with the same options (strings compared after Python's
#     own UTF-8 decoding with errors="replace", the bytes as printed);
#   - the odd comm comes out as the string worked out by hand:
#     'q"b\\c\x01' + two U+FFFD (0xff, then the cut sequence e2 82).
#
# Mutation caught: script_json__string() passing bytes below 0x20 through
# unescaped (json.loads fails); loc_members() printing symoff as
# loc->addr (the figures differ from the text).

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
scratch script-json
export HOME=$tmp/home
mkdir -p "$HOME"

cat >"$tmp/odd-comm.sh" <<'EOF'
# the shell renames itself (a builtin's redirection: this process), then spins
printf 'q"b\\c\001\377\342\202' >/proc/self/comm
i=0
while [ $i -lt 100000 ]; do i=$((i + 1)); done
EOF
perf_record "$tmp/regs.data" --user-regs=ip,sp -e cpu-clock -- bash "$tmp/odd-comm.sh"
perf_record "$tmp/g.data" -g -e cpu-clock -- bash "$tmp/odd-comm.sh"

cat >"$tmp/check.py" <<'EOF'
import json, re, sys

mode, text_path, json_path = sys.argv[1:4]
text = open(text_path, 'rb').read()
lines = open(json_path, 'rb').read().split(b'\n')
assert lines[-1] == b'', 'json output does not end with a newline'
objs = []
for n, l in enumerate(lines[:-1]):
    try:
        o = json.loads(l.decode('utf-8'))
    except Exception as e:
        sys.exit('json line %d does not parse (%s): %r' % (n + 1, e, l[:200]))
    if not isinstance(o, dict):
        sys.exit('json line %d is not an object' % (n + 1))
    objs.append(o)

def s(b):
    return b.decode('utf-8', 'replace')

def same(what, a, b, n):
    if a != b:
        sys.exit('record %d: %s: json %r, text %r' % (n + 1, what, a, b))

def sym_dso(o, sym, off, dso, n):
    same('sym', o['sym'], None if sym == b'[unknown]' else s(sym), n)
    if 'symoff' in o:
        same('symoff', o['symoff'], None if off is None else int(off, 16), n)
    same('dso', o['dso'], None if dso == b'[unknown]' else s(dso), n)

odd = 'q"b\\c\x01\ufffd\ufffd'
seen_odd = False
start = rb'(?P<comm>.{16}) +(?P<pid>-?\d+)/(?P<tid>-?\d+) +(?P<misc>[KUHGgME]*) +(?P<secs>\d+)\.(?P<usecs>\d{6}): '
loc = rb'(?P<ip>[0-9a-f]+) (?P<sym>.*?)(?:\+0x(?P<off>[0-9a-f]+))? \((?P<dso>[^()]*)\)'

if mode == 'regs':
    tl = text.split(b'\n')[:-1]
    same('number of records', len(objs), len(tl), 0)
    line = re.compile(start + rb' *(?P<period>\d+) +(?P<event>\S+): +' + loc +
                      rb' abi:(?P<abi>\S+) ABI:(?P<ABI>\d+) (?P<regs>(?: *\w+:0x[0-9a-f]+ )*)'
                      rb' ilen: (?P<ilen>\d+)(?P<rest>.*)$', re.S)
    for n, (t, o) in enumerate(zip(tl, objs)):
        m = line.match(t)
        if not m:
            sys.exit('text line %d not understood: %r' % (n + 1, t))
        same('record', o['record'], 'sample', n)
        same('comm', o['comm'], s(m['comm'].lstrip(b' ')), n)
        seen_odd |= o['comm'] == odd
        same('pid', o['pid'], int(m['pid']), n)
        same('tid', o['tid'], int(m['tid']), n)
        same('misc', o['misc'], s(m['misc']), n)
        same('time (us)', o['time'] // 1000, int(m['secs']) * 1000000 + int(m['usecs']), n)
        same('period', o['period'], int(m['period']), n)
        same('event', o['event'], s(m['event']), n)
        same('ip', int(o['ip'], 16), int(m['ip'], 16), n)
        sym_dso(o, m['sym'], m['off'], m['dso'], n)
        same('abi', o['abi'], s(m['abi']), n)
        regs = {'abi': int(m['ABI'])}
        for name, val in re.findall(rb'(\w+):0x([0-9a-f]+)', m['regs']):
            regs[s(name)] = '0x' + s(val)
        same('uregs', o['uregs'], regs, n)
        ilen = int(m['ilen'])
        same('insnlen', o['insnlen'], ilen, n)
        r = re.match(rb'(?: insn:(?P<insn>(?: [0-9a-f]{2}){%d}))?(?: (?P<dis>.*?))?'
                     rb'(?: \[poked (?P<ps>\d+)\.(?P<pn>\d{9})\])?$' % ilen, m['rest'])
        if not r:
            sys.exit('text line %d: insn part not understood: %r' % (n + 1, m['rest']))
        same('insn', o['insn'], s(r['insn'][1:]) if r['insn'] else None, n)
        same('disasm', o['disasm'], s(r['dis']) if r['dis'] else None, n)
        same('poked', o['poked'],
             int(r['ps']) * 1000000000 + int(r['pn']) if r['ps'] else None, n)
elif mode == 'chain':
    # a sample is its head line, a frame a line, and an empty line
    blocks = text.split(b'\n\n')
    assert blocks[-1] == b'', 'text does not end with an empty line'
    blocks = blocks[:-1]
    same('number of records', len(objs), len(blocks), 0)
    head = re.compile(rb'(?P<comm>.*?) +(?P<tid>-?\d+) +(?P<secs>\d+)\.(?P<usecs>\d{6}): $', re.S)
    frame = re.compile(rb'\t *' + loc + rb'$', re.S)
    frames = 0
    for n, (b, o) in enumerate(zip(blocks, objs)):
        bl = b.split(b'\n')
        m = head.match(bl[0])
        if not m:
            sys.exit('text block %d: head not understood: %r' % (n + 1, bl[0]))
        same('comm', o['comm'], s(m['comm']), n)
        seen_odd |= o['comm'] == odd
        same('tid', o['tid'], int(m['tid']), n)
        same('time (us)', o['time'] // 1000, int(m['secs']) * 1000000 + int(m['usecs']), n)
        same('frames', len(o['callchain']), len(bl) - 1, n)
        for f, t in zip(o['callchain'], bl[1:]):
            fm = frame.match(t)
            if not fm:
                sys.exit('text block %d: frame not understood: %r' % (n + 1, t))
            same('frame ip', int(f['ip'], 16), int(fm['ip'], 16), n)
            sym_dso(f, fm['sym'], fm['off'], fm['dso'], n)
            frames += 1
    if not frames:
        sys.exit('no callchain frames compared')
elif mode == 'side':
    tl = text.split(b'\n')[:-1]
    same('number of records', len(objs), len(tl), 0)
    nside = 0
    for n, (t, o) in enumerate(zip(tl, objs)):
        if o['record'] == 'sample':
            continue
        k = t.find(b'PERF_RECORD_' + o['record'].encode())
        if k < 0:
            sys.exit('record %d: text line %r is no %s' % (n + 1, t, o['record']))
        rest = t[k + len(b'PERF_RECORD_') + len(o['record']):].lstrip(b' ')
        same('text', o['text'], s(rest), n)
        nside += 1
    if not nside:
        sys.exit('no side-band records compared')
if mode != 'side' and not seen_odd:
    sys.exit('no record names the odd comm as %r' % odd)
print('%s: %d records equal to the text listing' % (mode, len(objs)))
EOF

# check MODE NAME FILE SCRIPT-ARGS...: the text and the JSON of one listing, compared
check() {
	local mode=$1 name=$2 file=$3
	shift 3
	"$TEXTPOKE" script -i "$file" "$@" >"$tmp/$name.txt" 2>"$tmp/$name.err" ||
		fail "$name: perf textpoke script $*: $(head -3 "$tmp/$name.err")"
	"$TEXTPOKE" script -i "$file" --json "$@" >"$tmp/$name.json" 2>"$tmp/$name.err" ||
		fail "$name: perf textpoke script --json $*: $(head -3 "$tmp/$name.err")"
	[ -s "$tmp/$name.json" ] || fail "$name: --json printed nothing"
	python3 "$tmp/check.py" "$mode" "$tmp/$name.txt" "$tmp/$name.json" >"$tmp/$name.py" 2>&1 ||
		fail "$name ($*): $(tail -3 "$tmp/$name.py")"
	echo "ok: $name: $(cat "$tmp/$name.py")"
}

check regs regs "$tmp/regs.data" \
	-F comm,pid,tid,misc,time,period,event,ip,sym,symoff,dso,abi,uregs,insnlen,insn,disasm,poked
check chain chain "$tmp/g.data" -F comm,tid,time,ip,sym,dso
check chain chain-symoff "$tmp/g.data" -F comm,tid,time,ip,sym,symoff,dso
# the side-band lines have no fixed columns: the comm is left out, it leads the line
check side side-band "$tmp/regs.data" -F tid,time,event,ip,sym,dso --show-task-events \
	--show-mmap-events
