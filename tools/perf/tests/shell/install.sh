#!/bin/bash
# install: man pages, --help and installed tests of make install
# SPDX-License-Identifier: GPL-2.0-only
#
# make install DESTDIR=<scratch> prefix=/usr from this tree, then, as a user
# of the installed files would:
# - a missing asciidoctor fails the install with a message, and no page
#   (nor a raw copy of an asciidoc source) lands in man1;
# - every command of 'perf-textpoke help' has its page, a roff page that
#   man -l renders, with no asciidoc markup left, listed in the top page;
# - perf finds perf-textpoke on PATH: 'perf textpoke version' works;
# - --help, 'help <command>', 'perf textpoke <command> --help' and stock
#   perf's 'perf help textpoke' run man on the right page (a fake man on
#   PATH records it), the real man shows it, -h stays the short usage;
# - the installed 'perf-textpoke test', run from another directory with
#   none of the TEXTPOKE variables, finds its shell tests, lib, workloads
#   and man sources, fails nothing, and says why it skips what it skips.
set -u
command -v perf >/dev/null 2>&1 || { echo "stock perf not installed"; exit 2; }
src=${TEXTPOKE_SRCDIR:?}
[ -f "$src/Makefile" ] || { echo "not a source tree ($src): make install is tested from the tree"; exit 2; }
if [ "$TEXTPOKE" -ef "$src/build-san/perf-textpoke" ]; then
	san=SANITIZE=1
elif [ "$TEXTPOKE" -ef "$src/tools/perf/perf-textpoke" ]; then
	san=
else
	echo "$TEXTPOKE is not a build of $src: make install would not install it"
	exit 2
fi
tmp=$(mktemp -d /tmp/textpoke-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

# run from make check: not the outer make's jobserver nor its variables
unset MAKEFLAGS MFLAGS MAKELEVEL

# no converter: -W makes one page out of date so that it must be converted
make -C "$src" -s install $san DESTDIR="$tmp/noconv" prefix=/usr ASCIIDOCTOR="$tmp/no-asciidoctor" \
	-W tools/perf/Documentation/perf-textpoke.txt >"$tmp/noconv.log" 2>&1 &&
	fail "make install succeeded without a converter: $(cat "$tmp/noconv.log")"
grep -q "no-asciidoctor not found: the man pages are built with it" "$tmp/noconv.log" ||
	fail "no clear message for a missing converter: $(cat "$tmp/noconv.log")"
[ -z "$(ls -A "$tmp/noconv/usr/share/man/man1" 2>/dev/null)" ] ||
	fail "without a converter man1 got: $(ls "$tmp/noconv/usr/share/man/man1")"
echo "ok: without asciidoctor: $(grep -m1 'not found' "$tmp/noconv.log")"

command -v asciidoctor >/dev/null 2>&1 ||
	{ echo "asciidoctor is not installed (make deps installs it): no man pages to check"; exit 2; }
root=$tmp/root
make -C "$src" -s install $san DESTDIR="$root" prefix=/usr >"$tmp/install.log" 2>&1 ||
	fail "make install: $(tail -5 "$tmp/install.log")"
bin=$root/usr/bin/perf-textpoke
man1=$root/usr/share/man/man1
cmp -s "$bin" "$TEXTPOKE" || fail "the installed binary is not the one under test"

# the pages: one per command, real roff
subs=$("$bin" help | sed -n 's/^   \([a-z][a-z-]*\)  .*/\1/p')
[ -n "$subs" ] || fail "perf-textpoke help lists no command: $("$bin" help 2>&1)"
MANWIDTH=80 man -l "$man1/perf-textpoke.1" >"$tmp/top.txt" 2>"$tmp/man.err" ||
	fail "man -l perf-textpoke.1: $(cat "$tmp/man.err")"
for page in perf-textpoke $(printf 'perf-textpoke-%s\n' $subs); do
	f=$man1/$page.1
	[ -f "$f" ] || fail "$page.1 not installed (man1: $(ls "$man1"))"
	grep -q '^\.TH "' "$f" || fail "$page.1 is not roff: $(head -3 "$f")"
	grep -nE '^(====|----)|\[verse\]|linkperf:|^[a-z-]+::$' "$f" &&
		fail "$page.1 holds asciidoc markup"
	MANWIDTH=80 man -l "$f" >"$tmp/page.txt" 2>"$tmp/man.err" || fail "man -l $page.1 failed"
	[ -s "$tmp/man.err" ] && fail "man -l $page.1 warned: $(head -3 "$tmp/man.err")"
	grep -q "^       $page - " "$tmp/page.txt" || fail "man -l $page.1 has no NAME line"
	grep -q "^SYNOPSIS" "$tmp/page.txt" || fail "man -l $page.1 has no SYNOPSIS"
done
for sub in $subs; do
	grep -q "^       $sub\$" "$tmp/top.txt" || fail "the top man page does not list '$sub'"
done
echo "ok: man pages for perf-textpoke and" $subs "render, the top page lists each"

# perf finds perf-textpoke on PATH
out=$(PATH="$root/usr/bin:$PATH" perf textpoke version 2>&1) || fail "perf textpoke version: $out"
case $out in
"perf-textpoke version "*) ;;
*) fail "unexpected: $out" ;;
esac
opts=$(PATH="$root/usr/bin:$PATH" perf textpoke version --build-options) || exit 1
for lib in libelf libtraceevent zstd capstone; do
	echo "$opts" | grep -Eq "^ *$lib: \[ (on|OFF) +\]$" || fail "no $lib line: $opts"
done
# an unknown subcommand is an error, not a silent success
PATH="$root/usr/bin:$PATH" perf textpoke no-such-command >/dev/null 2>&1 &&
	fail "unknown subcommand accepted"
echo "ok: perf textpoke version through stock perf"

# --help runs man on the right page; a fake man records which, and MANPATH
mkdir "$tmp/fake"
printf '#!/bin/sh\necho "$*" >>"%s"\necho "$MANPATH" >>"%s"\n' "$tmp/man.log" "$tmp/manpath.log" \
	>"$tmp/fake/man"
chmod +x "$tmp/fake/man"
# expect PAGE CMD...: CMD runs man on PAGE, and nothing else
expect() {
	local page=$1
	shift
	rm -f "$tmp/man.log" "$tmp/manpath.log"
	env -u PERF_MAN_VIEWER PATH="$root/usr/bin:$tmp/fake:$PATH" HOME="$tmp" "$@" \
		>"$tmp/help.out" 2>&1 || fail "$*: exit $?: $(cat "$tmp/help.out")"
	[ "$(cat "$tmp/man.log" 2>/dev/null)" = "$page" ] ||
		fail "$*: man got '$(cat "$tmp/man.log" 2>/dev/null)', not '$page'"
}
expect perf-textpoke perf-textpoke --help
expect perf-textpoke-script perf-textpoke script --help
expect perf-textpoke-record perf-textpoke help record
expect perf-textpoke-help perf-textpoke help --help
for sub in $subs; do
	expect "perf-textpoke-$sub" perf textpoke "$sub" --help
done
case $(head -1 "$tmp/manpath.log") in
"$root/usr/bin/../share/man:"*) ;;
*) fail "MANPATH does not start with the installed man directory: $(cat "$tmp/manpath.log")" ;;
esac
# stock perf turns 'perf textpoke --help' into 'perf help textpoke' itself
expect perf-textpoke perf textpoke --help
expect perf-textpoke perf help textpoke
echo "ok: --help and help <command> run man on perf-textpoke-<command>, through stock perf too"

rm -f "$tmp/man.log"
PATH="$root/usr/bin:$tmp/fake:$PATH" perf-textpoke script -h >"$tmp/h.out" 2>&1 ||
	fail "script -h: exit $?"
grep -q "^ Usage: perf textpoke script" "$tmp/h.out" || fail "script -h: $(head -3 "$tmp/h.out")"
[ -e "$tmp/man.log" ] && fail "script -h ran man"
PATH="$root/usr/bin:$tmp/fake:$PATH" perf-textpoke help no-such-command >"$tmp/h.out" 2>&1
[ $? = 129 ] || fail "help no-such-command: exit status not 129"
grep -q "'no-such-command' is not a textpoke command" "$tmp/h.out" ||
	fail "help no-such-command: $(cat "$tmp/h.out")"
printf '#!/bin/sh\necho "viewer $*" >"%s"\n' "$tmp/viewer.log" >"$tmp/viewer"
chmod +x "$tmp/viewer"
PERF_MAN_VIEWER="$tmp/viewer" "$bin" help code >/dev/null 2>&1 || fail "PERF_MAN_VIEWER: exit $?"
[ "$(cat "$tmp/viewer.log" 2>/dev/null)" = "viewer perf-textpoke-code" ] ||
	fail "PERF_MAN_VIEWER not run on perf-textpoke-code: $(cat "$tmp/viewer.log" 2>/dev/null)"
# the real man finds the installed page by name
env -u PERF_MAN_VIEWER MANPAGER=cat MANWIDTH=80 "$bin" script --help >"$tmp/real.out" 2>&1 ||
	fail "perf-textpoke script --help with man: $(head -3 "$tmp/real.out")"
grep -q "perf-textpoke-script - Print a recording like perf script" "$tmp/real.out" ||
	fail "man did not show perf-textpoke-script: $(head -5 "$tmp/real.out")"
echo "ok: -h is the usage, unknown commands refused, PERF_MAN_VIEWER honoured, man shows the page"

# the installed tests, from elsewhere, without the tree
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
run_installed() {
	env -u TEXTPOKE -u TEXTPOKE_SRCDIR -u TEXTPOKE_CORPUS HOME="$tmp" "$bin" test "$@"
}
run_installed -l >"$tmp/list.installed" 2>"$tmp/list.err" || fail "installed test -l: $(cat "$tmp/list.err")"
[ -s "$tmp/list.err" ] && fail "installed test -l: $(cat "$tmp/list.err")"
TEXTPOKE_SRCDIR=$src "$TEXTPOKE" test -l >"$tmp/list.tree"
cmp -s "$tmp/list.tree" "$tmp/list.installed" ||
	fail "installed tests differ from the tree's: $(diff "$tmp/list.tree" "$tmp/list.installed" | head -5)"
# a subset that needs the installed data (workloads, lib, man sources),
# one that needs the corpus, and this test, which needs the tree
names=("BPF programs recorded here hold their JIT bytes"
       "perf textpoke code lists a range as it was at a time"
       "call-graph dwarf recordings unwound"
       "every public corpus file prints or fails cleanly"
       "SYNOPSIS equals the usage"
       "installed tests of make install")
run_installed "${names[@]}" >"$tmp/run.out" 2>&1
rc=$?
cat "$tmp/run.out"
[ "$(grep -c '^ *[0-9]*: ' "$tmp/run.out")" = ${#names[@]} ] ||
	fail "installed test ran $(grep -c '^ *[0-9]*: ' "$tmp/run.out") tests, not ${#names[@]}"
grep -q "FAILED" "$tmp/run.out" && fail "the installed tests failed"
[ $rc = 0 ] || fail "installed test: exit $rc"
grep "Skip (" "$tmp/run.out" | grep -v "every public corpus file" | grep -v "installed tests of make install" |
	grep -v "needs root\|stock perf is not installed\|gcc is not installed" &&
	fail "a skip for want of installed data"
grep "every public corpus file" "$tmp/run.out" | grep -q "Skip (.*/usr/share/perf-textpoke/corpus.*set TEXTPOKE_CORPUS" ||
	fail "the corpus skip does not say where it looked and what to set"
grep "installed tests of make install" "$tmp/run.out" | grep -q "Skip (not a source tree" ||
	fail "the install test does not say it needs the tree"
echo "ok: installed perf-textpoke test, from $PWD: no failure, each skip says why"
exit 0
