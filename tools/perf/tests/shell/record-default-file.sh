#!/bin/bash
# record: the default output is a plain file, as perf's, that stock perf and hotspot open
# SPDX-License-Identifier: GPL-2.0-only
#
# One recording with no -o and no kcore option, where no kcore copy is
# made (no readable /proc/kcore; a machine with one gets a directory, as
# before, and this test is skipped there), of a workload with user time
# (loop's leaf()) and kernel time (dd's one-byte reads):
# - perf.data is a regular file; the temporary kcore_dir record and the
#   readers make is gone after each (TMPDIR is the test's);
# - stock perf script counts the samples record said it wrote;
# - the file carries the kallsyms and modules copies: the test itself
#   (lib/kcore-dir-unpack.py, from the format's bytes) unpacks them into
#   dir.data/kcore_dir and writes dir.data/data, the file without that
#   section: the --kcore-less directory form of the same recording.  Stock
#   perf script, report, evlist -v and buildid-list answer the same on the
#   file and on dir.data/data (the section changes nothing for perf 6.1);
#   perf textpoke script, report, annotate and code answer the same on the
#   file and on dir.data, with /proc/kallsyms hidden (a bind mount in a
#   private mount namespace: as on another machine), and name the kernel
#   samples' symbols there;
# - hotspot's parser (Debian's hotspot) reads the file as it reads stock
#   perf record's file of the same workload: its output names leaf, and
#   is at least a quarter of the size of the one for perf's file (the
#   issue measured 16 bytes for the old default directory against 13,814).
#   Skipped, naming hotspot, where hotspot-perfparser is not installed.
#
# - a damaged section (a name with a '/') is a warning, nothing else.
#
# Mutations caught: the reader not unpacking the section (the file's
# kernel samples print [unknown] with /proc/kallsyms hidden), record not
# packing it (kcore-dir-unpack.py finds no feature 255), record writing
# the directory by default (not a regular file), the section disturbing
# stock perf (its outputs differ), the temporary kcore_dir left behind.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch record-default-file
export HOME=$tmp
command -v python3 >/dev/null || skip "python3 is not installed"
[ -r /proc/kcore ] && skip "/proc/kcore is readable: the default output is a directory with a kcore copy here"
unshare -m --propagation private true 2>/dev/null || skip "unshare -m fails here: /proc/kallsyms cannot be hidden"
lib=$(cd "$(dirname "$0")/lib" && pwd)
hotspot=/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser
build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"
wl=(sh -c '"$0" 0.05; dd if=/dev/zero of=/dev/null bs=1 count=10000 2>/dev/null' "$tmp/loop")
mkdir "$tmp/t" && export TMPDIR=$tmp/t
cd "$tmp" || fail "cd $tmp"

# no temporary kcore_dir left in TMPDIR
no_temp() {
	[ -z "$(ls -A "$TMPDIR")" ] || fail "$1: left in TMPDIR: $(ls -A "$TMPDIR")"
}

"$TEXTPOKE" record -c 100000 -- "${wl[@]}" >record.out 2>record.err ||
	fail "perf textpoke record: $(cat record.err)"
[ -f perf.data ] && [ ! -L perf.data ] || fail "perf.data is not a regular file: $(ls -ld perf.data)"
no_temp "record"
echo "ok: the default output perf.data is a regular file"

n=$(sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples).*/\1/p' record.err)
stock_script count perf.data -F ip
[ -n "$n" ] && [ "$(wc -l <count.out)" = "$n" ] ||
	fail "stock perf script shows $(wc -l <count.out) samples, record said '$n'"
echo "ok: stock perf script shows the $n samples record wrote"

python3 "$lib/kcore-dir-unpack.py" perf.data dir.data/kcore_dir dir.data/data
st=$?
[ $st = 3 ] && fail "perf.data carries no kcore_dir (no feature 255)"
[ $st = 0 ] || fail "kcore-dir-unpack.py perf.data: exit $st"
[ -s dir.data/kcore_dir/kallsyms ] && [ -f dir.data/kcore_dir/modules ] ||
	fail "the file's kcore_dir lacks kallsyms or modules: $(ls dir.data/kcore_dir)"
[ "$(wc -l <dir.data/kcore_dir/kallsyms)" -lt "$(wc -l </proc/kallsyms)" ] ||
	fail "the file's kallsyms is not the trimmed copy"
echo "ok: the file carries kcore_dir/{$(ls dir.data/kcore_dir | paste -sd,)}"

for c in script "report --stdio" "evlist -v" buildid-list; do
	# shellcheck disable=SC2086
	perf $c -i perf.data >file.out 2>file.err || fail "stock perf $c on the file: $(head -3 file.err)"
	# shellcheck disable=SC2086
	perf $c -i dir.data/data >dir.out 2>dir.err || fail "stock perf $c on dir.data/data"
	# perf report ends with a random tip
	sed -i '/^# (Tip: /d' file.out dir.out
	cmp -s file.out dir.out && cmp -s file.err dir.err ||
		fail "stock perf $c: the file and the file without its section differ: $(diff file.out dir.out | head -4)"
done
echo "ok: stock perf script, report, evlist -v, buildid-list: the section changes nothing"

# ours on both forms, /proc/kallsyms hidden: what the file carries is all there is
cat >hidden.sh <<'EOS'
mount --bind /dev/null /proc/kallsyms || exit 1
for f in perf.data dir.data; do
	"$TEXTPOKE" script -i $f >$f.script 2>$f.script.err &&
	"$TEXTPOKE" report --stdio -i $f >$f.report 2>$f.report.err &&
	"$TEXTPOKE" annotate --stdio -i $f leaf >$f.annotate 2>$f.annotate.err &&
	"$TEXTPOKE" code -i $f "$1" 32 >$f.code 2>$f.code.err || exit 1
done
EOS
kip=$(perf script -i perf.data -F ip,dso 2>/dev/null | awk '/kernel.kallsyms/ { print $1; exit }')
[ -n "$kip" ] || fail "no kernel sample in the recording (stock perf script)"
unshare -m --propagation private bash hidden.sh "$kip" || fail "our readers with /proc/kallsyms hidden failed"
for c in script report annotate code; do
	cmp -s perf.data.$c dir.data.$c ||
		fail "perf textpoke $c: the file and its directory form differ: $(diff perf.data.$c dir.data.$c | head -4)"
done
nk=$(grep -c "(\[kernel.kallsyms\])$" perf.data.script)
[ "$nk" -gt 0 ] || fail "no kernel sample in our script output"
grep -q "\[unknown\] (\[kernel.kallsyms\])$" perf.data.script &&
	fail "kernel samples without a symbol: $(grep -m1 "\[unknown\] (\[kernel.kallsyms\])" perf.data.script)"
grep -q " leaf" perf.data.annotate || fail "annotate leaf printed no leaf"
no_temp "our readers"
echo "ok: script, report, annotate, code: the file answers as its directory form, $nk kernel samples named from the file's kallsyms"

# a damaged section: an entry named with a '/' (kallsyms -> k/../sym) costs
# that section only, with a warning, and nothing is written outside TMPDIR
python3 - perf.data bad.data <<'EOS' || fail "cannot damage the section"
import sys
raw = bytearray(open(sys.argv[1], "rb").read())
at = raw.rfind(b"kallsyms\0")
assert at > 0
raw[at:at + 8] = b"k/../sym"
open(sys.argv[2], "wb").write(raw)
EOS
"$TEXTPOKE" script -i bad.data >bad.out 2>bad.err || fail "script on a damaged section: exit $?: $(head -3 bad.err)"
grep -q "bad.data: feature TEXTPOKE_KCORE_DIR (255) is malformed, ignored" bad.err ||
	fail "a damaged section: no warning: $(head -3 bad.err)"
[ -e "$TMPDIR/sym" ] || [ -e sym ] && fail "a damaged section: a file was written outside the kcore_dir"
no_temp "a damaged section"
echo "ok: a damaged section: '$(head -1 bad.err)'"

if ! test -x "$hotspot"; then
	skip "hotspot is not installed ($hotspot): the hotspot part was not run; every other part passed"
fi
perf record -q -c 100000 -o stock.data -- "${wl[@]}" >/dev/null 2>stock.err ||
	fail "stock perf record: $(cat stock.err)"
for f in perf.data stock.data; do
	"$hotspot" --input $f --output $f.hs >$f.hs.log 2>&1 || fail "hotspot-perfparser --input $f: $(tail -3 $f.hs.log)"
	grep -qa leaf $f.hs || fail "hotspot-perfparser's output for $f does not name leaf"
done
ours=$(stat -c %s perf.data.hs) theirs=$(stat -c %s stock.data.hs)
[ $((ours * 4)) -ge "$theirs" ] || fail "hotspot-perfparser: $ours bytes for our file, $theirs for perf's"
echo "ok: hotspot-perfparser reads the file: $ours bytes naming leaf ($theirs for stock perf record's)"
exit 0
