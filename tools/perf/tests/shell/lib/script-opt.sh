# SPDX-License-Identifier: GPL-2.0-only
# Shared by the script-opt*.sh tests: a comparison with stock perf script
# on a system-wide recording, narrowed to what foreign processes cannot
# disturb.  Sourced, not run.

. "$(dirname "${BASH_SOURCE[0]}")/script-common.sh"

# same_own NAME FILE SCRIPT-ARGS...: same_output, but the lines that name an
# object under /tmp other than ours are left out of both outputs alike:
# another test's workload may be deleted between the two runs, and its
# samples then resolve differently through no fault of ours.  Lines that
# match the regex $same_own_drop are left out of both too.
same_own() {
	local name=$1 file=$2 w
	shift 2
	HOME=$tmp perf script -i "$file" "$@" >"$tmp/$name.perf.all" 2>"$tmp/$name.perf.err" ||
		fail "$name: stock perf script failed: $(head -3 "$tmp/$name.perf.err")"
	"$TEXTPOKE" script -i "$file" "$@" >"$tmp/$name.ours.all" 2>"$tmp/$name.ours.err" ||
		fail "$name: perf textpoke script failed: $(head -3 "$tmp/$name.ours.err")"
	for w in perf ours; do
		awk -v own="$tmp/" -v drop="${same_own_drop:-^\001}" \
			'index($0, "/tmp/") && !index($0, own) { next } $0 ~ drop { next } { print }' \
			"$tmp/$name.$w.all" >"$tmp/$name.$w"
	done
	[ -s "$tmp/$name.perf" ] || fail "$name: stock perf printed nothing"
	if ! cmp -s "$tmp/$name.perf" "$tmp/$name.ours"; then
		diff -u "$tmp/$name.perf" "$tmp/$name.ours" | head -40
		fail "$name: output differs from stock perf script $*"
	fi
	echo "ok: $name ($(wc -l <"$tmp/$name.ours") lines equal to perf script $*)"
}
