// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BPF JIT reader against real programs: each program loaded here
 * lives only until the next line closes it, yet its JIT image must be
 * captured, and must be that program's code (its distinct immediate
 * appears in the bytes).  Written as HEADER_BPF_PROG_INFO and read back by
 * our reader, the images come back unchanged.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "../util/bpf-capture.h"
#include "../util/header.h"
#include "../util/session.h"
#include "../util/writer.h"

#define NR_PROGS 100

static int load_prog(u32 imm)
{
	static char license[] = "GPL";
	struct bpf_insn insns[2];
	union bpf_attr attr;

	memset(insns, 0, sizeof(insns));
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[0].imm = imm;
	insns[1].code = BPF_JMP | BPF_EXIT;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)license;
	strcpy(attr.prog_name, "tp_capture");
	return sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

static bool has_imm(const u8 *insns, u32 len, u32 imm)
{
	for (u32 i = 0; i + 4 <= len; i++) {
		if (!memcmp(insns + i, &imm, 4))
			return true;
	}
	return false;
}

static int prog_id(int fd, u32 *id)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
		return -errno;
	*id = info.id;
	return 0;
}

static int test__record_bpf_capture(struct test_suite *t)
{
	char dir[] = "/tmp/textpoke-bpf-capture.XXXXXX", path[64];
	struct bpf_capture_stats st;
	struct perf_session *session = NULL;
	struct perf_writer *w;
	struct bpf_capture *cap;
	u32 ids[NR_PROGS];
	int ret = TEST_FAIL, nr_found = 0;

	if (geteuid()) {
		test_skip(t, "needs root to load BPF programs and read their JIT images");
		return TEST_SKIP;
	}
	cap = bpf_capture__new(NULL, 0);
	if (!cap) {
		test_skip(t, "no BPF side-band events here: %s", strerror(errno));
		return TEST_SKIP;
	}
	for (int i = 0; i < NR_PROGS; i++) {
		int fd = load_prog(0x5a0000 | i);

		if (fd < 0) {
			bpf_capture__delete(cap);
			test_skip(t, "cannot load a socket filter: %s", strerror(errno));
			return TEST_SKIP;
		}
		/* the id costs one syscall of lifetime; nothing else holds the program */
		if (prog_id(fd, &ids[i]))
			ids[i] = 0;
		close(fd);
	}
	bpf_capture__stop(cap);
	bpf_capture__stats(cap, &st);
	pr_debug("loads %llu captured %llu missed %llu lost %llu\n", (unsigned long long)st.loads,
		 (unsigned long long)st.captured, (unsigned long long)st.missed,
		 (unsigned long long)st.lost);
	for (int i = 0; i < NR_PROGS; i++) {
		const struct bpf_prog_capture *p = bpf_capture__find(cap, ids[i]);

		if (!ids[i] || !p) {
			pr_debug("program %u (#%d) not captured\n", ids[i], i);
			goto out;
		}
		TEST_ASSERT_VAL("JIT image", p->insns && p->info.jited_prog_len > 0);
		TEST_ASSERT_VAL("immediate in the JIT image",
				has_imm(p->insns, p->info.jited_prog_len, 0x5a0000 | i));
		TEST_ASSERT_VAL("ksyms", p->info.nr_jited_ksyms >= 1 && p->ksyms[0]);
		TEST_ASSERT_VAL("lengths", p->info.nr_jited_func_lens >= 1 && p->func_lens[0]);
	}

	/* through the writer and back through our reader */
	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	w = perf_writer__new(path, 0);
	TEST_ASSERT_VAL("writer", w);
	{
		struct perf_event_attr attr = {.type = PERF_TYPE_SOFTWARE,
					       .size = sizeof(attr),
					       .config = PERF_COUNT_SW_DUMMY};

		TEST_ASSERT_VAL("attr", perf_writer__add_attr(w, &attr, NULL, 0, "dummy") >= 0);
	}
	TEST_ASSERT_EQUAL("BPF_PROG_INFO", bpf_capture__write(cap, w), 0);
	TEST_ASSERT_EQUAL("close", perf_writer__close(w), 0);
	session = perf_session__new(path, NULL);
	if (!session)
		goto out_rm;
	for (int i = 0; i < session->env.nr_bpf_progs; i++) {
		const struct bpf_prog_info_entry *e = &session->env.bpf_progs[i];
		const struct bpf_prog_capture *p = bpf_capture__find(cap, e->id);

		if (!p || memcmp(e->tag, p->info.tag, 8))
			continue;
		if (e->jited_prog_len != p->info.jited_prog_len || !e->jited_prog_insns ||
		    memcmp(e->jited_prog_insns, p->insns, e->jited_prog_len) ||
		    e->nr_jited_ksyms != p->info.nr_jited_ksyms ||
		    e->jited_ksyms[0] != p->ksyms[0] || e->jited_func_lens[0] != p->func_lens[0]) {
			pr_debug("program %u read back differently\n", e->id);
			goto out_rm;
		}
		nr_found++;
	}
	pr_debug("%d programs read back\n", nr_found);
	if (nr_found >= NR_PROGS)
		ret = TEST_OK;
out_rm:
	perf_session__delete(session);
	unlink(path);
	rmdir(dir);
out:
	bpf_capture__delete(cap);
	return ret;
}

struct test_suite suite__record_bpf_capture = {
    .desc = "record: BPF JIT images of programs that live microseconds",
    .func = test__record_bpf_capture,
};
