# SPDX-License-Identifier: GPL-2.0-only
# One line of `perf evlist -v` ("name: key: value, key: value, ...") into
# f[key] = value; returns the event's name.  For the record tests that
# compare our attrs with stock perf record's: awk -f this -f theirs.
function evlist_fields(line, f,    name, n, i, k, v, kv) {
	gsub(/\{ sample_period, sample_freq \}/, "period_or_freq", line)
	name = line
	sub(/: .*/, "", name)
	n = split(substr(line, length(name) + 3), kv, ", ")
	for (k in f)
		delete f[k]
	for (i = 1; i <= n; i++) {
		k = kv[i]
		v = k
		sub(/: .*/, "", k)
		sub(/^[^:]*: /, "", v)
		f[k] = v
	}
	return name
}
