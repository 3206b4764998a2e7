#!/bin/bash
# script: a pipe on stdin, -f and the ownership check, the pager, as perf script
# SPDX-License-Identifier: GPL-2.0-only
#
# Stock perf script reads a pipe on stdin when no -i is given (a file
# redirected to stdin is not a pipe: then it reads perf.data), refuses a
# file another user owns unless -f, and sends its output through
# PERF_PAGER, else PAGER, with LESS=FRSX, when stdout is a terminal;
# PERF_PAGER=cat and perf --no-pager mean no pager, and a stdout that is
# not a terminal never gets one.  Each case runs both programs the same
# way (a pty from python3 for the terminal) and compares what reached the
# pager, the terminal, the exit status and the message.
#
# Mutation caught: pager__setup() returning before it forks (the pager
# file is never written); the S_ISFIFO test on stdin in script__run()
# reading S_ISREG (the piped recording is not read).

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (the pty)"
scratch script-opt-io
export HOME=$tmp/home
mkdir -p "$HOME"
unset PERF_PAGER PAGER LESS

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/f.data" -e cpu-clock "$tmp/w64" 20000000
HOME=$tmp perf record -q -o - -e cpu-clock "$tmp/w64" 20000000 >"$tmp/pipe.data" 2>"$tmp/rec.err" ||
	fail "perf record -o -: $(head -3 "$tmp/rec.err")"

# stdin: a pipe, then a regular file (perf.data in the cwd is looked for, and is absent)
cat "$tmp/pipe.data" | HOME=$tmp perf script >"$tmp/stdin.perf" 2>&1 || fail "stock perf: stdin pipe"
cat "$tmp/pipe.data" | "$TEXTPOKE" script >"$tmp/stdin.ours" 2>"$tmp/stdin.err" ||
	fail "a pipe on stdin: $(head -3 "$tmp/stdin.err")"
[ -s "$tmp/stdin.perf" ] || fail "stock perf printed nothing for a pipe on stdin"
cmp -s "$tmp/stdin.perf" "$tmp/stdin.ours" || {
	diff -u "$tmp/stdin.perf" "$tmp/stdin.ours" | head -20
	fail "a pipe on stdin: output differs from perf script"
}
echo "ok: a pipe on stdin, $(wc -l <"$tmp/stdin.ours") lines as perf"
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && HOME=$tmp perf script <"$tmp/pipe.data" >/dev/null 2>&1) &&
	fail "stock perf reads a regular file on stdin: the test's premise is wrong"
(cd "$tmp/cwd" && "$TEXTPOKE" script <"$tmp/pipe.data" >"$tmp/regular.out" 2>&1) &&
	fail "a regular file on stdin was read; perf looks for perf.data"
grep -q "perf.data" "$tmp/regular.out" || fail "a regular file on stdin: $(head -1 "$tmp/regular.out")"
echo "ok: a regular file on stdin is not a pipe: perf.data is looked for"

# another user's file: refused with perf's message, read with -f
cp "$tmp/f.data" "$tmp/other.data"
chown 65534 "$tmp/other.data" || fail "chown"
msg="File $tmp/other.data not owned by current user or root (use -f to override)"
HOME=$tmp perf script -i "$tmp/other.data" >/dev/null 2>"$tmp/owner.perf" &&
	fail "stock perf reads another user's file without -f: the test's premise is wrong"
grep -qF "$msg" "$tmp/owner.perf" || fail "stock perf does not say: $msg"
"$TEXTPOKE" script -i "$tmp/other.data" >"$tmp/owner.out" 2>"$tmp/owner.err" &&
	fail "another user's file read without -f"
[ -s "$tmp/owner.out" ] && fail "another user's file refused after printing"
grep -qF "$msg" "$tmp/owner.err" || fail "ownership: says '$(head -1 "$tmp/owner.err")', not '$msg'"
echo "ok: another user's file refused: $msg"
same_output force "$tmp/other.data" -f

# on_tty OUT ENV... -- CMD...: CMD with a pty as stdin, stdout and stderr; what it wrote there
on_tty() {
	local out=$1
	shift
	python3 - "$out" "$@" <<'EOF'
import os, subprocess, sys
out, args = sys.argv[1], sys.argv[2:]
sep = args.index("--")
env = dict(os.environ)
for kv in args[:sep]:
    k, v = kv.split("=", 1)
    env[k] = v
m, s = os.openpty()
p = subprocess.Popen(args[sep + 1:], stdin=s, stdout=s, stderr=s, env=env)
os.close(s)
data = b""
while True:
    try:
        d = os.read(m, 65536)
    except OSError:
        break
    if not d:
        break
    data += d
open(out, "wb").write(data)
sys.exit(p.wait())
EOF
}

# paged NAME ENV...: both programs on a pty; the pager's input and LESS, and the terminal, agree
paged() {
	local name=$1 who
	shift
	for who in perf ours; do
		local cmd=(perf script) pre=()
		[ $who = ours ] && cmd=("$TEXTPOKE" script)
		rm -f "$tmp/pager.in" "$tmp/pager.env"
		on_tty "$tmp/$name.$who.tty" HOME="$HOME" "$@" -- "${cmd[@]}" -i "$tmp/f.data" ||
			fail "$name: $who exited non-zero on a pty"
		[ -e "$tmp/pager.in" ] && mv "$tmp/pager.in" "$tmp/$name.$who.paged"
		[ -e "$tmp/pager.env" ] && mv "$tmp/pager.env" "$tmp/$name.$who.env"
	done
	for f in tty paged env; do
		[ -e "$tmp/$name.perf.$f" ] || [ ! -e "$tmp/$name.ours.$f" ] ||
			fail "$name: we wrote the $f file, stock perf did not"
		[ -e "$tmp/$name.perf.$f" ] || continue
		[ -e "$tmp/$name.ours.$f" ] || fail "$name: stock perf wrote the $f file, we did not"
		cmp -s "$tmp/$name.perf.$f" "$tmp/$name.ours.$f" || {
			diff -u "$tmp/$name.perf.$f" "$tmp/$name.ours.$f" | head -10
			fail "$name: the $f output differs from stock perf's"
		}
	done
}
pager="cat >$tmp/pager.in; echo \"LESS=\$LESS\" >$tmp/pager.env"
paged perf-pager PERF_PAGER="$pager"
[ -s "$tmp/perf-pager.ours.paged" ] || fail "PERF_PAGER: nothing reached the pager"
grep -qx "LESS=FRSX" "$tmp/perf-pager.ours.env" || fail "PERF_PAGER: LESS is not FRSX"
echo "ok: PERF_PAGER gets the output, $(wc -l <"$tmp/perf-pager.ours.paged") lines, LESS=FRSX"
paged pager PAGER="$pager" LESS=R
grep -qx "LESS=R" "$tmp/pager.ours.env" || fail "PAGER: the user's LESS was replaced"
echo "ok: PAGER gets the output, the user's LESS is kept"
paged cat PERF_PAGER=cat PAGER="$pager"
[ -e "$tmp/cat.ours.paged" ] && fail "PERF_PAGER=cat: a pager was started"
grep -q "cpu-clock" "$tmp/cat.ours.tty" || fail "PERF_PAGER=cat: nothing on the terminal"
echo "ok: PERF_PAGER=cat prints on the terminal, as perf"
# perf --no-pager, and ours
rm -f "$tmp/pager.in"
on_tty "$tmp/nopager.tty" PAGER="$pager" -- "$TEXTPOKE" --no-pager script -i "$tmp/f.data" ||
	fail "--no-pager exited non-zero"
[ -e "$tmp/pager.in" ] && fail "--no-pager: a pager was started"
cmp -s "$tmp/nopager.tty" "$tmp/cat.perf.tty" || fail "--no-pager: the terminal shows another output"
echo "ok: perf textpoke --no-pager prints on the terminal"
# not a terminal: no pager
PAGER="$pager" "$TEXTPOKE" script -i "$tmp/f.data" >"$tmp/notty.out" || fail "not a tty: exit"
[ -e "$tmp/pager.in" ] && fail "stdout not a terminal, yet a pager was started"
echo "ok: no pager when stdout is not a terminal"
exit 0
