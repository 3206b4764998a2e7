#!/bin/bash
# record: option errors, -F max, the -z final line, :u and kptr_restrict warnings as perf's
# SPDX-License-Identifier: GPL-2.0-only
#
# - a bad value is one line that names the option as typed, the value and
#   what is allowed; nothing is written;
# - -m rounds up as perf does, with the same note;
# - -F max samples at /proc/sys/kernel/perf_event_max_sample_rate, the
#   attr stock perf reads says so;
# - -z: the final line has perf 6.1's shape ("Captured and wrote <MB>
#   <file>, compressed (original <MB> MB, ratio is <r>)"), the size being
#   the compressed one: smaller than the original, their quotient the ratio;
# - as nobody, -e cpu-clock:u needs no kernel access: no warning at all;
# - as nobody with CAP_PERFMON (kernel events allowed, kernel addresses
#   hidden: /proc/kallsyms reads as zeros), stock perf warns that the
#   kernel address maps are restricted: we warn in one line and store no
#   kallsyms of zeros.

. "$(dirname "$0")/lib/record-common.sh"
need_perf_root
scratch recmsg
export HOME=$tmp

# bad values: "ARGS|the option as typed|the value"
while IFS='|' read -r args opt val; do
	# shellcheck disable=SC2086
	"$TEXTPOKE" record -o "$tmp/bad.data" $args -- true >/dev/null 2>"$tmp/bad.err" &&
		fail "record $args succeeded"
	[ "$(wc -l <"$tmp/bad.err")" = 1 ] || fail "record $args: not one line: $(cat "$tmp/bad.err")"
	line=$(cat "$tmp/bad.err")
	case $line in
	*"'$val'"*"$opt:"*expected* | *"'$val'"*"$opt:"*must*) ;;
	*) fail "record $args: '$line' does not name $opt, '$val' and what is allowed" ;;
	esac
	ls "$tmp" | grep -q bad.data && fail "record $args left output behind"
	echo "ok: record $args: $line"
done <<'EOF'
-F 0|-F|0
--freq=0|--freq|0
-F maximum|-F|maximum
-c 0|-c|0
--count=-5|--count|-5
-m 1073741824|-m|1073741824
--mmap-pages=16Q|--mmap-pages|16Q
--call-graph dwarf,999999999|--call-graph|dwarf,999999999
--call-graph fp,x|--call-graph|fp,x
-D -2|-D|-2
--switch-output=10Q|--switch-output|10Q
-z30|-z|30
--user-regs=ax,nope|--user-regs|ax,nope
-p 12x|-p|12x
EOF

# -F max
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
record "$tmp/max.data" --no-kcore -F max -e cpu-clock -- true
perf evlist -v -i "$tmp/max.data" 2>/dev/null | grep "^cpu-clock" >"$tmp/max.evlist"
grep -q "sample_freq }: $max\b" "$tmp/max.evlist" ||
	fail "-F max: not sampling at $max Hz: $(cat "$tmp/max.evlist")"
grep -q "maximum frequency rate of $max Hz" "$tmp/record.err" ||
	fail "-F max: no note of the rate: $(cat "$tmp/record.err")"
echo "ok: -F max samples at perf_event_max_sample_rate, $max Hz"

# -m rounds up to a power of two pages with perf's note; units as perf takes them
for m in 3 12K 16M; do
	perf record -m "$m" -e cpu-clock -o "$tmp/pm.data" -- true >/dev/null 2>"$tmp/pm.err" ||
		fail "stock perf record -m $m: $(head -3 "$tmp/pm.err")"
	record "$tmp/m.data" --no-kcore -m "$m" -e cpu-clock -- true
	grep "rounding" "$tmp/pm.err" >"$tmp/pm.note"
	grep "rounding" "$tmp/record.err" >"$tmp/m.note"
	cmp -s "$tmp/pm.note" "$tmp/m.note" ||
		fail "-m $m: our note '$(cat "$tmp/m.note")' is not perf's '$(cat "$tmp/pm.note")'"
	note=$(cat "$tmp/m.note")
	echo "ok: -m $m, as perf: ${note:-no note, a power of two pages already}"
done

# -z: the final line as perf 6.1 prints it
build "$tmp/loop" loop.c || fail "gcc: $(cat "$tmp/gcc.err")"
perf record -z -e cpu-clock -o "$tmp/pz.data" -- "$tmp/loop" 0.3 >/dev/null 2>"$tmp/pz.err" ||
	fail "stock perf record -z: $(head -3 "$tmp/pz.err")"
record "$tmp/z.data" --no-kcore -z -e cpu-clock -- "$tmp/loop" 0.3
# shape: numbers, paths, the command name and the sample count (which perf
# omits with -z) set aside
shape() {
	grep "Captured and wrote" "$1" | sed -e 's/perf textpoke record/perf record/' \
		-e "s|$tmp/[a-z]*\.data|FILE|" -e 's/ ([0-9]* samples)//' -e 's/[0-9][0-9.]*/N/g'
}
[ -n "$(shape "$tmp/pz.err")" ] || fail "stock perf record -z printed no final line: $(cat "$tmp/pz.err")"
[ "$(shape "$tmp/record.err")" = "$(shape "$tmp/pz.err")" ] ||
	fail "-z: '$(shape "$tmp/record.err")' is not perf's '$(shape "$tmp/pz.err")'"
read -r wrote orig ratio < <(sed -n \
	's/.*Captured and wrote \([0-9.]*\) MB .*(original \([0-9.]*\) MB, ratio is \([0-9.]*\)) ]$/\1 \2 \3/p' \
	"$tmp/record.err")
# the sizes are printed to 0.001 MB: the ratio within what that rounding allows
awk -v w="$wrote" -v o="$orig" -v r="$ratio" 'BEGIN {
	exit !(w > 0 && w < o && r >= (o - 0.0005) / (w + 0.0005) &&
	       (w <= 0.0005 || r <= (o + 0.0005) / (w - 0.0005))) }' ||
	fail "-z: wrote $wrote MB of $orig MB is not a ratio of $ratio"
echo "ok: -z: $(grep "Captured and wrote" "$tmp/record.err")"

command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 ||
	{ echo "ok: (no setpriv or no user nobody: the unprivileged cases are not run)"; exit 0; }
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] ||
	{ echo "ok: (perf_event_paranoid below 2: the unprivileged cases are not run)"; exit 0; }
chmod 755 "$tmp"
mkdir "$tmp/nobody" && chmod 777 "$tmp/nobody"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# a user-only event as nobody: nothing to warn about
as_nobody "$TEXTPOKE" record -e cpu-clock:u -o "$tmp/nobody/u.data" -- "$tmp/loop" 0.2 \
	>/dev/null 2>"$tmp/u.err" || fail "cpu-clock:u as nobody: $(cat "$tmp/u.err")"
grep -v "^\[ perf textpoke record: \(Captured and wrote\|Woken up\)" "$tmp/u.err" >"$tmp/u.other"
[ -s "$tmp/u.other" ] && fail "cpu-clock:u as nobody warned: $(cat "$tmp/u.other")"
# the kallsyms copy, if any, is carried in the file (exit 3: none)
python3 "$(dirname "$0")/lib/kcore-dir-unpack.py" "$tmp/nobody/u.data" "$tmp/u.kdir"
case $? in 0 | 3) ;; *) fail "kcore-dir-unpack.py $tmp/nobody/u.data failed" ;; esac
[ -e "$tmp/u.kdir/kallsyms" ] &&
	! grep -qv "^0000000000000000 " "$tmp/u.kdir/kallsyms" &&
	fail "cpu-clock:u as nobody: a kallsyms of zeros was stored"
echo "ok: cpu-clock:u as nobody: no warning"

# kernel events allowed, kernel addresses hidden
caps="--inh-caps=+perfmon --ambient-caps=+perfmon"
# shellcheck disable=SC2086
as_nobody $caps head -1 /proc/kallsyms >"$tmp/ks" 2>/dev/null ||
	{ echo "ok: (no CAP_PERFMON here: the kptr_restrict case is not run)"; exit 0; }
grep -q "^0000000000000000 " "$tmp/ks" ||
	{ echo "ok: (kallsyms shows addresses to nobody: the kptr_restrict case is not run)"; exit 0; }
# shellcheck disable=SC2086
as_nobody $caps env HOME="$tmp/nobody" perf record -e cpu-clock -o "$tmp/nobody/p.data" -- true \
	>/dev/null 2>"$tmp/p.err" || fail "stock perf as nobody with CAP_PERFMON: $(cat "$tmp/p.err")"
grep -q "address maps .* are restricted" "$tmp/p.err" ||
	{ echo "ok: (stock perf does not warn of restricted maps: nothing to compare)"; exit 0; }
# shellcheck disable=SC2086
as_nobody $caps "$TEXTPOKE" record -e cpu-clock -o "$tmp/nobody/k.data" -- "$tmp/loop" 0.2 \
	>/dev/null 2>"$tmp/k.err" || fail "as nobody with CAP_PERFMON: $(cat "$tmp/k.err")"
[ "$(grep -ci "restricted" "$tmp/k.err")" = 1 ] ||
	fail "kallsyms of zeros: expected one warning of restricted address maps: $(cat "$tmp/k.err")"
grep -i "restricted" "$tmp/k.err" | grep -q "kptr_restrict" ||
	fail "the warning does not name kptr_restrict: $(cat "$tmp/k.err")"
python3 "$(dirname "$0")/lib/kcore-dir-unpack.py" "$tmp/nobody/k.data" "$tmp/k.kdir"
case $? in 0 | 3) ;; *) fail "kcore-dir-unpack.py $tmp/nobody/k.data failed" ;; esac
[ -e "$tmp/k.kdir/kallsyms" ] &&
	fail "a kallsyms of zeros was stored in the file"
perf script -f -i "$tmp/nobody/k.data" -F ip >/dev/null 2>"$tmp/k.perr" ||
	fail "stock perf script of it: $(cat "$tmp/k.perr")"
echo "ok: kernel addresses hidden: $(grep -i restricted "$tmp/k.err")"
exit 0
