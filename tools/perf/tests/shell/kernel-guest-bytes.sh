#!/bin/bash
# kernel-guest: perf textpoke code shows the bytes a real kernel held at its poked sites
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made on Debian's 6.1 kernel under qemu (tools/perf/tests/kernel/
# run-pokes.sh: tracepoint toggles, the function tracer, kprobes, a module,
# a toggler racing the recorder's kcore copy; KASLR on and off), by perf
# textpoke record and by stock perf record --kcore, each kept with its kcore
# cut down to the pages that hold a poked site (install-guest-data.py).
# The oracle is the kernel itself: truth-*.txt holds, for every poked site at
# every moment the guest read its own code from /proc/kcore (the read tied
# to perf's clock by the COMM records of prctl(PR_SET_NAME) around it), the
# bytes it read; site-moments whose read raced a poke of the site are left
# out.  At each, perf textpoke code --time from the recording's kcore
# (fitted) and from no kcore must show those bytes: none wrong, and in the
# kernel's text none unknown.  Issue 21 says this holds; what does not hold
# yet is printed by kernel/check-pokes.py, not asserted here, only counted:
# bytes shown at sites nothing mapped at that moment, and module-area bytes
# shown unknown where the kernel still held them (a kprobe slot after its
# poke with new len 0: the page stays until the slot cache frees it).
# Mutation caught: a site whose pokes each rewrite all of it takes, as the
# version after a poke, the poke's old bytes instead of its new ones
# (lib/textpoke/site.c, the memcpy into s->vbytes in the uniform case):
# the toggled sites show the other state.

. "$(dirname "$0")/lib/common.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
data=${TEXTPOKE_SRCDIR:?}/tools/perf/tests/data/kernel-guest
ls "$data"/truth-*.txt >/dev/null 2>&1 || skip "$data: no truth-*.txt in the tree"
command -v gzip >/dev/null 2>&1 || skip "gzip is not installed"
scratch kguest
export HOME=$tmp

# the recording as the guest wrote it: data and kcore_dir, unpacked
unpack() {
	local src=$data/$1 dst=$tmp/$1

	[ -d "$dst" ] && return 0
	mkdir -p "$dst/kcore_dir" || fail "mkdir $dst"
	gzip -dc "$src/data.gz" >"$dst/data" &&
		gzip -dc "$src/kcore_dir/kallsyms.gz" >"$dst/kcore_dir/kallsyms" &&
		gzip -dc "$src/kcore_dir/kcore.gz" >"$dst/kcore_dir/kcore" &&
		cp "$src/kcore_dir/modules" "$dst/kcore_dir/modules" ||
		fail "$src: cannot unpack"
}

equal=0 unmapped=0 unknown=0 groups=0
for truth in "$data"/truth-*.txt; do
	while read -r rec time lo len sites; do
		case $rec in '#'*) continue ;; esac
		unpack "$rec"
		for base in fit none; do
			opt=
			[ $base = none ] && opt=--no-kcore
			# shellcheck disable=SC2086
			"$TEXTPOKE" code -i "$tmp/$rec" $opt --time "$time" "$lo" "$len" \
				>"$tmp/out" 2>"$tmp/err" ||
				fail "$rec: code --time $time $lo $len ($base): $(head -3 "$tmp/err")"
			# every byte the listing shows, by address; then each site
			# against the kernel's bytes
			res=$(awk -v sites="$sites" -v rec="$rec" -v base="$base" -v time="$time" '
				# the low 48 bits: awk numbers are doubles, exact to
				# 2^53, and a group spans at most a few KB
				function hex(s,  i, v, c) {
					v = 0
					if (length(s) > 12)
						s = substr(s, length(s) - 11)
					for (i = 1; i <= length(s); i++) {
						c = index("0123456789abcdef", substr(s, i, 1)) - 1
						v = v * 16 + c
					}
					return v
				}
				# array subscripts as exact decimal strings (mawk
				# turns a large number into "%.6g")
				function key(v) { return sprintf("%.0f", v) }
				/^#/ { next }
				/^ *[0-9a-f]+:  / {
					sub(/:$/, "", $1)
					a = hex($1)
					if ($2 == "??" && $3 == "x") {
						for (i = 0; i < $4; i++) shown[key(a + i)] = "??"
						next
					}
					for (i = 2; i <= NF && $i ~ /^([0-9a-f][0-9a-f]|\?\?)$/; i++)
						shown[key(a++)] = $i
				}
				END {
					n = split(sites, s, " ")
					eq = um = unk = 0
					for (k = 1; k <= n; k++) {
						split(s[k], f, ":")
						if (f[4] == "unmapped") { um += f[3]; continue }
						a = hex(f[2])
						for (i = 0; i < f[3]; i++) {
							want = substr(f[4], 2 * i + 1, 2)
							got = key(a + i) in shown ? shown[key(a + i)] : "none"
							# the module area (slots, trampolines,
							# modules): unknown is no lie; kernel
							# text is always known here
							if (got == "??" && f[2] >= "ffffffffc0000000") {
								unk++
								continue
							}
							if (got != want) {
								printf "FAIL %s (%s) moment %s at %s: site %s+%d: the kernel held %s, shown %s\n",
									rec, base, f[1], time, f[2], i, want, got
								exit
							}
							eq++
						}
					}
					print "ok", eq, um, unk
				}' "$tmp/out")
			case $res in
			ok*) ;;
			*) cat "$tmp/out"; fail "${res#FAIL }" ;;
			esac
			# shellcheck disable=SC2086
			set -- $res
			equal=$((equal + $2)) unmapped=$((unmapped + $3)) unknown=$((unknown + $4))
		done
		groups=$((groups + 1))
	done <"$truth"
done
[ $groups -gt 0 ] || fail "no site-moment in $data/truth-*.txt"
echo "ok: $equal bytes equal to the kernel's at $groups site groups (fitted kcore and none);" \
	"not asserted: $unknown module-area bytes shown unknown, $unmapped at unmapped site-moments"
exit 0
