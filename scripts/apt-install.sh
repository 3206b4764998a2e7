#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make deps and make test-deps: install the Debian packages missing here.
#
#   apt-install.sh required|optional [--no-install-recommends] PKG...
#
# required: all or nothing; a failure prints apt-get's own error and exits 1
# (not root: prints the apt-get line to run and exits 1).  optional: one
# package at a time, each failure said with apt-get's error, exit 0: the
# tests that need it skip, naming it.
#
# A fresh machine's unattended upgrades hold the dpkg lock for minutes:
# apt-get waits for it (DPkg::Lock::Timeout); apt-get update, whose lists
# lock that option does not cover, is tried again while another apt holds
# it, and only then.
mode=$1
shift
recommends=
if [ "$1" = --no-install-recommends ]; then
	recommends=$1
	shift
fi
wait_s=${APT_LOCK_WAIT:-900}
poll=${APT_LOCK_POLL:-5}

missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing:$missing; run: sudo apt-get install $recommends$missing" >&2
	[ "$mode" = optional ] && exit 0
	exit 1
fi

err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
export DEBIAN_FRONTEND=noninteractive

apt_update() {
	waited=0
	while ! apt-get -o DPkg::Lock::Timeout="$wait_s" update -qq >/dev/null 2>"$err"; do
		if grep -q 'Could not get lock' "$err" && [ "$waited" -lt "$wait_s" ]; then
			[ "$waited" = 0 ] && echo "deps: another apt-get holds its lock; waiting"
			sleep "$poll"
			waited=$((waited + poll))
			continue
		fi
		echo "deps: apt-get update failed:" >&2
		cat "$err" >&2
		return 1
	done
}

install() {
	apt-get -o DPkg::Lock::Timeout="$wait_s" install -y -qq $recommends "$@" >/dev/null 2>"$err"
}

echo "deps: installing$missing"
apt_update || [ "$mode" = optional ] || exit 1
if [ "$mode" = required ]; then
	# shellcheck disable=SC2086
	install $missing && exit 0
	echo "deps: apt-get install$missing failed:" >&2
	cat "$err" >&2
	exit 1
fi
for p in $missing; do
	install "$p" && continue
	echo "test-deps: $p could not be installed; the tests that need it will skip. apt-get said:" >&2
	sed 's/^/  /' "$err" >&2
done
exit 0
