#!/bin/bash
# inject --jit: jitdump files become the ELF objects stock perf inject --jit makes (Node, a JIT of ours)
# SPDX-License-Identifier: GPL-2.0-only
#
# Two recordings by stock perf record -k mono, each given to stock perf
# inject --jit (P) and to ours (O).  Stock perf (HOME a scratch directory
# each time) must read O as it reads P, each run of it on P made before
# ours rewrites the jitted-*.so files both write in the jitdump's
# directory:
#  - Node (node --perf-prof --interpreted-frames-native-stack on a fib
#    loop; V8 writes JIT_CODE_LOAD and UNWINDING_INFO): report --sort
#    dso,sym, the sample lines of perf script, and annotate of the
#    hottest JS:* symbol (which must exist: fib runs for the whole of
#    the workload) are equal;
#  - lib/jitdump-workload.c, a JIT that writes the records V8 does not
#    (DEBUG_INFO over two files, UNWINDING_INFO, a MOVE, CLOSE): report
#    --sort dso,sym,srcline (the DEBUG_INFO's lines, through addr2line),
#    annotate of the moved function (objdump -l), the sample lines and
#    the jitted MMAP2 lines of perf script, and the objects' .eh_frame,
#    .eh_frame_hdr and decoded line table (readelf), and the files
#    perf buildid-list names are equal; the jitdump's own MMAP is gone
#    from O as from P; and the same recording with the JIT's //anon
#    MMAP moved before the jitdump's in the file (lib/jitdump-reorder.py:
#    later in time, earlier in file order, as two CPUs' buffers write
#    it): perf inject drops it, reading in time order, and so must ours.
# Then, on the small recording, ours alone: from a pipe to a pipe, the
# stream's build-id records name the objects; the jitdump in the other
# byte order gives the same report; a jitdump cut inside its second load
# warns naming the file, offset and JIT_CODE_LOAD, and keeps the first
# load; a DEBUG_INFO claiming 2^60 lines and a wrong magic each warn and
# neither crashes nor allocates (ASan build); with the wrong magic the
# jitdump's MMAP stays.
# Mutations caught: jit_line_program() defining a file only once (the
# mul.js line reported as loop.js:40); jd__mmap2() without the
# unwinding's mapped_size in len (the MMAP2 lines differ);
# inject_jitdump__add_build_ids() adding nothing (buildid-list differs);
# inject reading --jit's records in file order (the reordered recording's
# //anon MMAP stays: the Node recording of one CI run had such a pair).  Stock perf
# runs under timeout: perf 6.1 waits for ever on addr2line when a line
# table is bad enough (rows starting at 0 instead of 0x80 do that).

. "$(dirname "$0")/lib/common.sh"
need_perf_root
command -v objdump >/dev/null 2>&1 || skip "objdump (binutils) is not installed"
command -v readelf >/dev/null 2>&1 || skip "readelf (binutils) is not installed"
scratch inject-jitdump

gcc -O1 -Wall -o "$tmp/jit" "$(dirname "$0")/lib/jitdump-workload.c" 2>"$tmp/gcc.err" ||
	fail "gcc: $(cat "$tmp/gcc.err")"

# stock NAME ARGS...: stock perf with a fresh HOME, stdout in $tmp/NAME
n=0
stock() {
	local name=$1
	shift
	n=$((n + 1))
	mkdir -p "$tmp/home$n"
	# perf 6.1 waits for ever on an addr2line that reads a bad line table
	HOME=$tmp/home$n timeout 120 perf "$@" >"$tmp/$name" 2>"$tmp/$name.err" ||
		fail "stock perf $*: $(head -3 "$tmp/$name.err")"
	# perf report's tip of the day changes from run to run
	sed -i '/^# (Tip:/d' "$tmp/$name"
}

# same WHAT A B: the two outputs must be equal
same() {
	cmp -s "$2" "$3" || fail "$1 differs on ours (<: perf inject's, >: ours): $(diff "$2" "$3" | head -8)"
}

# inject_stock DIR: DIR/P by stock perf inject --jit, from DIR/F
inject_stock() {
	stock inject.out inject --jit -i "$1/F" -o "$1/P"
}
# inject_ours DIR [OUT]: ours, from DIR/F to DIR/OUT (O)
inject_ours() {
	"$TEXTPOKE" inject --jit -i "$1/F" -o "$1/${2:-O}" >"$tmp/ours.out" 2>"$tmp/ours.err" ||
		fail "inject --jit: $(head -3 "$tmp/ours.err")"
}

# script SUFFIX DIR FILE: perf script's sample lines and MMAP lines
script() {
	stock "script.$1" script -i "$2/$3" --show-mmap-events
}

# --- Node ---
if command -v node >/dev/null 2>&1; then
	mkdir -p "$tmp/node"
	cat >"$tmp/node/hot.js" <<'EOF'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
let s = 0;
for (let i = 0; i < 10; i++) s += fib(25);
console.log(s);
EOF
	(cd "$tmp/node" && perf record -q -k mono -F 4000 -o F node --perf-prof \
		--interpreted-frames-native-stack hot.js >/dev/null 2>"$tmp/node.err") ||
		fail "stock perf record of node: $(head -3 "$tmp/node.err")"
	ls "$tmp"/node/jit-*.dump >/dev/null 2>&1 || fail "node --perf-prof wrote no jitdump"
	inject_stock "$tmp/node"
	stock node-rep.P report -i "$tmp/node/P" --stdio --sort dso,sym
	sym=$(sed -n 's/^ *[0-9.]*%  *jitted-[0-9-]*\.so  *\[\.\] \(JS:\*.*[^ ]\) *$/\1/p' \
		"$tmp/node-rep.P" | head -1)
	[ -n "$sym" ] || fail "node: no optimized JS symbol in stock perf's report of perf inject's output"
	stock node-ann.P annotate -i "$tmp/node/P" --stdio -s "$sym"
	script node.P "$tmp/node" P
	inject_ours "$tmp/node"
	stock node-rep.O report -i "$tmp/node/O" --stdio --sort dso,sym
	stock node-ann.O annotate -i "$tmp/node/O" --stdio -s "$sym"
	script node.O "$tmp/node" O
	same "node: perf report --sort dso,sym" "$tmp/node-rep.P" "$tmp/node-rep.O"
	same "node: perf annotate $sym" "$tmp/node-ann.P" "$tmp/node-ann.O"
	same "node: perf script --show-mmap-events" "$tmp/script.node.P" "$tmp/script.node.O"
	grep -q "JS:" "$tmp/node-ann.O" || fail "node: annotate of $sym shows nothing"
else
	echo "node is not installed: the Node half is skipped"
fi

# --- a JIT of our own ---
d=$tmp/own
mkdir -p "$d"
perf record -q -k mono -F 4000 -o "$d/F" "$tmp/jit" "$d" 0.1 >/dev/null 2>"$tmp/own.err" ||
	fail "stock perf record of the JIT: $(head -3 "$tmp/own.err")"
dump=$(ls "$d"/jit-*.dump)
inject_stock "$d"
stock own-rep.P report -i "$d/P" --stdio --sort dso,sym,srcline
stock own-ann.P annotate -i "$d/P" --stdio -s jit_loop_a
script own.P "$d" P
stock own-bid.P buildid-list -i "$d/P"
mkdir "$d/stock"
cp "$d"/jitted-*.so "$d/stock/"
inject_ours "$d"
stock own-rep.O report -i "$d/O" --stdio --sort dso,sym,srcline
stock own-ann.O annotate -i "$d/O" --stdio -s jit_loop_a
script own.O "$d" O
stock own-bid.O buildid-list -i "$d/O"
same "own JIT: perf report --sort dso,sym,srcline" "$tmp/own-rep.P" "$tmp/own-rep.O"
same "own JIT: perf annotate jit_loop_a" "$tmp/own-ann.P" "$tmp/own-ann.O"
same "own JIT: perf script --show-mmap-events" "$tmp/script.own.P" "$tmp/script.own.O"
grep "PERF_RECORD_MMAP" "$tmp/script.own.O" >"$tmp/mm.O"
# the build-id table names the same files (perf's ids are random, ours hashes)
awk '{ print $2 }' "$tmp/own-bid.P" | sort >"$tmp/bid.P"
awk '{ print $2 }' "$tmp/own-bid.O" | sort >"$tmp/bid.O"
same "own JIT: perf buildid-list's files" "$tmp/bid.P" "$tmp/bid.O"
[ "$(grep -c 'jitted-.*-1\.so$' "$tmp/mm.O")" = 2 ] ||
	fail "own JIT: the load and the move of code index 1 are not both mapped"
grep -q "jit-.*\.dump" "$tmp/mm.O" && fail "own JIT: the jitdump's MMAP is still in ours"
for w in loop.js:1 mul.js:40 jit_loop_b; do
	grep -q "$w" "$tmp/own-rep.O" || fail "own JIT: no '$w' in the report: $(head -20 "$tmp/own-rep.O")"
done
for f in "$d"/stock/jitted-*.so; do
	o=$d/$(basename "$f")
	readelf -W -x .eh_frame -x .eh_frame_hdr --debug-dump=decodedline "$f" 2>&1 |
		sed "s|$f||" >"$tmp/x.P"
	readelf -W -x .eh_frame -x .eh_frame_hdr --debug-dump=decodedline "$o" 2>&1 |
		sed "s|$o||" >"$tmp/x.O"
	same "own JIT: $(basename "$f") .eh_frame, .eh_frame_hdr, line table" "$tmp/x.P" "$tmp/x.O"
	cp "$o" "$d/stock/$(basename "$o").ours"
done

# the JIT's //anon code pages mapped after the jitdump in time but before
# it in the file (two CPUs' buffers): perf inject --jit reads in time order
# and drops them, so must ours
r=$tmp/own-r
mkdir "$r"
python3 "$(dirname "$0")/lib/jitdump-reorder.py" "$d/F" "$r/F" >/dev/null || fail "own JIT: cannot reorder $d/F"
inject_stock "$r"
script own-r.P "$r" P
inject_ours "$r"
script own-r.O "$r" O
grep -q "//anon" "$tmp/script.own-r.P" &&
	fail "own JIT reordered: stock perf inject kept the //anon mapping after the jitdump's"
same "own JIT, //anon before the jitdump in the file: perf script --show-mmap-events" \
	"$tmp/script.own-r.P" "$tmp/script.own-r.O"

# a stream in and out: the attrs (and so -k mono) are known only from the
# stream, the objects' build-ids follow the last record
"$TEXTPOKE" inject --jit --jit-dir "$d/jd" -i - -o - <"$d/F" 2>"$tmp/pipe.err" >"$d/pipe.data" ||
	fail "inject --jit from and to a pipe: $(head -3 "$tmp/pipe.err")"
stock pipe-bid buildid-list -i - <"$d/pipe.data"
awk '{ print $2 }' "$tmp/pipe-bid" | grep jitted | sort >"$tmp/bid.pipe"
grep jitted "$tmp/bid.P" >"$tmp/bid.P.jitted"
same "own JIT, a stream: perf buildid-list's objects" "$tmp/bid.P.jitted" "$tmp/bid.pipe"

# --- the other byte order, and damage: ours alone ---
cp "$dump" "$d/dump.le"
"$tmp/jit" --swap "$dump" || fail "cannot swap $dump"
inject_ours "$d" O.swap
# the same objects, the same records
for f in "$d"/stock/jitted-*.so; do
	cmp -s "$f.ours" "$d/$(basename "$f")" ||
		fail "a big-endian jitdump: $(basename "$f") differs from the little-endian one's"
done
cmp -s "$d/O/data" "$d/O.swap/data" ||
	fail "a big-endian jitdump: the output differs from the little-endian one's"

# cut inside the second load (the last records: load 2 and CLOSE)
size=$(stat -c %s "$d/dump.le")
head -c $((size - 16 - 10)) "$d/dump.le" >"$dump"
inject_ours "$d" O.cut
grep -q "$dump: JIT_CODE_LOAD record at offset 0x[0-9a-f]*: .*past the end" "$tmp/ours.err" ||
	fail "a cut jitdump: no warning naming it, the offset and the record: $(cat "$tmp/ours.err")"
stock cut.rep report -i "$d/O.cut" --stdio --sort sym
grep -q jit_loop_a "$tmp/cut.rep" || fail "a cut jitdump: the load before the cut is lost"

# a DEBUG_INFO (the first record, at 40) claiming 2^60 lines
cp "$d/dump.le" "$dump"
printf '\x00\x00\x00\x00\x00\x00\x00\x10' | dd of="$dump" bs=1 seek=$((40 + 24)) conv=notrunc 2>/dev/null
inject_ours "$d" O.debug
grep -q "$dump: JIT_CODE_DEBUG_INFO at offset 0x28: 1152921504606846976 lines do not fit" \
	"$tmp/ours.err" || fail "a hostile DEBUG_INFO: no warning: $(cat "$tmp/ours.err")"

# a wrong magic: warned, and the jitdump's MMAP kept
printf 'XXXX' | dd of="$dump" bs=1 conv=notrunc 2>/dev/null
inject_ours "$d" O.magic
grep -q "$dump: offset 0: magic" "$tmp/ours.err" ||
	fail "a wrong magic: no warning: $(cat "$tmp/ours.err")"
stock bad.mmap script -i "$d/O.magic" --show-mmap-events
grep -q "PERF_RECORD_MMAP.*jit-.*\.dump" "$tmp/bad.mmap" ||
	fail "a jitdump that cannot be read: its MMAP is not kept"
exit 0
