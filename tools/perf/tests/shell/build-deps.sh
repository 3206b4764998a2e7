#!/bin/bash
# build: library probes follow the installed packages; make deps waits for apt's lock and shows its errors
# SPDX-License-Identifier: GPL-2.0-only
#
# A fresh machine's first plain make ran before make deps: the probes found
# no library, and a make after the install kept that stale answer and died
# in a compiler error.  Here the tree's Makefile probes into a scratch
# OUTPUT with a compiler that fails the probe of each library marked
# absent, and a scratch dpkg info directory holding the file list of each
# package marked installed:
#  - libelf absent: make stops before compiling anything, with one line of
#    detect.sh's naming libelf-dev and make deps, and leaves no fragment;
#  - libelf there, libipt absent: the fragment has libipt off, said once;
#  - make again: nothing probed again;
#  - libipt installed: probed again, libipt on; then removed: off again.
# Then scripts/apt-install.sh with apt-get and dpkg-query stand-ins: an
# apt-get update that finds its lock held is waited for, and a failed
# install prints apt-get's own error, for required and optional packages.
#
# Mutation caught: $(FEATURE_MK) without its FORCE when FEATURE_KEY differs
# from FEATURE_KEY_SEEN and without the dpkg lists as prerequisites (the
# installed libipt stays off).  Mutation caught: apt-install.sh's install
# errors sent to /dev/null (apt-get's "Unable to locate package" unsaid).

. "$(dirname "$0")/lib/common.sh"
src=$TEXTPOKE_SRCDIR
[ -f "$src/Makefile" ] && [ -f "$src/tools/build/detect.sh" ] && [ -f "$src/scripts/apt-install.sh" ] ||
	skip "no source tree beside the tests (an installed test): no Makefile to probe with"
command -v make >/dev/null 2>&1 || skip "make is not installed"
command -v gcc >/dev/null 2>&1 || skip "gcc is not installed"
scratch build-deps

out=$tmp/out/
dpkg=$tmp/dpkg
mkdir -p "$dpkg" "$tmp/bin"
# the compiler: gcc, but the probe of a library marked absent fails
cat >"$tmp/cc" <<EOS
#!/bin/sh
for a; do
	case "\$a" in */test-*.c)
		n=\${a##*/test-}; n=\${n%.c}
		[ -e "$tmp/absent-\$n" ] && exit 1 ;;
	esac
done
exec gcc "\$@"
EOS
chmod +x "$tmp/cc"

# probe GOAL: make in the tree, OUTPUT and the dpkg lists scratch ones
probe() {
	make --no-print-directory -C "$src" OUTPUT="$out" CC="$tmp/cc" DPKG_INFO="$dpkg" "$@" \
		>"$tmp/make.out" 2>"$tmp/make.err"
}
has() { grep -qx "FEATURES_ON += $1" "$out/features.mk"; }

touch "$tmp/absent-libelf" "$tmp/absent-libipt"
probe "${out}tools/perf/util/kcore.o" && fail "make succeeded without libelf"
line=$(head -1 "$tmp/make.err")
case "$line" in
"detect: libelf not found"*"libelf-dev"*"make deps"*) ;;
*) fail "libelf absent: first line '$line', not detect.sh's naming libelf-dev and make deps" ;;
esac
grep -q 'libipt' "$tmp/make.err" && fail "an optional library said while the build stops: $(cat "$tmp/make.err")"
[ -e "$out/features.mk" ] && fail "a fragment left behind with libelf missing"
find "$out" -name '*.o' | grep -q . && fail "objects compiled without libelf"
echo "ok: libelf absent: $line"

rm "$tmp/absent-libelf"
touch "$dpkg/libelf-dev:amd64.list"
probe "${out}features.mk" || fail "make with libelf: $(cat "$tmp/make.err")"
has libelf && ! has libipt || fail "libelf there, libipt absent: $(grep FEATURES "$out/features.mk")"
grep -q '^detect: libipt not found: Intel PT.*make deps installs libipt-dev' "$tmp/make.err" ||
	fail "libipt absent, not said: $(cat "$tmp/make.err")"
echo "ok: libipt absent: $(cat "$tmp/make.err")"

cp -p "$out/features.mk" "$tmp/features.before"
probe "${out}features.mk" || fail "make again: $(cat "$tmp/make.err")"
[ -s "$tmp/make.err" ] && fail "probed again with nothing installed: $(cat "$tmp/make.err")"
[ "$out/features.mk" -nt "$tmp/features.before" ] && fail "the fragment rewritten with nothing installed"
echo "ok: nothing installed, nothing probed again"

# dpkg writes a package's file list when it installs it, now
rm "$tmp/absent-libipt"
touch "$dpkg/libipt-dev.list"
probe "${out}features.mk" || fail "make after libipt's install: $(cat "$tmp/make.err")"
has libipt || fail "libipt installed, the fragment still has it off: $(grep FEATURES "$out/features.mk")"
touch "$tmp/absent-libipt"
rm "$dpkg/libipt-dev.list"
probe "${out}features.mk" || fail "make after libipt's removal: $(cat "$tmp/make.err")"
has libipt && fail "libipt removed, the fragment still has it on"
echo "ok: libipt installed, then removed: probed again each time"

# apt-install.sh: stand-ins for dpkg-query (nothing installed) and apt-get
cat >"$tmp/bin/dpkg-query" <<'EOS'
#!/bin/sh
exit 1
EOS
cat >"$tmp/bin/apt-get" <<EOS
#!/bin/sh
echo "\$*" >>"$tmp/apt.log"
case "\$*" in
*update*)
	# the lists lock held the first time, as by unattended-upgrades
	[ -e "$tmp/updated-once" ] && exit 0
	touch "$tmp/updated-once"
	echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
	exit 100 ;;
*no-such-pkg*)
	echo "E: Unable to locate package no-such-pkg" >&2
	exit 100 ;;
esac
exit 0
EOS
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/apt-get"
apt() { PATH="$tmp/bin:$PATH" APT_LOCK_POLL=0 sh "$src/scripts/apt-install.sh" "$@" >"$tmp/apt.out" 2>&1; }

if [ "$(id -u)" = 0 ]; then
	apt required gcc make || fail "apt-install.sh required gcc make: $(cat "$tmp/apt.out")"
	grep -q 'waiting' "$tmp/apt.out" || fail "the held lock not said: $(cat "$tmp/apt.out")"
	[ "$(grep -c update "$tmp/apt.log")" = 2 ] || fail "apt-get update not run again after the lock: $(cat "$tmp/apt.log")"
	grep -q 'DPkg::Lock::Timeout=[1-9].*install.* gcc make' "$tmp/apt.log" ||
		fail "apt-get install without a lock timeout: $(cat "$tmp/apt.log")"
	echo "ok: apt-get update waited for its lock; install waits for dpkg's"

	apt required gcc no-such-pkg && fail "apt-install.sh required succeeded with a failed install"
	grep -q 'Unable to locate package no-such-pkg' "$tmp/apt.out" ||
		fail "apt-get's error not shown (required): $(cat "$tmp/apt.out")"
	apt optional --no-install-recommends gdb no-such-pkg ||
		fail "apt-install.sh optional failed: $(cat "$tmp/apt.out")"
	grep -q 'no-such-pkg could not be installed' "$tmp/apt.out" &&
		grep -q 'Unable to locate package no-such-pkg' "$tmp/apt.out" ||
		fail "apt-get's error not shown (optional): $(cat "$tmp/apt.out")"
	grep -q 'install .*--no-install-recommends gdb' "$tmp/apt.log" || fail "gdb not installed: $(cat "$tmp/apt.log")"
	echo "ok: a failed install shows apt-get's error: $(grep Unable "$tmp/apt.out" | head -1)"
else
	apt required gcc && fail "apt-install.sh required succeeded as a user with packages missing"
	grep -q 'run: sudo apt-get install' "$tmp/apt.out" || fail "no apt-get line for a user: $(cat "$tmp/apt.out")"
	skip "not root: apt-install.sh's installs not tried"
fi
exit 0
