#!/bin/bash
# annotate: --json figures as perf annotate's at every address, --html drawn in Chromium, outputs written through or replaced
# SPDX-License-Identifier: GPL-2.0-only
#
# One recording, no sampling: lib/annotate-samples.py writes (byte by
# byte, not with our writer) K+1 samples at the K-th instruction of
# lib/annotate-evex.c's function, and some at _fini, as annotate-evex.sh
# does.  --json: parsed by Python, its schema and sums checked, and at
# every address its figures equal to stock perf annotate --stdio's (the
# percent printed %.2f; the samples as perf -n prints them) and to our
# --stdio's (lib/annotate-json-check.py).  --html FILE: the page's lines
# are the JSON's instructions, and headless Chromium's screenshot shows
# the lines with samples as bands of red, in order, the hotter the
# redder (lib/annotate-html-check.py reads the PNG's pixels).  Outputs:
# --json alone is stdout; --json=/dev/stdout on a pipe and --json=FIFO are
# written through (the FIFO stays a FIFO); a regular file is replaced by
# a rename (a hard link to the old one keeps the old contents); --stdio
# with --json on stdout is refused.  The FIFO is held open by the test
# itself, so no reader's timing matters.
#
# Mutation caught: the JSON's "end" the symbol's last byte rather than
# the one past it (annotate-json.c): "instructions end at 401129, the
# symbol at 401128".  And: a stylesheet rule "td { background: #fff }" in
# annotate-html.c: the rows' style attributes are right, but no red band
# is drawn.  And: report_file__open() writing a file that exists in place
# ("through = through || !access(target, F_OK)"): the hard link to the old
# file sees the new JSON.

. "$(dirname "$0")/lib/common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
command -v objdump >/dev/null 2>&1 || skip "no objdump (binutils), which stock perf annotate runs"
scratch annotate-output
export HOME=$tmp
lib=$(dirname "$0")/lib

gcc -O1 -no-pie -o "$tmp/evex" "$lib/annotate-evex.c" 2>"$tmp/gcc.err" ||
	fail "gcc cannot build lib/annotate-evex.c: $(head -3 "$tmp/gcc.err")"
objdump -d --no-show-raw-insn "$tmp/evex" |
	awk '/^[0-9a-f]+ <evex_fn>:$/ { f = 1; next } f && /^$/ { exit }
	     f && $1 ~ /^[0-9a-f]+:$/ { sub(":", "", $1); print $1 }' >"$tmp/addrs"
[ "$(wc -l <"$tmp/addrs")" -ge 8 ] || fail "objdump lists $(wc -l <"$tmp/addrs") instructions"
fini=$(nm "$tmp/evex" | awk '$3 == "_fini" { print $1 }')
[ -n "$fini" ] || fail "nm shows no _fini"
# shellcheck disable=SC2046
python3 "$lib/annotate-samples.py" "$tmp/e.data" "$tmp/evex" $(cat "$tmp/addrs") "$fini" ||
	fail "annotate-samples.py"

perf annotate --stdio -i "$tmp/e.data" >"$tmp/perf.txt" 2>"$tmp/perf.err" ||
	fail "stock perf annotate: $(head -3 "$tmp/perf.err")"
perf annotate --stdio -n -i "$tmp/e.data" >"$tmp/perf-n.txt" 2>"$tmp/perf.err" ||
	fail "stock perf annotate -n: $(head -3 "$tmp/perf.err")"
grep -q "<evex_fn>:" "$tmp/perf.txt" || fail "stock perf annotate shows no evex_fn"
"$TEXTPOKE" annotate -i "$tmp/e.data" >"$tmp/ours.txt" 2>"$tmp/err" ||
	fail "annotate --stdio: $(head -3 "$tmp/err")"
"$TEXTPOKE" annotate -i "$tmp/e.data" --json >"$tmp/stdout.json" 2>"$tmp/err" ||
	fail "annotate --json: $(head -3 "$tmp/err")"
python3 "$lib/annotate-json-check.py" "$tmp/stdout.json" "$tmp/perf.txt" "$tmp/perf-n.txt" \
	"$tmp/ours.txt" >"$tmp/check" || fail "--json: $(head -5 "$tmp/check")"
echo "json: $(cat "$tmp/check")"

# a regular file: replaced whole by a rename, never written in place
echo old >"$tmp/out.json"
ln "$tmp/out.json" "$tmp/old.json"
"$TEXTPOKE" annotate -i "$tmp/e.data" --json="$tmp/out.json" --html="$tmp/out.html" \
	>"$tmp/none.txt" 2>"$tmp/err" || fail "annotate --json=FILE --html=FILE: $(head -3 "$tmp/err")"
[ -s "$tmp/none.txt" ] && fail "--json=FILE --html=FILE printed on stdout: $(head -2 "$tmp/none.txt")"
cmp -s "$tmp/out.json" "$tmp/stdout.json" || fail "--json=FILE differs from --json on stdout"
[ "$(cat "$tmp/old.json")" = old ] || fail "--json=FILE was written in place, not replaced"
echo "file: replaced by a rename, as stdout's"

# written through: /dev/stdout on a pipe, a FIFO
"$TEXTPOKE" annotate -i "$tmp/e.data" --json=/dev/stdout 2>"$tmp/err" | cat >"$tmp/pipe.json"
cmp -s "$tmp/pipe.json" "$tmp/stdout.json" ||
	fail "--json=/dev/stdout on a pipe: not the document: $(head -3 "$tmp/err")"
mkfifo "$tmp/fifo" || fail "mkfifo"
# the test holds the FIFO open (read-write, which does not block) so that
# a reader is there when annotate opens it, whatever the timing; the
# document, a few KiB, waits in the pipe's buffer until read back
exec 3<>"$tmp/fifo"
"$TEXTPOKE" annotate -i "$tmp/e.data" --json="$tmp/fifo" 2>"$tmp/err" ||
	fail "--json=FIFO: $(head -3 "$tmp/err")"
timeout 10 head -c "$(wc -c <"$tmp/stdout.json")" <&3 >"$tmp/fifo.json" ||
	fail "--json=FIFO: fewer bytes than the document came through"
exec 3<&-
[ -p "$tmp/fifo" ] || fail "--json=FIFO: the FIFO was replaced"
cmp -s "$tmp/fifo.json" "$tmp/stdout.json" || fail "--json=FIFO: not the document"
echo "through: /dev/stdout on a pipe and a FIFO get the document"

"$TEXTPOKE" annotate -i "$tmp/e.data" --stdio --json >"$tmp/both.txt" 2>"$tmp/err"
st=$?
[ $st != 0 ] && [ ! -s "$tmp/both.txt" ] && grep -q "stdout" "$tmp/err" ||
	fail "--stdio --json: exit $st, $(wc -c <"$tmp/both.txt") bytes, '$(head -1 "$tmp/err")'"

command -v chromium >/dev/null 2>&1 ||
	skip "Chromium part: chromium is not installed (make test-deps)"
timeout 50 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/chrome" --hide-scrollbars --window-size=760,460 \
	--screenshot="$tmp/out.png" "file://$tmp/out.html" >"$tmp/chrome.log" 2>&1
[ -s "$tmp/out.png" ] || { tail -5 "$tmp/chrome.log"; fail "no screenshot"; }
python3 "$lib/annotate-html-check.py" "$tmp/out.html" "$tmp/out.json" "$tmp/out.png" \
	>"$tmp/check" 2>&1 || fail "--html: $(head -5 "$tmp/check")"
echo "html: $(cat "$tmp/check")"
exit 0
