// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test helper: load a tiny BPF socket filter with BPF_PROG_LOAD, attach it
 * to a loopback UDP socket with SO_ATTACH_BPF, send a few packets, close;
 * repeat.  Each round makes the kernel emit KSYMBOL + BPF_EVENT on load
 * and unload.
 */
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SO_ATTACH_BPF
#define SO_ATTACH_BPF 50
#endif

static int prog_load(void)
{
	/* r0 = -1 (accept the whole packet); exit */
	struct bpf_insn insns[] = {
	    {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = -1},
	    {.code = BPF_JMP | BPF_EXIT},
	};
	static char license[] = "GPL";
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insn_cnt = 2;
	attr.insns = (unsigned long)insns;
	attr.license = (unsigned long)license;
	strcpy(attr.prog_name, "tp_sockfilt");
	return syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t len = sizeof(sa);
	char buf[64] = "textpoke";
	int i, k;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < rounds; i++) {
		int prog = prog_load();
		int rx = socket(AF_INET, SOCK_DGRAM, 0);
		int tx = socket(AF_INET, SOCK_DGRAM, 0);

		if (prog < 0 || rx < 0 || tx < 0) {
			perror("bpfload");
			return 1;
		}
		sa.sin_port = 0;
		if (bind(rx, (struct sockaddr *)&sa, sizeof(sa)) ||
		    getsockname(rx, (struct sockaddr *)&sa, &len) ||
		    setsockopt(rx, SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog))) {
			perror("bpfload");
			return 1;
		}
		for (k = 0; k < 8; k++) {
			sendto(tx, buf, sizeof(buf), 0, (struct sockaddr *)&sa, sizeof(sa));
			recv(rx, buf, sizeof(buf), 0);
		}
		close(tx);
		close(rx);
		close(prog);
		usleep(20000);
	}
	return 0;
}
