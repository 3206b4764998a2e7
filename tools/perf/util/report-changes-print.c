// SPDX-License-Identifier: GPL-2.0-only
/*
 * The code-change report as text, in perf report's style: '#' lines for
 * titles and column heads, plain lines for the rows.  A recording may have
 * 10^5 poked sites, so the sites come grouped by symbol and kind first and
 * only the busiest are listed one by one, the rest as counts.
 */
#include <stdlib.h>
#include <string.h>

#include "report-changes.h"

#define TIME_OPEN UINT64_MAX

static const char *fmt_time(char *buf, size_t size, u64 t)
{
	snprintf(buf, size, "%llu.%09llu", (unsigned long long)(t / 1000000000ULL),
		 (unsigned long long)(t % 1000000000ULL));
	return buf;
}

/* the symbol without its offset: what sites are grouped by */
static size_t sym_base_len(const char *sym)
{
	const char *plus = strchr(sym, '+');

	return plus ? (size_t)(plus - sym) : strlen(sym);
}

static u64 site_changes(const struct report_site *s)
{
	return s->nr_versions - 1;
}

static u64 site_samples(const struct report_site *s)
{
	u64 n = 0;
	size_t i;

	for (i = 0; i < s->nr_versions; i++)
		n += s->versions[i].nr_samples;
	return n;
}

struct site_rank {
	const struct report_site *site;
	u64 samples;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct site_rank *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (site_changes(x->site) != site_changes(y->site))
		return site_changes(x->site) > site_changes(y->site) ? -1 : 1;
	return x->site->addr < y->site->addr ? -1 : x->site->addr > y->site->addr;
}

struct site_group {
	const char *sym;
	size_t sym_len;
	enum report_site_kind kind;
	u64 sites, changes, samples, changed;
};

static int cmp_group_key(const void *a, const void *b)
{
	const struct site_group *x = a, *y = b;
	size_t n = x->sym_len < y->sym_len ? x->sym_len : y->sym_len;
	int c = memcmp(x->sym, y->sym, n);

	if (c)
		return c;
	if (x->sym_len != y->sym_len)
		return x->sym_len < y->sym_len ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static int cmp_group_rank(const void *a, const void *b)
{
	const struct site_group *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->changes != y->changes)
		return x->changes > y->changes ? -1 : 1;
	return cmp_group_key(a, b);
}

static void print_groups(const struct report_changes *rc, FILE *fp, size_t max)
{
	struct site_group *g = calloc(rc->nr_sites ?: 1, sizeof(*g));
	struct site_group rest = {0};
	size_t i, nr = 0;

	if (!g) {
		fprintf(fp, "# (out of memory grouping the sites)\n");
		return;
	}
	for (i = 0; i < rc->nr_sites; i++) {
		const struct report_site *s = &rc->sites[i];
		const char *sym = s->sym ? s->sym : "[unknown]";

		g[i] = (struct site_group){sym,
					   sym_base_len(sym),
					   s->kind,
					   1,
					   site_changes(s),
					   site_samples(s),
					   s->nr_samples_changed};
	}
	qsort(g, rc->nr_sites, sizeof(*g), cmp_group_key);
	for (i = 0; i < rc->nr_sites; i++) {
		if (nr && !cmp_group_key(&g[nr - 1], &g[i])) {
			g[nr - 1].sites++;
			g[nr - 1].changes += g[i].changes;
			g[nr - 1].samples += g[i].samples;
			g[nr - 1].changed += g[i].changed;
		} else {
			g[nr++] = g[i];
		}
	}
	qsort(g, nr, sizeof(*g), cmp_group_rank);

	fprintf(fp, "#\n# Sites by symbol and kind\n#\n");
	fprintf(fp, "# %7s  %9s  %9s  %9s  %-11s  %s\n", "sites", "changes", "samples", "changed",
		"kind", "symbol");
	fprintf(fp, "# .......  .........  .........  .........  ...........  ......\n");
	for (i = 0; i < nr; i++) {
		if (max && i >= max) {
			rest.sites += g[i].sites;
			rest.changes += g[i].changes;
			rest.samples += g[i].samples;
			rest.changed += g[i].changed;
			continue;
		}
		fprintf(fp, "  %7llu  %9llu  %9llu  %9llu  %-11s  %.*s\n",
			(unsigned long long)g[i].sites, (unsigned long long)g[i].changes,
			(unsigned long long)g[i].samples, (unsigned long long)g[i].changed,
			report_site_kind__name(g[i].kind), (int)g[i].sym_len, g[i].sym);
	}
	if (max && nr > max)
		fprintf(fp,
			"# and %zu more groups: %llu sites, %llu changes, %llu samples, %llu on "
			"changed code\n",
			nr - max, (unsigned long long)rest.sites, (unsigned long long)rest.changes,
			(unsigned long long)rest.samples, (unsigned long long)rest.changed);
	free(g);
}

static void print_site(const struct report_site *s, FILE *fp)
{
	char a[32], b[32];
	size_t j;

	fprintf(fp, "  %016llx  %-11s  %7llu  %20s  %20s  %9llu  %9llu  %s\n",
		(unsigned long long)s->addr, report_site_kind__name(s->kind),
		(unsigned long long)site_changes(s), fmt_time(a, sizeof(a), s->first_change),
		fmt_time(b, sizeof(b), s->last_change), (unsigned long long)site_samples(s),
		(unsigned long long)s->nr_samples_changed, s->sym ? s->sym : "[unknown]");
	for (j = 0; j < s->nr_versions; j++) {
		const struct report_version *v = &s->versions[j];

		fprintf(fp, "  %16s  v%-10zu  %7s  %20s  %17llu ns  %9llu  %9s  %s\n", "", j,
			v->changed ? "changed" : "", j ? fmt_time(a, sizeof(a), v->time) : "-",
			(unsigned long long)v->duration, (unsigned long long)v->nr_samples,
			j ? textpoke_verdict__str(v->verdict) : "-", v->desc ? v->desc : "");
	}
}

static void print_sites(const struct report_changes *rc, FILE *fp, size_t max)
{
	struct site_rank *rank = NULL;
	size_t i, n = rc->nr_sites;
	u64 rest_changes = 0, rest_samples = 0;

	fprintf(fp, "#\n# Sites");
	if (max && n > max)
		fprintf(fp, ": the %zu with the most samples, then changes", max);
	fprintf(fp, "\n#\n");
	fprintf(fp, "# %16s  %-11s  %7s  %20s  %20s  %9s  %9s  %s\n", "address", "kind", "changes",
		"first change", "last change", "samples", "changed", "symbol");
	fprintf(fp, "# %16s  %-11s  %7s  %20s  %20s  %9s  %9s  %s\n", "", "version", "", "since",
		"time in it", "samples", "verdict", "code");
	fprintf(fp, "# ................  ...........  .......  ....................  "
		    "....................  .........  .........  ......\n");
	if (max && n > max) {
		rank = malloc(n * sizeof(*rank));
		if (!rank) {
			fprintf(fp, "# (out of memory ranking the sites)\n");
			return;
		}
		for (i = 0; i < n; i++)
			rank[i] = (struct site_rank){&rc->sites[i], site_samples(&rc->sites[i])};
		qsort(rank, n, sizeof(*rank), cmp_rank);
		for (i = max; i < n; i++) {
			rest_changes += site_changes(rank[i].site);
			rest_samples += rank[i].samples;
		}
		n = max;
	}
	for (i = 0; i < n; i++)
		print_site(rank ? rank[i].site : &rc->sites[i], fp);
	if (rank)
		fprintf(fp, "# and %zu more sites: %llu changes, %llu samples\n",
			rc->nr_sites - max, (unsigned long long)rest_changes,
			(unsigned long long)rest_samples);
	free(rank);
}

static const char *region_type(u16 type)
{
	switch (type) {
	case 1:
		return "bpf";
	case 2:
		return "ool";
	case REPORT_REGION_OBJECT:
		return "object";
	default:
		return "other";
	}
}

static int cmp_region_rank(const void *a, const void *b)
{
	const struct report_region *x = *(const struct report_region *const *)a;
	const struct report_region *y = *(const struct report_region *const *)b;

	if (x->nr_samples != y->nr_samples)
		return x->nr_samples > y->nr_samples ? -1 : 1;
	if (x->nr_reused != y->nr_reused)
		return x->nr_reused > y->nr_reused ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* the regions that held its addresses too, after its name: " (also 22 46 69)" */
static void print_region(const struct report_changes *rc, const struct report_region *r, FILE *fp)
{
	char a[32], b[32], reused[96];
	size_t k, n = 0;

	reused[0] = '\0';
	for (k = 0; k < r->nr_reused && k < 8; k++)
		n += snprintf(reused + n, sizeof(reused) - n, "%s%zu", k ? " " : "  (also ",
			      r->reused[k]);
	if (k)
		snprintf(reused + n, sizeof(reused) - n, "%s)", k < r->nr_reused ? " ..." : "");
	fprintf(fp, "  %6zu  %-6s  %016llx  %8u  %20s  %20s  %9llu  %-7s  %6zu  %s%s\n",
		(size_t)(r - rc->regions), region_type(r->ksym_type), (unsigned long long)r->addr,
		r->len, r->start ? fmt_time(a, sizeof(a), r->start) : "-",
		r->end == TIME_OPEN ? "alive" : fmt_time(b, sizeof(b), r->end),
		(unsigned long long)r->nr_samples, r->bytes_known ? "known" : "unknown",
		r->nr_reused, r->name ? r->name : "[unknown]", reused);
}

static void print_regions(const struct report_changes *rc, FILE *fp, size_t max)
{
	const struct report_region **rank = NULL;
	size_t i, n = rc->nr_regions, nr_reused = 0;
	u64 rest_samples = 0;

	for (i = 0; i < rc->nr_regions; i++)
		nr_reused += !!rc->regions[i].nr_reused;
	fprintf(fp, "#\n# Regions: %zu, %zu sharing an address with another", rc->nr_regions,
		nr_reused);
	if (max && n > max)
		fprintf(fp, "; the %zu with the most samples, then reuse", max);
	fprintf(fp, "\n#\n");
	fprintf(fp, "# %6s  %-6s  %16s  %8s  %20s  %20s  %9s  %-7s  %6s  %s\n", "region", "type",
		"address", "len", "start", "end", "samples", "bytes", "reused", "name");
	fprintf(fp, "# ......  ......  ................  ........  ....................  "
		    "....................  .........  .......  ......  ....\n");
	if (max && n > max) {
		rank = malloc(n * sizeof(*rank));
		if (!rank) {
			fprintf(fp, "# (out of memory ranking the regions)\n");
			return;
		}
		for (i = 0; i < n; i++)
			rank[i] = &rc->regions[i];
		qsort(rank, n, sizeof(*rank), cmp_region_rank);
		for (i = max; i < n; i++)
			rest_samples += rank[i]->nr_samples;
		n = max;
	}
	for (i = 0; i < n; i++)
		print_region(rc, rank ? rank[i] : &rc->regions[i], fp);
	if (rank)
		fprintf(fp, "# and %zu more regions: %llu samples\n", rc->nr_regions - max,
			(unsigned long long)rest_samples);
	free(rank);
}

static void print_consistency(const struct report_changes *rc, FILE *fp)
{
	const struct report_consistency *c = &rc->consistency;

	fprintf(fp, "#\n# Consistency\n#\n");
	fprintf(fp, "#   pokes: %zu verified, %zu pre-applied, %zu mismatch, %zu unknown\n",
		c->verdicts[TEXTPOKE_VERIFIED], c->verdicts[TEXTPOKE_PRE_APPLIED],
		c->verdicts[TEXTPOKE_MISMATCH], c->verdicts[TEXTPOKE_UNKNOWN]);
	fprintf(fp,
		"#   records: %llu lost, %llu samples lost, %llu out of order; %zu pokes "
		"unmapped",
		(unsigned long long)c->nr_lost, (unsigned long long)c->nr_lost_samples,
		(unsigned long long)c->nr_unordered, c->nr_unmapped);
	if (c->nr_unmapped_module_space)
		fprintf(fp, " (%zu in module space)", c->nr_unmapped_module_space);
	fputc('\n', fp);
	fprintf(fp, "#   verdict: %s\n", c->verdict ? c->verdict : "(not finished)");
}

void report_changes__fprintf_opts(const struct report_changes *rc, FILE *fp,
				  const struct report_changes_print_opts *opts)
{
	size_t max_sites = opts ? opts->max_sites : 0, max_groups = opts ? opts->max_groups : 0;
	u64 changes = 0, samples = 0, changed = 0;
	char a[32], b[32];
	size_t i;

	for (i = 0; i < rc->nr_sites; i++) {
		changes += site_changes(&rc->sites[i]);
		samples += site_samples(&rc->sites[i]);
		changed += rc->sites[i].nr_samples_changed;
	}
	fprintf(fp, "# Kernel code changes\n#\n");
	fprintf(fp, "# %s .. %s (%llu ns): %zu sites changed %llu times, %zu regions\n",
		fmt_time(a, sizeof(a), rc->first_time), fmt_time(b, sizeof(b), rc->last_time),
		(unsigned long long)(rc->last_time - rc->first_time), rc->nr_sites,
		(unsigned long long)changes, rc->nr_regions);
	fprintf(fp,
		"# %llu kernel samples: %llu on poked sites, %llu while the site differed "
		"from its start\n",
		(unsigned long long)rc->nr_kernel_samples, (unsigned long long)samples,
		(unsigned long long)changed);
	if (rc->nr_sites) {
		print_groups(rc, fp, max_groups);
		print_sites(rc, fp, max_sites);
	}
	if (rc->nr_regions)
		print_regions(rc, fp, max_sites);
	print_consistency(rc, fp);
}

void report_changes__fprintf(const struct report_changes *rc, FILE *fp)
{
	struct report_changes_print_opts opts = {
	    .max_sites =
		rc->nr_sites + rc->nr_regions > REPORT_CHANGES_ALL_SITES ? REPORT_CHANGES_TOP : 0,
	    .max_groups = REPORT_CHANGES_TOP,
	};

	report_changes__fprintf_opts(rc, fp, &opts);
}
