// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload whose CPU time is spent in BPF programs: each round loads a
 * straight-line socket filter (a different one each round, so each has its
 * own tag), runs it with BPF_PROG_TEST_RUN many times in this task, and
 * unloads it.  The JIT usually places the next program where the last one
 * was, which is the address reuse the machine model must resolve by time.
 * Usage: machine-bpf-spin [rounds]; exits 2 when BPF cannot be loaded.
 */
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_INSNS 3000

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	struct bpf_insn *insns = calloc(NR_INSNS + 2, sizeof(*insns));
	char packet[64] = {0};
	int r, i;

	if (!insns)
		return 1;
	insns[0] = (struct bpf_insn){.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0};
	for (i = 1; i <= NR_INSNS; i++)
		insns[i] = (struct bpf_insn){.code = BPF_ALU64 | BPF_ADD | BPF_K, .imm = i & 7};
	insns[NR_INSNS + 1] = (struct bpf_insn){.code = BPF_JMP | BPF_EXIT};

	for (r = 0; r < rounds; r++) {
		union bpf_attr load, run;
		int fd;

		memset(&load, 0, sizeof(load));
		load.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		load.insns = (unsigned long)insns;
		load.insn_cnt = NR_INSNS + 2;
		load.license = (unsigned long)"GPL";
		snprintf(load.prog_name, sizeof(load.prog_name), "spin%d", r);
		insns[1].imm = r + 1; /* another program, another tag */
		fd = sys_bpf(BPF_PROG_LOAD, &load);
		if (fd < 0) {
			perror("BPF_PROG_LOAD");
			return 2;
		}
		memset(&run, 0, sizeof(run));
		run.test.prog_fd = fd;
		run.test.data_in = (unsigned long)packet;
		run.test.data_size_in = sizeof(packet);
		run.test.repeat = 200000;
		if (sys_bpf(BPF_PROG_TEST_RUN, &run)) {
			perror("BPF_PROG_TEST_RUN");
			return 2;
		}
		close(fd);
		/* let the unload (an RCU callback) happen before the next load */
		usleep(50000);
	}
	free(insns);
	return 0;
}
