// SPDX-License-Identifier: GPL-2.0-only
/*
 * KSYMBOL objects over time: BPF programs reuse the addresses of unloaded
 * ones, so a lookup must find the program that held the address at the
 * sample's time, whatever order the lookups come in.
 */
#include <string.h>

#include "machine-records.h"
#include "tests.h"
#include "../util/header.h"
#include "../util/symbol.h"
#include "../util/machine.h"

#define X 0xffffffffa0001000ULL
#define PROG_A "bpf_prog_6deef7357e7b4530_prog_a"
#define PROG_B "bpf_prog_0123456789abcdef_prog_b"

static int test__machine_ksymbol(struct test_suite *t)
{
	struct perf_env env = {.os_release = (char *)"0.0-not-this-kernel"};
	struct machine *m = machine__new(&env, NULL);
	union record_buf buf;
	struct perf_sample s;
	struct found f;
	int ret = TEST_FAIL;

	/* as inject --snapshot asks for them */
	if (m)
		machine__set_keep_text_pokes(m, true);

	TEST_ASSERT_VAL("machine__new", m);
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0,
					    0xffffffff81000000ULL, 0x1000000, 0xffffffff81000000ULL,
					    "[kernel.kallsyms]_text"),
			       sample__at(&s, 0));
	/* A at [X, X+0x100) from t=100 to t=200, B at [X, X+0x80) from t=300 */
	machine__process_event(m, record__ksymbol(&buf, X, 0x100, 1, false, PROG_A),
			       sample__at(&s, 100));
	machine__process_event(m, record__ksymbol(&buf, X, 0x100, 1, true, PROG_A),
			       sample__at(&s, 200));
	machine__process_event(m, record__ksymbol(&buf, X, 0x80, 1, false, PROG_B),
			       sample__at(&s, 300));
	/* an OOL trampoline elsewhere, still registered */
	machine__process_event(
	    m, record__ksymbol(&buf, X + 0x10000, 0x1000, 2, false, "ftrace_trampoline"),
	    sample__at(&s, 50));

	/* asked out of time order on purpose */
	resolve_kernel(m, X + 0x10, 350, &f);
	if (strcmp(f.sym, PROG_B) || strcmp(f.dso, PROG_B)) {
		pr_debug("t3.5: %s (%s), expected %s\n", f.sym, f.dso, PROG_B);
		goto out;
	}
	resolve_kernel(m, X + 0x10, 150, &f);
	if (strcmp(f.sym, PROG_A) || strcmp(f.dso, PROG_A) || f.addr != 0x10) {
		pr_debug("t1.5: %s (%s) +%#lx, expected %s +0x10\n", f.sym, f.dso,
			 (unsigned long)f.addr, PROG_A);
		goto out;
	}
	resolve_kernel(m, X + 0x10, 250, &f);
	if (strcmp(f.dso, "[unknown]")) {
		pr_debug("t2.5: %s (%s), expected nothing\n", f.sym, f.dso);
		goto out;
	}
	resolve_kernel(m, X + 0x90, 350, &f);
	if (strcmp(f.dso, "[unknown]")) {
		pr_debug("past B's end: %s (%s), expected nothing\n", f.sym, f.dso);
		goto out;
	}
	resolve_kernel(m, X + 0x90, 199, &f);
	if (strcmp(f.sym, PROG_A)) {
		pr_debug("A just before its unload: %s\n", f.sym);
		goto out;
	}
	resolve_kernel(m, X + 0x10, 100, &f);
	if (strcmp(f.sym, PROG_A)) {
		pr_debug("A at its load time: %s\n", f.sym);
		goto out;
	}
	resolve_kernel(m, X + 0x10, 99, &f);
	if (strcmp(f.dso, "[unknown]")) {
		pr_debug("before A: %s\n", f.sym);
		goto out;
	}
	/* no time: what is registered now */
	resolve_kernel(m, X + 0x10, 0, &f);
	if (strcmp(f.sym, PROG_B)) {
		pr_debug("now: %s, expected %s\n", f.sym, PROG_B);
		goto out;
	}
	resolve_kernel(m, X + 0x10100, 400, &f);
	if (strcmp(f.sym, "ftrace_trampoline") || f.addr != 0x100) {
		pr_debug("OOL: %s +%#lx\n", f.sym, (unsigned long)f.addr);
		goto out;
	}

	/* a register over a live object means its unregister was lost */
	machine__process_event(m, record__ksymbol(&buf, X, 0x80, 1, false, PROG_A),
			       sample__at(&s, 500));
	resolve_kernel(m, X + 0x10, 450, &f);
	if (strcmp(f.sym, PROG_B))
		goto out;
	resolve_kernel(m, X + 0x10, 550, &f);
	if (strcmp(f.sym, PROG_A))
		goto out;

	/* TEXT_POKE records are kept for the text image: a jump label 5-byte NOP -> jmp */
	{
		static const u8 poke[] = {0x0f, 0x1f, 0x44, 0x00, 0x00,
					  0xe9, 0x10, 0x00, 0x00, 0x00};
		const struct machine_text_poke *p;

		memset(&buf, 0, sizeof(buf));
		buf.event.header.type = PERF_RECORD_TEXT_POKE;
		buf.event.header.size = sizeof(buf.event.text_poke) + 16;
		buf.event.text_poke.addr = 0xffffffff81000100ULL;
		buf.event.text_poke.old_len = 5;
		buf.event.text_poke.new_len = 5;
		memcpy(buf.event.text_poke.bytes, poke, sizeof(poke));
		machine__process_event(m, &buf.event, sample__at(&s, 600));
		/* lengths past the record: dropped, not read */
		buf.event.text_poke.new_len = 100;
		machine__process_event(m, &buf.event, sample__at(&s, 601));
		TEST_ASSERT_EQUAL("pokes kept", machine__nr_text_pokes(m), 1);
		p = machine__text_poke(m, 0);
		TEST_ASSERT_VAL("poke", p && p->time == 600 && p->addr == 0xffffffff81000100ULL &&
					    p->old_len == 5 && p->new_len == 5 &&
					    !memcmp(p->bytes, poke, sizeof(poke)));
		TEST_ASSERT_EQUAL("dropped", machine__stats(m)->nr_text_poke_dropped, 1);
	}

	TEST_ASSERT_EQUAL("registrations", machine__stats(m)->nr_ksymbol, 4);
	TEST_ASSERT_EQUAL("unregistrations", machine__stats(m)->nr_ksymbol_unregister, 1);
	ret = TEST_OK;
out:
	machine__delete(m);
	return ret;
}

struct test_suite suite__machine_ksymbol = {
    .desc = "Machine model: KSYMBOL address reuse resolved by time, TEXT_POKE kept",
    .func = test__machine_ksymbol,
};
