#!/bin/bash
# messages: each bad invocation exits non-zero with one stderr line that says what and where
# SPDX-License-Identifier: GPL-2.0-only
#
# A list of mistakes a user makes (unknown subcommands and options, a
# missing or bad value, a stray argument, an input that is missing or not
# a recording, a test that does not exist, a workload that cannot run),
# for every subcommand.  Each must exit non-zero and print exactly one
# line on stderr, naming what was wrong (the option as typed, the value,
# the file); nothing on stdout; and a failed record leaves no output.
# The recording used is made now by stock perf record.  (--kcore and
# --vmlinux errors are checked by their own tests.)

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
scratch exit
export HOME=$tmp

perf record -q -e cpu-clock -o "$tmp/perf.data" -- true >"$tmp/rec.err" 2>&1 ||
	fail "stock perf record: $(head -3 "$tmp/rec.err")"
cp /etc/passwd "$tmp/passwd" || fail "cp"
: >"$tmp/empty"
out=$tmp/out.data

# "ARGS|what the line must contain"; @ is the recording, @@ a scratch directory
n=0
while IFS='|' read -r args want; do
	[ -n "$args" ] || continue
	args=${args//@@/$tmp}
	args=${args//@/$tmp/perf.data}
	want=${want//@@/$tmp}
	# shellcheck disable=SC2086
	"$TEXTPOKE" $args </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
	st=$?
	[ "$st" = 0 ] && fail "perf textpoke $args: exit status 0"
	[ "$(wc -l <"$tmp/stderr")" = 1 ] ||
		fail "perf textpoke $args (exit $st): not one line on stderr: $(head -5 "$tmp/stderr")"
	grep -qF -- "$want" "$tmp/stderr" ||
		fail "perf textpoke $args: '$(cat "$tmp/stderr")' does not say '$want'"
	[ -s "$tmp/stdout" ] && fail "perf textpoke $args: printed on stdout: $(head -3 "$tmp/stdout")"
	[ -e "$out" ] && fail "perf textpoke $args: left $out behind"
	echo "ok: $args -> $st: $(cat "$tmp/stderr")"
	n=$((n + 1))
done <<'EOF'
bogus|'bogus' is not a textpoke command
--bogus|'--bogus'
version --bogus|unknown option '--bogus'
version extra|unexpected argument 'extra'
test --bogus|unknown option '--bogus'
test -x|unknown switch '-x'
test 99999|no test matches '99999'
test no-such-test-name|no test matches 'no-such-test-name'
script --bogus|unknown option '--bogus'
script -Z|unknown switch '-Z'
script --input|option '--input' needs a value
script -i|switch '-i' needs a value
script --ns=3 -i @|option '--ns' takes no value
script --show|ambiguous option '--show'
script -i @ extra|unexpected argument 'extra'
script -i @@/none|@@/none
script -i @@/passwd|@@/passwd
script -i @@/empty|@@/empty
script -i @ -F nosuchfield|nosuchfield
script -i @ -F insn --kcore-time sometime|sometime
code|no address given
code -i @ nothex|nothex
code -i @ ffffffff81000000 0|the length must be
code -i @ ffffffff81000000 4 extra|unexpected argument 'extra'
code -i @ --time 12x ffffffff81000000|'12x' for --time
code -i @ --time 10% --bogus ffffffff81000000|unknown option '--bogus'
code -i @@/none ffffffff81000000|@@/none
code -i @@/passwd ffffffff81000000|@@/passwd
record -o @@/out.data --bogus -- true|unknown option '--bogus'
record -o @@/out.data -F 0 -- true|'0' for -F
record -o @@/out.data --freq -- true|'--' for --freq
record -o @@/out.data -c 0 -- true|'0' for -c
record -o @@/out.data -m 1073741824 -- true|'1073741824' for -m
record -o @@/out.data --call-graph dwarf,999999999 -- true|'dwarf,999999999' for --call-graph
record -o @@/out.data -e no-such-event -- true|no-such-event
record -o @@/out.data -e cpu-clock:q -- true|cpu-clock:q
record -o @@/out.data -C 4096 -- true|4096
record -o @@/out.data -p 0|'0' for -p
record -o @@/out.data -- @@/no-such-program|cannot run '@@/no-such-program'
record -o @@/out.data -- no-such-program-on-path|cannot run 'no-such-program-on-path'
record -o @@/none/out.data -- true|@@/none/out.data
inject --bogus|unknown option '--bogus'
inject -i @ -o @@/out.data extra|unexpected argument 'extra'
inject -i @ -o @@/out.data --snapshot=sometime|'sometime' for --snapshot
inject -i @ -o @@/out.data --jit-dir @@/j|--jit-dir goes with --jit
inject -i @ -o @@/out.data --strip|--strip goes with --itrace
inject -i @@/none -o @@/out.data|@@/none
inject -i @@/passwd -o @@/out.data|@@/passwd
inject -i @@/empty -o @@/out.data|@@/empty
inject -i @ -o @|that is the input
inject -i @ -o - --snapshot=start|kcore_dir
inject -i @ --jit|--jit-dir
report --bogus|unknown option '--bogus'
report -i @ extra|unexpected argument 'extra'
report -i @ --sort foo|unknown sort key 'foo'
report -i @ -F bar|unknown field 'bar'
report -i @ --percent-limit x|bad value 'x' for --percent-limit
report -i @ --cpu 0|--cpu: the recording has no cpu
report -i @ --sort abi|no event samples the user registers
report -i @ --json --stdio|choose one
report -i @ --html @@|is a directory
report -i @@/none|@@/none
report -i @@/passwd|@@/passwd
EOF
echo "ok: $n bad invocations, each a non-zero exit and one line"
exit 0
