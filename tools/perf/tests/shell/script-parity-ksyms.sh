#!/bin/bash
# script: kernel symbols of another kernel's recording, --kallsyms and -k, against perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# A recording made here by stock perf is given another kernel's identity
# (its OSRELEASE feature rewritten in place), with and without the kernel
# build-id.  Without one, perf 6.1 resolves kernel addresses against the
# running kernel's /proc/kallsyms whatever the release.  We do not: a
# recording that names another release is of another kernel, and with no
# KASLR every x86_64 kernel has its _text at 0xffffffff81000000, so the
# same _text proves nothing (a 2012 recording got this kernel's names).
# We warn once and print [unknown]; the rest of each line is perf's.  With
# the release rewritten to nothing (nothing says it is another kernel),
# we resolve as perf does, since the recorded _text (the kernel MMAP's
# pgoff) is the running kernel's, and say so once.  With the build-id of
# this kernel, both know it is this kernel.  With _text moved (the pgoff
# rewritten), perf moves the running kernel's symbols there and prints
# names that were never there; we warn and print [unknown].  Then
# --kallsyms with a made-up table (renamed and moved by 16 MB) and -k
# with a vmlinux assembled from this kernel's kallsyms: both as stock
# perf's --kallsyms and -k print them, and perf textpoke code labels a
# sampled symbol's start by the same names.
#
# Mutation caught: machine__kallsyms_path() taking /proc/kallsyms for a
# recording without a kernel build-id whatever release it names (the
# other-release case then prints this kernel's names).

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch ksyms
export HOME=$tmp/home
mkdir -p "$HOME"

text=$(awk '$3 == "_text" && NF == 3 { print $1; exit }' /proc/kallsyms)
[ -n "$text" ] && [ "$text" != 0000000000000000 ] ||
	skip "no _text address in /proc/kallsyms (kptr_restrict?)"

# set_osrelease FILE RELEASE: the OSRELEASE feature string, overwritten in place
set_osrelease() {
	perl -e '
		my ($f, $rel) = @ARGV;
		open(my $fh, "+<:raw", $f) or die "$f: $!\n";
		read($fh, my $h, 104) == 104 or die "$f: short header\n";
		my ($magic, @q) = unpack("a8 Q<12", $h);
		$magic eq "PERFILE2" or die "$f: not a perf.data file\n";
		my $bits = unpack("b*", pack("Q<4", @q[8 .. 11]));
		substr($bits, 4, 1) eq "1" or die "$f: no OSRELEASE feature\n";
		my $idx = () = substr($bits, 0, 4) =~ /1/g;
		seek($fh, $q[4] + $q[5] + 16 * $idx, 0);
		read($fh, my $sec, 16) == 16 or die "$f: short feature table\n";
		my ($off) = unpack("Q<", $sec);
		seek($fh, $off, 0);
		read($fh, my $l, 4) == 4 or die "$f: short OSRELEASE\n";
		my $n = unpack("L<", $l);
		length($rel) < $n or die "$f: no room for $rel\n";
		seek($fh, $off + 4, 0);
		print $fh $rel . ("\0" x ($n - length($rel)));
		close($fh) or die "$f: $!\n";
	' "$@" || fail "set_osrelease $*"
}

# move_kernel FILE DELTA: add DELTA to the kernel MMAP's pgoff, where _text was
move_kernel() {
	perl -e '
		my ($f, $delta) = @ARGV;
		open(my $fh, "+<:raw", $f) or die "$f: $!\n";
		local $/;
		my $all = <$fh>;
		my $pos = index($all, "[kernel.kallsyms]_text");
		$pos >= 0 or die "$f: no kernel MMAP\n";
		my $hdr;
		for my $back (40, 72) {	# MMAP, MMAP2: the name after the fixed fields
			my ($type) = unpack("L<", substr($all, $pos - $back, 4));
			$hdr = $pos - $back if ($back == 40 && $type == 1) || ($back == 72 && $type == 10);
			last if defined $hdr;
		}
		defined $hdr or die "$f: the kernel name is in no MMAP record\n";
		my $pgoff = unpack("Q<", substr($all, $hdr + 32, 8));
		seek($fh, $hdr + 32, 0);
		print $fh pack("Q<", $pgoff + hex($delta));
		close($fh) or die "$f: $!\n";
	' "$@" || fail "move_kernel $*"
}

# kernel_lines FILE: the sample lines at kernel addresses
kernel_lines() {
	grep -c '(\[kernel\.kallsyms\])$' "$1"
}

# time in the kernel: reads and writes of 4 KB, with some user time between
perf_record "$tmp/nobid.data" -N --no-buildid -e cpu-clock \
	dd if=/dev/zero of=/dev/null bs=4k count=300000
# loop.c's clock_gettime() calls: a few dozen samples in the vdso
gcc -O1 -o "$tmp/loop" "$libdir/../../workloads/loop.c" 2>"$tmp/gcc.err" ||
	fail "gcc loop.c: $(cat "$tmp/gcc.err")"
perf_record "$tmp/vdso-other.data" -N --no-buildid -e cpu-clock "$tmp/loop" 0.3
set_osrelease "$tmp/vdso-other.data" 4.19.0-not-this-one
perf_record "$tmp/bid.data" -N -e cpu-clock dd if=/dev/zero of=/dev/null bs=4k count=300000
perf buildid-list -i "$tmp/bid.data" 2>/dev/null | grep -q '\[kernel\.kallsyms\]' ||
	fail "perf record wrote no kernel build-id"
for f in nobid bid; do
	cp "$tmp/$f.data" "$tmp/$f-other.data"
	set_osrelease "$tmp/$f-other.data" 4.19.0-not-this-one
done
cp "$tmp/nobid.data" "$tmp/nobid-norel.data"
set_osrelease "$tmp/nobid-norel.data" ""
perf report --header-only -i "$tmp/nobid-other.data" 2>/dev/null |
	grep -q '^# os release : 4.19.0-not-this-one$' || fail "OSRELEASE not rewritten"

# another release, no kernel build-id, the same _text: not this kernel
HOME=$tmp perf script -i "$tmp/nobid-other.data" >"$tmp/other-release.perf" 2>/dev/null ||
	fail "other-release: stock perf script failed"
"$TEXTPOKE" script -i "$tmp/nobid-other.data" >"$tmp/other-release.ours" \
	2>"$tmp/other-release.ours.err" || fail "other-release: perf textpoke script failed"
n=$(kernel_lines "$tmp/other-release.ours")
[ "$n" -gt 0 ] || fail "other-release: no kernel samples recorded"
[ "$(grep -c '\[unknown\] (\[kernel\.kallsyms\])$' "$tmp/other-release.ours")" = "$n" ] ||
	fail "other-release: kernel samples resolved with this kernel's names"
# the symbol after a kernel address: this kernel's in perf's, [unknown] in
# ours; so for a sample that landed in the vdso, the other kernel's as
# well: perf names it from its own process's vdso, we do not
[ "$(grep -c '(\[vdso\])$' "$tmp/other-release.ours")" = \
	"$(grep -c '\[unknown\] (\[vdso\])$' "$tmp/other-release.ours")" ] ||
	fail "other-release: vdso samples resolved with this kernel's vdso"
ksym_norm() {
	sed -E 's/ (ffff[0-9a-f]{12}) [^ ]+ \(\[kernel\.kallsyms\]\)$/ \1 K/;
		s/ ([0-9a-f]+) [^ ]+ \(\[vdso\]\)$/ \1 V/' "$1"
}
diff <(ksym_norm "$tmp/other-release.perf") <(ksym_norm "$tmp/other-release.ours") >"$tmp/diff" ||
	fail "other-release: differs from perf's beyond the kernel symbols: $(head -10 "$tmp/diff")"
[ "$(cat "$tmp/other-release.ours.err")" = \
	"warning: kernel symbols not resolved: recorded on 4.19.0-not-this-one, running $(uname -r)" ] ||
	fail "other-release: not one warning naming both releases: $(cat "$tmp/other-release.ours.err")"
echo "ok: other-release: $n kernel samples [unknown], $(cat "$tmp/other-release.ours.err")"

# the vdso of another kernel's recording: perf names it by its own
# process's vdso, we leave it [unknown]; the rest of each line is perf's
HOME=$tmp perf script -i "$tmp/vdso-other.data" >"$tmp/vdso-other.perf" 2>/dev/null ||
	fail "vdso-other: stock perf script failed"
"$TEXTPOKE" script -i "$tmp/vdso-other.data" >"$tmp/vdso-other.ours" 2>/dev/null ||
	fail "vdso-other: perf textpoke script failed"
nv=$(grep -c '(\[vdso\])$' "$tmp/vdso-other.ours")
[ "$nv" -gt 0 ] || fail "vdso-other: no sample in the vdso"
[ "$nv" = "$(grep -c '\[unknown\] (\[vdso\])$' "$tmp/vdso-other.ours")" ] ||
	fail "vdso-other: vdso samples resolved with this kernel's vdso"
diff <(ksym_norm "$tmp/vdso-other.perf") <(ksym_norm "$tmp/vdso-other.ours") >"$tmp/diff" ||
	fail "vdso-other: differs from perf's beyond the kernel and vdso symbols: $(head -10 "$tmp/diff")"
echo "ok: vdso-other: $nv vdso samples [unknown]"

# same_but_vdso NAME FILE ARGS...: same_output, but for the symbol of a
# sample in the vdso (dd's few, if any): where no build-id says the
# recording is of this kernel perf names it by its own process's vdso, and
# we leave it [unknown] (vdso-other above)
same_but_vdso() {
	same_norm=vdso_norm same_output "$@"
	[ "$(grep -c '(\[vdso\])$' "$tmp/$1.ours")" = \
		"$(grep -c '\[unknown\] (\[vdso\])$' "$tmp/$1.ours")" ] ||
		fail "$1: vdso samples resolved with this kernel's vdso"
}
vdso_norm() {
	sed -E 's/ ([0-9a-f]+) [^ ]+ \(\[vdso\]\)$/ \1 V/' "$1"
}

# no release named, no kernel build-id, the same _text: perf's /proc/kallsyms
same_but_vdso no-release "$tmp/nobid-norel.data"
n=$(kernel_lines "$tmp/no-release.ours")
[ "$n" -gt 0 ] || fail "no-release: no kernel samples recorded"
[ "$(grep -c '\[unknown\] (\[kernel\.kallsyms\])$' "$tmp/no-release.ours")" = "$n" ] &&
	fail "no-release: every kernel sample is [unknown]"
[ "$(grep -c 'kernel symbols from /proc/kallsyms of the running kernel' \
	"$tmp/no-release.ours.err")" = 1 ] ||
	fail "no-release: not said once which kallsyms was used: $(cat "$tmp/no-release.ours.err")"
grep -q 'not resolved' "$tmp/no-release.ours.err" &&
	fail "no-release: $(cat "$tmp/no-release.ours.err")"
echo "ok: no-release: $n kernel samples resolved, said once: $(head -1 "$tmp/no-release.ours.err")"

# another release with this kernel's build-id: this kernel, no word.  A
# sample of dd's in the vdso (some runs have one): the header's build-id
# is this kernel's vdso's, so ours names it from this process's vdso;
# stock perf 6.1, with no build-id cache (-N), leaves it [unknown].  The
# names are checked against this kernel's vdso itself, read by Python
# from /proc/self/mem and listed by nm: a symbol of it, the offset inside
# it.
same_norm=vdso_norm same_output other-release-bid "$tmp/bid-other.data"
[ -s "$tmp/other-release-bid.ours.err" ] &&
	fail "other-release-bid: $(cat "$tmp/other-release-bid.ours.err")"
if grep -v '\[unknown\] (\[vdso\])$' "$tmp/other-release-bid.ours" | grep -q '(\[vdso\])$'; then
	python3 -c 'import re, sys
for l in open("/proc/self/maps"):
    if l.rstrip().endswith("[vdso]"):
        lo, hi = (int(x, 16) for x in l.split()[0].split("-"))
        with open("/proc/self/mem", "rb") as m:
            m.seek(lo)
            open(sys.argv[1], "wb").write(m.read(hi - lo))' "$tmp/vdso.so" ||
		fail "other-release-bid: cannot read this process's vdso"
	nm -D -S "$tmp/vdso.so" >"$tmp/vdso.nm" 2>/dev/null || fail "other-release-bid: nm on the vdso failed"
	grep -o '[^ ]*+0x[0-9a-f]* (\[vdso\])$' "$tmp/other-release-bid.ours" |
		while read -r sym _; do
			size=$(awk -v n="${sym%+*}" '{ sub(/@.*/, "", $4) }
				$4 == n { print $2; exit }' "$tmp/vdso.nm")
			[ -n "$size" ] && (("0x${sym##*+0x}" < "0x$size")) ||
				echo "$sym"
		done >"$tmp/vdso.bad"
	[ -s "$tmp/vdso.bad" ] &&
		fail "other-release-bid: vdso names not in this kernel's vdso: $(head -3 "$tmp/vdso.bad")"
	echo "ok: other-release-bid: vdso samples named as this kernel's vdso names them"
fi

# _text elsewhere: the running kernel's names would be guesses
cp "$tmp/nobid-norel.data" "$tmp/moved.data"
move_kernel "$tmp/moved.data" 0x200000
"$TEXTPOKE" script -i "$tmp/moved.data" >"$tmp/moved.ours" 2>"$tmp/moved.err" ||
	fail "moved: perf textpoke script failed: $(head -3 "$tmp/moved.err")"
n=$(kernel_lines "$tmp/moved.ours")
[ "$n" -gt 0 ] && [ "$(grep -c '\[unknown\] (\[kernel\.kallsyms\])$' "$tmp/moved.ours")" = "$n" ] ||
	fail "moved: kernel samples resolved although _text differs"
grep -q "kernel symbols not resolved: recorded on (unknown) (_text at 0x[0-9a-f]*), running $(uname -r) (_text at 0x$(echo "$text" | sed 's/^0*//'))" \
	"$tmp/moved.err" || fail "moved: no warning naming both _text addresses: $(cat "$tmp/moved.err")"
[ "$(wc -l <"$tmp/moved.err")" = 1 ] || fail "moved: more than one line: $(cat "$tmp/moved.err")"
perf script -i "$tmp/moved.data" 2>/dev/null | grep -v '\[unknown\]' |
	grep -q '(\[kernel\.kallsyms\])$' || echo "note: moved: stock perf printed no kernel symbol either"
echo "ok: moved: $n kernel samples [unknown], $(cat "$tmp/moved.err")"

# --kallsyms: a made-up table, every name changed and 16 MB higher
perl -ne 'my @f = split; next if @f != 3;
	$f[2] = "crafted_$f[2]" unless $f[2] eq "_text" || $f[2] eq "_stext";
	printf "%016x %s %s\n", hex($f[0]) + 0x1000000, $f[1], $f[2]' /proc/kallsyms >"$tmp/crafted"
for f in nobid-other moved bid; do
	same_but_vdso "kallsyms-$f" "$tmp/$f.data" --kallsyms "$tmp/crafted"
	grep -q ' crafted_[^ ]* (\[kernel\.kallsyms\])$' "$tmp/kallsyms-$f.ours" ||
		fail "kallsyms-$f: no crafted name printed"
done

# -k: a vmlinux whose .text symbols are this kernel's, at their addresses
if command -v as >/dev/null && command -v ld >/dev/null; then
	perl -e '
		my ($text, $etext, @s, %seen);
		open(my $k, "<", "/proc/kallsyms") or die;
		while (<$k>) {
			my @f = split;
			next if @f != 3;
			push @s, [hex($f[0]), $f[1], $f[2]];
			$text = hex($f[0]) if $f[2] eq "_text" && !defined $text;
			$etext = hex($f[0]) if $f[2] eq "_etext";
		}
		defined $text && defined $etext or die "no _text or _etext\n";
		print "\t.text\n";
		for my $x (sort { $a->[0] <=> $b->[0] } @s) {
			my ($addr, $t, $n) = @$x;
			next if $addr < $text || $addr >= $etext || $t !~ /^[TtWw]$/;
			next if $n =~ /[^A-Za-z0-9_.]/ || $seen{$n}++;
			printf "\t.org %#x\n", $addr - $text;
			print $t eq "T" ? "\t.globl $n\n" : $t =~ /[Ww]/ ? "\t.weak $n\n" : "";
			print "\t.type $n, \@function\n" unless $n eq "_text" || $n eq "_stext";
			print "$n:\n";
		}
		printf "\t.org %#x\n", $etext - $text;
	' >"$tmp/vmlinux.s" || fail "vmlinux.s"
	as -o "$tmp/vmlinux.o" "$tmp/vmlinux.s" 2>"$tmp/as.err" || fail "as: $(head -3 "$tmp/as.err")"
	ld -static -nostdlib -Ttext="0x$text" -e 0 --build-id=sha1 -o "$tmp/vmlinux" \
		"$tmp/vmlinux.o" 2>"$tmp/ld.err" || fail "ld: $(head -3 "$tmp/ld.err")"
	rm -f "$tmp/vmlinux.s" "$tmp/vmlinux.o"
	for f in nobid-other moved; do
		same_but_vdso "vmlinux-$f" "$tmp/$f.data" -k "$tmp/vmlinux"
		grep -v '\[unknown\]' "$tmp/vmlinux-$f.ours" | grep -q '(\[kernel\.kallsyms\])$' ||
			fail "vmlinux-$f: no kernel symbol printed"
	done
	# its build-id is not the recorded kernel's: not used, as perf does not
	same_output vmlinux-bid "$tmp/bid.data" --vmlinux "$tmp/vmlinux"
	grep -q "kernel symbols not resolved: $tmp/vmlinux is not the recorded kernel" \
		"$tmp/vmlinux-bid.ours.err" ||
		fail "vmlinux-bid: no warning: $(cat "$tmp/vmlinux-bid.ours.err")"
	# code names addresses the same way: a sampled symbol's start, by both;
	# one with no alias in kallsyms (__memcpy and __pi_memcpy share theirs:
	# the ELF and the kallsyms rules for aliases need not pick the same)
	sym=
	while read -r ip symoff _; do
		s=${symoff%+*}
		a=$(printf '%x' $((0x$ip - ${symoff##*+})))
		[ "$(grep -c "^0*$a " /proc/kallsyms)" = 1 ] || continue
		sym=$s start=$a
		break
	done < <(grep -o ' ffffffff[0-9a-f]* [A-Za-z_][A-Za-z0-9_.]*+0x[0-9a-f]* (\[kernel\.kallsyms\])$' \
		"$tmp/vmlinux-nobid-other.ours" | sort -u -k2,2 | head -50)
	[ -n "$sym" ] || fail "no kernel sample with an unaliased symbol to look at with code"
	for o in "-k $tmp/vmlinux" "-k $tmp/vmlinux --kallsyms $tmp/crafted"; do
		want=$sym
		case $o in *--kallsyms*) want=crafted_$sym ;; esac
		"$TEXTPOKE" code -i "$tmp/nobid-other.data" $o "0x$start" 4 >"$tmp/code.out" \
			2>"$tmp/code.err" || fail "code $o: $(head -3 "$tmp/code.err")"
		grep -q "^0*$start <$want>:$" "$tmp/code.out" ||
			fail "code $o: no <$want> at $start: $(head -5 "$tmp/code.out")"
		echo "ok: code $o names $start <$want>"
	done
	rm -f "$tmp/vmlinux"
else
	echo "note: no as/ld: -k not checked"
fi

# a --kallsyms that is missing or a FIFO: one line, never a wait
mkfifo "$tmp/fifo"
for bad in "$tmp/nope" "$tmp/fifo"; do
	timeout 10 "$TEXTPOKE" script -i "$tmp/nobid.data" --kallsyms "$bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	[ $rc != 0 ] && [ $rc != 124 ] || fail "--kallsyms $bad: exit $rc"
	[ ! -s "$tmp/bad.out" ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ] &&
		grep -q -- "--kallsyms $bad" "$tmp/bad.err" ||
		fail "--kallsyms $bad: $(cat "$tmp/bad.err")"
	echo "ok: --kallsyms $bad: $(cat "$tmp/bad.err")"
done
exit 0
