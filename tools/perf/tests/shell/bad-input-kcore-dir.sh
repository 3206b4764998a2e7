#!/bin/bash
# bad input: kcore_dir members, --kcore and --vmlinux files that are FIFOs, devices or damaged
# SPDX-License-Identifier: GPL-2.0-only
#
# A recording made now by perf textpoke record (its kcore_dir holds the
# real kallsyms and modules; a kcore only where /proc/kcore exists, so the
# test makes one of its own, shaped as perf record --kcore writes it: an
# ELF core with one PT_LOAD at _stext), then hostile copies:
#   - kcore, kallsyms and modules as a FIFO, a symlink to /dev/zero, a
#     directory; a kallsyms of 1 GiB (sparse)
#   - kcore truncated (in the ELF header, in the program headers, in the
#     segment), with a huge e_phoff, a wrong e_phentsize, each byte of the
#     ELF identification flipped, no executable segment
#   - --kcore and --vmlinux naming what does not exist, a FIFO, a device,
#     a file that is not a vmlinux (/bin/ls, kallsyms), a vmlinux that is
#     not the recorded kernel (build-id), and one that is accepted
# `perf textpoke code` and `script -F ip,insn` run on each under timeout
# (a hang fails) and, but in a sanitizer build, under ulimit -v of 1 GiB.
# A refusal is exit status 1 (not a signal, no sanitizer report) with a
# message that names the file; the recording's own kcore_dir may instead
# lose the bad member with a warning naming it.  The inputs never change.
. "$(dirname "$0")"/lib/common.sh
. "$(dirname "$0")"/lib/bad-input.sh

need_perf_root
scratch kcore-dir
VMEM_KB=1048576
fails=0
runs=0

bad() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

if (ulimit -v $VMEM_KB && "$TEXTPOKE" code -h) >/dev/null 2>&1; then
	limit=1
else
	echo "note: $TEXTPOKE cannot run under ulimit -v (sanitizer build?): no memory cap"
	limit=0
fi

# a tiny workload with kernel and user samples
# -o an existing directory: the form with a kcore_dir/ to damage
mkdir "$tmp/rec.data" || fail "mkdir"
"$TEXTPOKE" record -q -e cpu-clock -c 100000 -o "$tmp/rec.data" -- \
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; cat /proc/self/stat' \
	>/dev/null 2>"$tmp/record.err" || fail "perf textpoke record: $(head -3 "$tmp/record.err")"
kdir=$tmp/rec.data/kcore_dir
[ -s "$kdir/kallsyms" ] || fail "the recording has no kcore_dir/kallsyms"
stext=$(awk '$3 == "_stext" { print $1; exit }' "$kdir/kallsyms")
[ -n "$stext" ] && [ "$stext" != 0000000000000000 ] ||
	skip "kallsyms has no _stext address (kptr_restrict?)"

# kcore FILE: an ELF core with one PT_LOAD of 16 KiB at _stext, at offset 0x1000
make_kcore() {
	local f=$1 len=$((0x4000))

	head -c $((0x1000 + len)) /dev/zero | tr '\0' '\220' >"$f"
	head -c 120 /dev/zero | dd of="$f" conv=notrunc status=none
	printf '\177ELF\002\001\001' | dd of="$f" conv=notrunc status=none
	bi_put "$f" 16 2 0004			# ET_CORE
	bi_put "$f" 18 2 003e			# EM_X86_64
	bi_put "$f" 20 4 00000001		# EV_CURRENT
	bi_put "$f" 32 8 "$(bi_hex 64 8)"	# e_phoff
	bi_put "$f" 52 2 0040			# e_ehsize
	bi_put "$f" 54 2 0038			# e_phentsize
	bi_put "$f" 56 2 0001			# e_phnum
	bi_put "$f" 64 4 00000001		# PT_LOAD
	bi_put "$f" 68 4 00000007		# PF_R|PF_W|PF_X
	bi_put "$f" 72 8 "$(bi_hex 0x1000 8)"	# p_offset
	bi_put "$f" 80 8 "$stext"		# p_vaddr
	bi_put "$f" 96 8 "$(bi_hex $len 8)"	# p_filesz
	bi_put "$f" 104 8 "$(bi_hex $len 8)"	# p_memsz
	bi_put "$f" 112 8 "$(bi_hex 0x1000 8)"	# p_align
}

# what a directory holds: type and checksum of each entry, not following links
snapshot() {
	local e

	for e in "$1"/*; do
		if [ -L "$e" ]; then
			echo "$e link $(readlink "$e")"
		elif [ -f "$e" ]; then
			echo "$e file $(cksum <"$e")"
		else
			echo "$e $(stat -c %F "$e")"
		fi
	done
}

# run WHAT ARGS...: one perf textpoke command, bounded in time and memory;
# sets $status and $err.  With $reason set, stderr must match it as well.
run() {
	local what=$1

	shift
	runs=$((runs + 1))
	(
		cd "$tmp/cwd" || exit 99
		[ "$limit" = 1 ] && ulimit -v $VMEM_KB
		exec timeout -k 5 20 "$TEXTPOKE" "$@" >"$tmp/out" 2>"$tmp/err"
	)
	status=$?
	err=$(<"$tmp/err")
	if [ "$status" = 124 ] || [ "$status" = 137 ]; then
		bad "$what: hangs (killed after 20 s)"
		return 1
	fi
	if [[ $err =~ AddressSanitizer|runtime\ error:|LeakSanitizer ]]; then
		bad "$what: sanitizer report: ${err:0:300}"
		return 1
	fi
	# 128 + a signal number; script's own 234 and 255 are errors, not signals
	if ((status > 129 && status <= 192)); then
		bad "$what: killed by signal $((status - 128)): ${err:0:300}"
		return 1
	fi
	if [ -n "$reason" ] && ! [[ $err =~ $reason ]]; then
		bad "$what: stderr does not say /$reason/: ${err:0:300}"
		return 1
	fi
	return 0
}

# refused WHAT NAME ARGS...: exit 1 (script: perf script's 234 or 255), and stderr names NAME
refused() {
	local what=$1 name=$2 want=1

	shift 2
	run "$what" "$@" || return
	[ "$1" = script ] && [ "$status" = 255 ] && want=255
	[ "$1" = script ] && [ "$status" != 255 ] && want=234
	if [ "$status" = 0 ]; then
		bad "$what: accepted (exit 0), expected a refusal"
	elif [ "$status" != "$want" ]; then
		bad "$what: exit $status, expected $want: ${err:0:300}"
	elif [[ $err != *"$name"* ]]; then
		bad "$what: exit $status, but stderr does not name $name: ${err:0:300}"
	elif [ "$(wc -l <"$tmp/err")" -gt 2 ]; then
		bad "$what: more than two lines of errors: ${err:0:300}"
	elif [ -s "$tmp/out" ] && [ "$1" = script ]; then
		bad "$what: refused, yet printed samples"
	fi
}

# survived WHAT NAME ARGS...: the recording's own kcore_dir: exit 0 with
# a warning naming NAME, or a refusal naming it
survived() {
	local what=$1 name=$2

	shift 2
	run "$what" "$@" || return
	if [[ $err != *"$name"* ]]; then
		bad "$what: exit $status, stderr does not name $name: ${err:0:300}"
	fi
}

# both WHAT NAME KIND ARGS...: code and script -F ip,insn, with ARGS
both() {
	local what=$1 name=$2 kind=$3

	shift 3
	$kind "code $what" "$name" code -i "$rec" "$@" "$stext" 16
	$kind "script $what" "$name" script -i "$rec" -F ip,insn "$@"
}

mkdir "$tmp/cwd" "$tmp/good"
rec=$tmp/rec.data
make_kcore "$tmp/good/kcore"
cp "$kdir/kallsyms" "$kdir/modules" "$tmp/good/"
before_rec=$(snapshot "$kdir"; cksum <"$rec/data")

# the setup: the intact recording, and the made-up kcore, are read
run "code, intact" code -i "$rec" "$stext" 16
[ "$status" = 0 ] || fail "code on the intact recording: exit $status: ${err:0:300}"
run "code --kcore good" code -i "$rec" --kcore "$tmp/good" "$stext" 16
[ "$status" = 0 ] && grep -q "^# base: $tmp/good/kcore (1 segments)" "$tmp/out" ||
	fail "code --kcore with the made-up kcore: exit $status: ${err:0:300} $(head -3 "$tmp/out")"
run "script --kcore good" script -i "$rec" -F ip,insn --kcore "$tmp/good"
[ "$status" = 0 ] || fail "script -F ip,insn --kcore good: exit $status: ${err:0:300}"

# --kcore: what is not there; checked before the input is (no perf.data here)
both "--kcore /nonexistent" /nonexistent refused --kcore /nonexistent
refused "code --kcore /nonexistent, no input" /nonexistent code --kcore /nonexistent "$stext"
mkdir "$tmp/nokcore"
cp "$kdir/kallsyms" "$tmp/nokcore/"
both "--kcore without kcore" "$tmp/nokcore" refused --kcore "$tmp/nokcore"
both "--kcore a file" "$tmp/good/kcore" refused --kcore "$tmp/good/kcore"

# --kcore DIR whose kcore is not a regular file
d=$tmp/special
mkdir "$d"
cp "$kdir/kallsyms" "$kdir/modules" "$d/"
mkfifo "$d/kcore"
reason=FIFO both "kcore a FIFO" "$d/kcore" refused --kcore "$d"
rm "$d/kcore"
ln -s /dev/zero "$d/kcore"
reason=device both "kcore -> /dev/zero" "$d/kcore" refused --kcore "$d"
rm "$d/kcore"
mkdir "$d/kcore"
reason=directory both "kcore a directory" "$d/kcore" refused --kcore "$d"
rmdir "$d/kcore"

# --kcore DIR with a damaged kcore: DAMAGE is a description, then a command
damaged() {
	local what=$1 sum

	shift
	make_kcore "$d/kcore"
	"$@" "$d/kcore"
	sum=$(cksum <"$d/kcore")
	both "kcore $what" "$d/kcore" refused --kcore "$d"
	[ "$(cksum <"$d/kcore")" = "$sum" ] || bad "kcore $what: the kcore was modified"
	rm -f "$d/kcore"
}
cut_at() { truncate -s "$1" "$2"; }
put_at() { bi_put "$4" "$1" "$2" "$3"; }
flip() { # OFFSET FILE: the byte at OFFSET xor 0xff
	bi_put "$2" "$1" 1 "$(bi_hex $(($(bi_get "$2" "$1" 1) ^ 255)) 1)"
}
for n in 0 4 16 63 100 119 120 $((0x1000 + 100)); do
	damaged "cut at $n bytes" cut_at $n
done
damaged "with e_phoff 0x7fffffffffff0000" put_at 32 8 7fffffffffff0000
for i in 0 1 2 3 4 5 6; do
	damaged "with e_ident[$i] flipped" flip $i
done
damaged "with e_phentsize 32" put_at 54 2 0020
damaged "with e_phnum 0xfffe" put_at 56 2 fffe
damaged "of type ET_EXEC" put_at 16 2 0002
damaged "without an executable segment" put_at 68 4 00000004
damaged "with p_offset past the end" put_at 72 8 00000000ffff0000
huge_segment() { put_at 96 8 7fffffffffffffff "$1" && put_at 104 8 7fffffffffffffff "$1"; }
damaged "with a segment past the end" huge_segment
damaged "with a segment that wraps around" put_at 80 8 fffffffffffff000

# the recording's own kcore_dir: each member in turn replaced
own() { # WHAT MEMBER COMMAND...: replace MEMBER of a copy of the recording
	local what=$1 member=$2

	shift 2
	rm -rf "$tmp/own.data"
	cp -a "$rec" "$tmp/own.data"
	rm -rf "$tmp/own.data/kcore_dir/$member"
	"$@" "$tmp/own.data/kcore_dir/$member"
	survived "code, $what" "kcore_dir/$member" code -i "$tmp/own.data" "$stext" 16
	survived "script, $what" "kcore_dir/$member" script -i "$tmp/own.data" -F ip,sym,insn
}
link_zero() { ln -s /dev/zero "$1"; }
sparse() { truncate -s 1G "$1"; }
cut_kcore() { make_kcore "$1" && truncate -s 119 "$1"; }
# what kind of file it is, so that a read that ran out of memory does not pass
for m in kallsyms kcore; do
	reason=FIFO own "$m a FIFO" $m mkfifo
	reason=device own "$m -> /dev/zero" $m link_zero
	reason=directory own "$m a directory" $m mkdir
done
reason="too large" own "kallsyms of 1 GiB" kallsyms sparse
reason="0x77" own "kcore cut at 119 bytes" kcore cut_kcore
# nothing reads modules: it must not block either
for make in mkfifo link_zero; do
	rm -rf "$tmp/own.data"
	cp -a "$rec" "$tmp/own.data"
	rm "$tmp/own.data/kcore_dir/modules"
	$make "$tmp/own.data/kcore_dir/modules"
	run "code, modules $make" code -i "$tmp/own.data" "$stext" 16 &&
		{ [ "$status" = 0 ] || bad "code, modules $make: exit $status: ${err:0:300}"; }
	run "script, modules $make" script -i "$tmp/own.data" -F ip,insn &&
		{ [ "$status" = 0 ] || bad "script, modules $make: exit $status: ${err:0:300}"; }
done
rm -rf "$tmp/own.data"

# --vmlinux: what is not there, not regular, not ELF, not a kernel
both "--vmlinux /nonexistent" /nonexistent refused --vmlinux /nonexistent
mkfifo "$tmp/fifo"
reason=FIFO both "--vmlinux a FIFO" "$tmp/fifo" refused --vmlinux "$tmp/fifo"
ln -s /dev/zero "$tmp/zero"
reason=device both "--vmlinux -> /dev/zero" "$tmp/zero" refused --vmlinux "$tmp/zero"
reason=directory both "--vmlinux a directory" "$tmp/good" refused --vmlinux "$tmp/good"
both "--vmlinux kallsyms" "$kdir/kallsyms" refused --vmlinux "$kdir/kallsyms"
both "--vmlinux a kcore" "$tmp/good/kcore" refused --vmlinux "$tmp/good/kcore"
# the recording names the kernel's build-id: /bin/ls has another
both "--vmlinux /bin/ls" /bin/ls refused --vmlinux /bin/ls
[[ $err == *build-id* ]] || bad "--vmlinux /bin/ls: the refusal does not say build-id: $err"

# a vmlinux of our own: ELF code at _stext's address, with a build-id
printf 'void _start(void) { for (;;) __asm__ volatile("nop"); }\n' >"$tmp/v.c"
if gcc -O1 -nostdlib -static -no-pie -fno-pic -mcmodel=kernel -Wl,--build-id \
	-Wl,-Ttext-segment="0x$stext" -o "$tmp/vmlinux" "$tmp/v.c" 2>"$tmp/gcc.err"; then
	# not the recorded kernel
	both "--vmlinux, another kernel" "$tmp/vmlinux" refused --vmlinux "$tmp/vmlinux"
	[[ $err == *build-id* ]] || bad "--vmlinux another kernel: no word of build-id: $err"
	# a stock perf recording of user code only names no kernel build-id:
	# then the place of the code decides
	HOME=$tmp perf record -q -e cpu-clock:u -o "$tmp/user.data" -- \
		sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >/dev/null 2>&1 ||
		fail "stock perf record -e cpu-clock:u failed"
	if HOME=$tmp perf buildid-list -i "$tmp/user.data" 2>/dev/null | grep -q kernel; then
		echo "note: stock perf wrote a kernel build-id for a user-only recording: skipped"
	else
		run "code --vmlinux ours, user recording" code -i "$tmp/user.data" \
			--vmlinux "$tmp/vmlinux" "$stext" 16
		[ "$status" = 0 ] && grep -q "^# base: $tmp/vmlinux" "$tmp/out" ||
			bad "code --vmlinux: a vmlinux at kernel addresses refused: ${err:0:300}"
		refused "code --vmlinux /bin/ls, user recording" /bin/ls code -i "$tmp/user.data" \
			--vmlinux /bin/ls "$stext" 16
		[[ $err == *"kernel addresses"* ]] || bad "--vmlinux /bin/ls: not said why: $err"
	fi
	# a damaged one
	cp "$tmp/vmlinux" "$tmp/vmlinux.cut"
	truncate -s 300 "$tmp/vmlinux.cut"
	refused "code --vmlinux truncated" "$tmp/vmlinux.cut" code -i "$rec" \
		--vmlinux "$tmp/vmlinux.cut" "$stext" 16
else
	echo "note: cannot build a made-up vmlinux ($(head -1 "$tmp/gcc.err")): those cases skipped"
fi

[ "$(snapshot "$kdir"; cksum <"$rec/data")" = "$before_rec" ] || bad "the recording was modified"
left=$(shopt -s nullglob dotglob; echo "$tmp"/cwd/*)
[ -z "$left" ] || bad "files left in the working directory: $left"
echo "$runs runs, $fails failures"
[ "$fails" = 0 ]
