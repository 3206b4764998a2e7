// SPDX-License-Identifier: GPL-2.0-only
/* the hand-made report of report-output-fixture.h */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "report-output-fixture.h"
#include "tests.h"

#define MS 1000000ULL

static const struct rof_string s_sh = {"sh", "sh"};
static const struct rof_string s_evil = {
    /* quote, backslash, newline, ^A, DEL, markup, U+2028 */
    "evil\"\\\n\x01\x7f<b>&'\xe2\x80\xa8",
    "evil\"\\\n\x01\x7f<b>&'\xe2\x80\xa8",
};
static const struct rof_string s_naive = {"na\xc3\xafve \xe2\x82\xac\xf0\x9d\x84\x9e",
					  "na\xc3\xafve \xe2\x82\xac\xf0\x9d\x84\x9e"};
static const struct rof_string s_schedule = {"schedule", "schedule"};
static const struct rof_string s_markup = {"</td><script>x()</script>",
					   "</td><script>x()</script>"};
/* a lone 0xff, an overlong '/', a UTF-16 surrogate, a sequence cut by the end */
static const struct rof_string s_badutf = {
    "bad\xff\xc0\xafname\xed\xa0\x80\xe2\x82",
    "bad\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdname\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
    "\xef\xbf\xbd\xef\xbf\xbd",
};
static const struct rof_string s_sched44 = {"schedule+0x44", "schedule+0x44"};
static const struct rof_string s_sct = {"__SCT__might_resched", "__SCT__might_resched"};
static const struct rof_string s_vfs = {"vfs_read+0x4", "vfs_read+0x4"};
static const struct rof_string s_svg = {"</svg><script>alert(1)</script>\"&'",
					"</svg><script>alert(1)</script>\"&'"};
static const struct rof_string s_none = {NULL, NULL};

static char *dup_str(const char *s)
{
	return (char *)s; /* the fixture's strings live as long as the program */
}

static void version(struct report_output_fixture *f, int s, int v, u64 time, u64 duration,
		    u64 samples, const char *desc, const u8 *bytes, const char *hex,
		    enum textpoke_verdict verdict)
{
	struct report_version *rv = &f->versions[s][v];

	rv->time = time;
	rv->duration = duration;
	rv->nr_samples = samples;
	rv->desc = dup_str(desc);
	rv->bytes = (u8 *)bytes;
	rv->verdict = verdict;
	/* as report-changes.c decides it: the bytes differ from version 0's */
	rv->changed = v && strcmp(hex, f->bytes_hex[s][0]);
	f->bytes_hex[s][v] = hex;
}

static void site(struct report_output_fixture *f, int s, u64 addr, u32 len,
		 const struct rof_string *sym, enum report_site_kind kind, size_t nr_versions,
		 u64 nr_changed)
{
	struct report_site *rs = &f->sites[s];

	rs->addr = addr;
	rs->len = len;
	rs->sym = dup_str(sym->raw);
	rs->kind = kind;
	rs->nr_versions = nr_versions;
	rs->versions = f->versions[s];
	rs->first_change = f->versions[s][1].time;
	rs->last_change = f->versions[s][nr_versions - 1].time;
	rs->nr_samples_changed = nr_changed;
	f->site_sym[s] = sym;
}

static const u8 nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static const u8 jmp5[5] = {0xe9, 0x37, 0x00, 0x00, 0x00};
static const u8 call_a[5] = {0xe8, 0xf7, 0x0c, 0x00, 0x00};
static const u8 call_b[5] = {0xe8, 0xf7, 0x0d, 0x00, 0x00};
static const u8 call_ft[5] = {0xe8, 0xfb, 0x0d, 0x00, 0x00};
static const u8 mov[1] = {0x48};
static const u8 int3[1] = {0xcc};
static const u8 jmp_opt[5] = {0xe9, 0x00, 0x10, 0x00, 0x20};
static const u8 nop5b[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};

static void entry(struct hist_entry *he, const struct rof_string *comm, u32 pid, const char *dso,
		  const struct rof_string *sym, u64 ip, char level, s32 cpu, u64 abi, u64 nr,
		  u64 period)
{
	he->comm = comm->raw;
	he->thread_comm = comm->raw;
	he->pid = pid;
	he->tid = pid + 1;
	he->dso = dso;
	he->sym = sym->raw;
	he->ip = ip;
	he->level = level;
	he->cpu = cpu;
	he->abi = abi;
	he->nr_samples = nr;
	he->period = period;
}

void report_output_fixture__init(struct report_output_fixture *f)
{
	const u64 T = ROF_T;
	int i;

	memset(f, 0, sizeof(*f));

	entry(&f->entries0[0], &s_sh, 100, "[kernel.kallsyms]", &s_schedule, 0xffffffff81000100,
	      'k', 0, 0, 40, 400);
	entry(&f->entries0[1], &s_evil, 101, "/usr/bin/evil", &s_none, 0x401234, '.', 1, 2, 25,
	      250);
	entry(&f->entries0[2], &s_naive, 102, "libc.so.6", &s_markup, 0x7f0000001000, '.', 2, 1, 20,
	      200);
	entry(&f->entries0[3], &s_sh, 100, "[kernel.kallsyms]", &s_badutf, 0xffffffff81000200, 'k',
	      3, 0, 15, 150);
	for (i = 0; i < 4; i++) {
		f->comm[i] = i == 0 || i == 3 ? &s_sh : i == 1 ? &s_evil : &s_naive;
		f->sym[i] = i == 0 ? &s_schedule :
			    i == 1 ? &s_none :
			    i == 2 ? &s_markup :
				     &s_badutf;
	}
	f->abi0[0] = (struct report_abi_count){.comm = s_sh.raw, .nr = {55, 0, 0, 0}};
	f->abi0[1] = (struct report_abi_count){.comm = s_evil.raw, .nr = {0, 20, 25, 1}};
	f->hists[0] = (struct report_hist){
	    .event_name = "cycles",
	    .nr_entries = 4,
	    .entries = f->entries0,
	    .nr_samples = 100,
	    .total_period = 1000,
	    .nr_comms = 2,
	    .abi_counts = f->abi0,
	};
	entry(&f->entries1[0], &s_sh, 100, "[kernel.kallsyms]", &s_schedule, 0xffffffff81000100,
	      'k', 0, 0, 10, 5000);
	f->hists[1] = (struct report_hist){
	    .event_name = "instructions",
	    .time_slices = "5.001,5.009",
	    .nr_entries = 1,
	    .entries = f->entries1,
	    .nr_samples = 10,
	    .total_period = 5000,
	};

	/* a jump label going jmp, nop, jmp */
	version(f, 0, 0, 0, 2 * MS, 30, "nop5", nop5, "0f 1f 44 00 00", TEXTPOKE_UNKNOWN);
	version(f, 0, 1, T + 2 * MS, 3 * MS, 12, "jmp schedule+0x80", jmp5, "e9 37 00 00 00",
		TEXTPOKE_VERIFIED);
	version(f, 0, 2, T + 5 * MS, 1 * MS, 5, "nop5", nop5b, "0f 1f 44 00 00", TEXTPOKE_VERIFIED);
	version(f, 0, 3, T + 6 * MS, 4 * MS, 7, "jmp schedule+0x80", jmp5, "e9 37 00 00 00",
		TEXTPOKE_PRE_APPLIED);
	site(f, 0, 0xffffffff81000104, 5, &s_sched44, REPORT_KIND_JUMP_LABEL, 4, 19);
	/* a static call retargeted and back, the way back a mismatch */
	version(f, 1, 0, 0, 2010000, 2, "call fk_target_a", call_a, "e8 f7 0c 00 00",
		TEXTPOKE_UNKNOWN);
	version(f, 1, 1, T + 2010000, 3 * MS, 1, "call fk_target_b", call_b, "e8 f7 0d 00 00",
		TEXTPOKE_VERIFIED);
	version(f, 1, 2, T + 5010000, 4990000, 0, "call fk_target_a", call_a, "e8 f7 0c 00 00",
		TEXTPOKE_MISMATCH);
	site(f, 1, 0xffffffff81000304, 5, &s_sct, REPORT_KIND_STATIC_CALL, 3, 1);
	version(f, 2, 0, 0, 2020000, 0, "nop5", nop5, "0f 1f 44 00 00", TEXTPOKE_UNKNOWN);
	version(f, 2, 1, T + 2020000, 3 * MS, 3, "call ftrace_caller", call_ft, "e8 fb 0d 00 00",
		TEXTPOKE_VERIFIED);
	version(f, 2, 2, T + 5020000, 4980000, 0, "nop5", nop5, "0f 1f 44 00 00", TEXTPOKE_UNKNOWN);
	site(f, 2, 0xffffffff81000400, 5, &s_vfs, REPORT_KIND_FTRACE, 3, 3);
	/* a kprobe on a hostile symbol */
	version(f, 3, 0, 0, 2030000, 1, "48", mov, "48", TEXTPOKE_UNKNOWN);
	version(f, 3, 1, T + 2030000, 3 * MS, 2, "int3", int3, "cc", TEXTPOKE_VERIFIED);
	version(f, 3, 2, T + 5030000, 4970000, 0, "48", mov, "48", TEXTPOKE_VERIFIED);
	site(f, 3, 0xffffffff81000504, 1, &s_svg, REPORT_KIND_KPROBE, 3, 2);
	/* no symbol, no bytes */
	version(f, 4, 0, 0, 7 * MS, 0, "66 90", NULL, "", TEXTPOKE_UNKNOWN);
	version(f, 4, 1, T + 7 * MS, 3 * MS, 0, "jmp 0xffffffff81000612", NULL, "",
		TEXTPOKE_UNKNOWN);
	site(f, 4, 0xffffffff81000600, 2, &s_none, REPORT_KIND_OTHER, 2, 0);
	f->versions[4][1].changed = true; /* jmp after 66 90, though neither's bytes are here */
	/* an optimized kprobe on a symbol that is not UTF-8 */
	version(f, 5, 0, 0, 8 * MS, 4, "nop5", nop5, "0f 1f 44 00 00", TEXTPOKE_UNKNOWN);
	version(f, 5, 1, T + 8 * MS, 2 * MS, 1, "jmp 0xffffffffa0003000", jmp_opt, "e9 00 10 00 20",
		TEXTPOKE_VERIFIED);
	site(f, 5, 0xffffffff81000700, 5, &s_badutf, REPORT_KIND_OPTPROBE, 2, 1);

	/* start order: the trampoline, then BPF A and B at one address */
	f->regions[0] = (struct report_region){
	    .name = "ftrace_trampoline",
	    .addr = 0xffffffffa0001000,
	    .len = 0x1000,
	    .ksym_type = 2,
	    .start = T + 3 * MS,
	    .end = T + 3201000,
	    .bytes_known = false,
	    .nr_samples = 1,
	};
	f->reused[0] = 2;
	f->reused[1] = 1;
	f->regions[1] = (struct report_region){
	    .name = "bpf_prog_a1a1a1a1a1a1a1a1_fk_a",
	    .addr = 0xffffffffc0002000,
	    .len = 0x40,
	    .ksym_type = 1,
	    .start = T + 4 * MS,
	    .end = T + 4200000,
	    .bytes_known = true,
	    .nr_samples = 3,
	    .nr_reused = 1,
	    .reused = &f->reused[0],
	};
	f->regions[2] = (struct report_region){
	    .name = "bpf_prog_b2b2b2b2b2b2b2b2_fk_b",
	    .addr = 0xffffffffc0002000,
	    .len = 0x30,
	    .ksym_type = 1,
	    .start = T + 4300000,
	    .end = UINT64_MAX,
	    .bytes_known = true,
	    .nr_samples = 4,
	    .nr_reused = 1,
	    .reused = &f->reused[1],
	};

	f->rc.first_time = T;
	f->rc.last_time = T + 10 * MS;
	f->rc.nr_sites = 6;
	f->rc.sites = f->sites;
	f->rc.nr_regions = 3;
	f->rc.regions = f->regions;
	f->rc.consistency.verdicts[TEXTPOKE_VERIFIED] = 7;
	f->rc.consistency.verdicts[TEXTPOKE_PRE_APPLIED] = 1;
	f->rc.consistency.verdicts[TEXTPOKE_MISMATCH] = 1;
	f->rc.consistency.verdicts[TEXTPOKE_UNKNOWN] = 2;
	f->rc.consistency.nr_lost = 2;
	f->rc.consistency.nr_lost_samples = 7;
	f->rc.consistency.nr_unordered = 1;
	f->rc.consistency.nr_unmapped = 1;
	f->rc.consistency.trusted = false;
	f->rc.consistency.verdict = "1 mismatched poke (lost events?): decoding at "
				    "__SCT__might_resched may be wrong";
	f->rc.nr_kernel_samples = 62;

	/* a sample every 0.1 ms, and a burst while the sites were changed */
	report_density__init(&f->density);
	for (i = 0; i < 100; i++)
		report_density__add(&f->density, T + i * 100000ULL);
	for (i = 0; i < 60; i++)
		report_density__add(&f->density, T + 2 * MS + i * 20000ULL);

	f->ro = (struct report_output){
	    .nr_hists = 2,
	    .hists = f->hists,
	    .changes = &f->rc,
	    .input = "perf.data",
	    .sort = "comm,pid,tid,dso,sym,cpu,abi",
	    .density = &f->density,
	    .nr_lost_samples = 7,
	};
}

char *rof_scratch__new(void)
{
	char *dir = strdup("/tmp/textpoke-routput.XXXXXX");

	if (dir && !mkdtemp(dir)) {
		pr_debug("mkdtemp: %m\n");
		zfree(&dir);
	}
	return dir;
}

void rof_scratch__remove(char *dir)
{
	char *cmd;

	if (!dir || getenv("ROF_KEEP"))
		return;
	if (asprintf(&cmd, "rm -rf '%s'", dir) >= 0) {
		if (system(cmd))
			pr_debug("could not remove %s\n", dir);
		free(cmd);
	}
	free(dir);
}

int rof_run(const char *cmd)
{
	int st;

	pr_debug("running: %s\n", cmd);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

void rof_hex(FILE *fp, const char *s)
{
	for (; *s; s++)
		fprintf(fp, "%02x", (unsigned char)*s);
}

const char *rof_script(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/tools/perf/tests/report-output/%s", test_srcdir(), name);
	return buf;
}

/* no network, no first-run or background work: only the page */
#define CHROMIUM                                                                     \
	"timeout 50 chromium --headless --no-sandbox --disable-gpu --disable-quic "  \
	"--no-first-run --disable-background-networking --disable-component-update " \
	"--disable-sync --user-data-dir='%s/chrome'"

int rof_check(const char *script, const char *doc, const char *expected)
{
	char buf[512], *cmd;
	int ret;

	if (asprintf(&cmd, "python3 '%s' '%s' '%s'", rof_script(script, buf, sizeof(buf)), doc,
		     expected) < 0)
		return -1;
	ret = rof_run(cmd);
	free(cmd);
	return ret;
}

int rof_chromium_dom(const char *dir, const char *html, const char *fragment, const char *expected)
{
	char path[512], *cmd;
	int ret;

	if (asprintf(&cmd, CHROMIUM " --dump-dom 'file://%s%s' >'%s/dom.html' 2>'%s/chrome.log'",
		     dir, html, fragment ? fragment : "", dir, dir) < 0)
		return -1;
	ret = rof_run(cmd);
	free(cmd);
	if (ret) {
		pr_debug("chromium --dump-dom failed, see %s/chrome.log\n", dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/dom.html", dir);
	return rof_check("html-check.py", path, expected);
}

int rof_chromium(const char *dir, const char *html, const char *expected_dom,
		 const char *shot_fragment, const char *pixels, const char *keep)
{
	char path[512], script[512], *cmd = NULL;
	unsigned int w, h, colours, permille;
	FILE *fp;
	int ret = -1;

	if (rof_chromium_dom(dir, html, NULL, expected_dom)) {
		pr_debug("Chromium's DOM lacks lanes or changes\n");
		goto out;
	}
	if (asprintf(&cmd,
		     CHROMIUM " --screenshot='%s/shot.png' --window-size=1200,800 'file://%s%s' "
			      ">'%s/chrome.log' 2>&1",
		     dir, dir, html, shot_fragment ? shot_fragment : "", dir) < 0 ||
	    rof_run(cmd)) {
		pr_debug("chromium --screenshot failed, see %s/chrome.log\n", dir);
		goto out;
	}
	free(cmd);
	cmd = NULL;
	if (pixels) {
		char shot[512];

		/* what is drawn where: this says more than "not blank" */
		snprintf(shot, sizeof(shot), "%s/shot.png", dir);
		if (rof_check("timeline-pixels.py", shot, pixels)) {
			pr_debug("the screenshot's timeline is not what the times say\n");
			goto out;
		}
		goto keep;
	}
	if (asprintf(&cmd, "python3 '%s' '%s/shot.png' >'%s/shot.stats'",
		     rof_script("png-stats.py", script, sizeof(script)), dir, dir) < 0 ||
	    rof_run(cmd))
		goto out;
	snprintf(path, sizeof(path), "%s/shot.stats", dir);
	fp = fopen(path, "r");
	if (!fp)
		goto out;
	if (fscanf(fp, "%u %u %u %u", &w, &h, &colours, &permille) != 4) {
		fclose(fp);
		goto out;
	}
	fclose(fp);
	pr_debug("screenshot: %ux%u, %u colours, %u/1000 not white\n", w, h, colours, permille);
	/* lanes in several kind colours, text, bars: far from a blank page */
	if (w != 1200 || h != 800 || colours < 16 || permille < 30)
		goto out;
keep:
	if (keep) {
		free(cmd);
		if (asprintf(&cmd, "cp '%s/shot.png' '%s'", dir, keep) < 0 || rof_run(cmd))
			goto out;
	}
	ret = 0;
out:
	free(cmd);
	return ret;
}
