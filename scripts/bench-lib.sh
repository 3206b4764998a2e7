# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by the bench scripts, which set $dir (scratch) and $runs.
#
# measure CMD...: the best CPU time (user + system) of $runs runs, in ms,
# and the max RSS of that run in kB.  CPU time, not wall time, so that
# other work on the machine disturbs the ratio as little as possible.
measure() {
	local best= bestrss= u s t rss
	for _ in $(seq "$runs"); do
		/usr/bin/time -o "$dir/time" -f '%U %S %M' "$@" >/dev/null 2>"$dir/err" ||
			{ cat "$dir/err" >&2; return 1; }
		read -r u s rss <"$dir/time"
		t=$(echo "($u + $s) * 1000" | bc)
		t=${t%.*}
		[ "$t" -gt 0 ] 2>/dev/null || t=1
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; bestrss=$rss; fi
	done
	echo "$best $bestrss"
}
