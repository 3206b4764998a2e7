#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The module experiment's results (run.sh's OUTDIR) against the kernel's
# own bytes: dummy.ko's .text as the guest read it from /proc/kcore
# between two COMM records must be what perf textpoke code shows then;
# before the load, after the free, and the init code after its init:
# unknown.  Stock perf must read the recording without a warning.  With
# several loads (experiment.sh churns first): before the first load,
# after the last free, the last load's init code after its init.
#
# Usage: check.sh [OUTDIR]   (exit 0: all held; 1 with what did not)
d=${1:-$(dirname "$0")/../../../../../build/kmod/out}
tp=${TEXTPOKE:-$(dirname "$0")/../../../perf-textpoke}
data=$d/mod.data
# stock perf's ~/.debug must not answer for it: a HOME of its own
HOME=$(mktemp -d) || exit 1
export HOME
trap 'rm -rf "$HOME"' EXIT
fail=0
no() { echo "FAILED: $*"; fail=1; }

text=$(awk '$1 == ".text" { print $2 }' "$d/sections")
init=$(awk '$1 == ".init.text" { print $2 }' "$d/sections")
len=$(wc -w <"$d/truth.text")
# the first load's time; the last load's (the one read) end of init and free
read -r t_load t_init_end t_free t_read_end < <(awk '$1 == "load" {
	if (!first) first = $4
	for (i = 5; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
} END { split(v["read"], r, "-"); print first, v["init_end"], v["free"], r[2] }' \
	"$data/kcore_dir/module_events")
if [ -z "$t_load" ] || [ -z "$t_free" ]; then
	no "module_events lacks the load or the free of dummy"
fi
t_read=$("$tp" script -i "$data" --show-task-events 2>/dev/null |
	awk '/COMM: gt-before/ { sub(":", "", $4); print $4 }')

# the bytes perf textpoke code shows for [ADDR, +LEN) at TIME, "??" for unknown ones
bytes() {
	"$tp" code -i "$data" --time "$3" "$1" "$2" 2>/dev/null | awk '
		!/^[0-9a-f]+: / { next }
		$2 == "??" && $3 == "x" { for (i = 0; i < $4; i++) printf "?? "; next }
		{ for (i = 2; i <= NF && $i ~ /^[0-9a-f][0-9a-f]$/; i++) printf "%s ", $i }' |
		xargs | cut -d' ' -f1-"$2"
}
ns_to_s() { awk -v t="$1" -v d="$2" 'BEGIN { printf "%.9f", (t + d) / 1e9 }'; }

got=$(bytes "$text" "$len" "$t_read")
want=$(cat "$d/truth.text")
[ "$got" = "$want" ] || no "dummy .text at $t_read: ours differs from the kernel's: $(cmp <(echo "$got" | tr ' ' '\n') <(echo "$want" | tr ' ' '\n'))"
echo "dummy .text at $t_read (the guest's read): $len bytes compared"
unknown16="?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ?? ??"
for c in "before the load|$text|$(ns_to_s "$t_load" -100000000)" \
	"after the free|$text|$(ns_to_s "$t_free" 100000000)" \
	"init code after its init|$init|$(ns_to_s "$t_init_end" 1000000)"; do
	IFS='|' read -r what addr t <<<"$c"
	got=$(bytes "$addr" 16 "$t")
	[ "$got" = "$unknown16" ] || no "$what ($addr at $t): '$got', not unknown"
	echo "$what ($addr at $t): $got"
done
# known in its init when the recorder read it before the end of init
got=$(bytes "$init" 16 "$(ns_to_s "$t_init_end" -1000000)")
if [ -n "$t_read_end" ] && [ "$t_read_end" -lt "$t_init_end" ]; then
	case $got in *"??"*|"") no "init code in its init: '$got'" ;; esac
else
	[ "$got" = "$unknown16" ] || no "init code read after its init: '$got', not unknown"
fi
echo "init code in its init (read by $t_read_end, init over at $t_init_end): $got"
for cmd in script report; do
	warn=$(perf $cmd -i "$data" 2>&1 >/dev/null | head -3)
	[ -z "$warn" ] || no "stock perf $cmd: $warn"
done
exit $fail
