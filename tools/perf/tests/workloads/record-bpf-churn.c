// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF churn for perf textpoke record's tests and benchmark.
 *
 *   record-bpf-churn churn [N [MS]] N rounds of: load a socket filter
 *                                   (BPF_PROG_LOAD), attach it to a
 *                                   loopback UDP socket (SO_ATTACH_BPF),
 *                                   send a few packets, close; each
 *                                   program lives microseconds (default
 *                                   200), with MS milliseconds between
 *                                   rounds (default 0) to spread them out
 *   record-bpf-churn flash [N]      N programs loaded and closed at once,
 *                                   never attached: they live as long as
 *                                   one close() takes
 *   record-bpf-churn busy [SECONDS [V [FILE]]]
 *                                   one filter that loops on every packet,
 *                                   fed packets for SECONDS (default 1),
 *                                   and on until it has itself run a 20th
 *                                   of that in CPU time (the kernel's BPF
 *                                   run-time statistics, where it keeps
 *                                   them): a loaded machine delays it but
 *                                   cannot starve it of samples, which
 *                                   land in its JIT code; V (1 to
 *                                   999) makes the loop bound 4000 + V, a
 *                                   program of its own bytes and tag named
 *                                   tp_busy<V>; FILE gets the kernel's own
 *                                   view of it (BPF_OBJ_GET_INFO_BY_FD)
 *                                   appended: "<name> <addr> <JIT hex>"
 *
 * Prints the number of programs loaded; exit 2 when BPF is not allowed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SO_ATTACH_BPF
#define SO_ATTACH_BPF 50
#endif

#define INSN(c, d, s, o, i)                                                         \
	{                                                                           \
		.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) \
	}

static int prog_load(const struct bpf_insn *insns, unsigned int nr, const char *name)
{
	static char license[] = "GPL";
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = nr;
	attr.license = (unsigned long)license;
	strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
	return syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

static int udp_socket(struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return -1;
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)addr, sizeof(*addr)) ||
	    getsockname(s, (struct sockaddr *)addr, &len)) {
		close(s);
		return -1;
	}
	return s;
}

/* send @n packets to ourselves through the filter and read them back */
static void ping(int s, const struct sockaddr_in *addr, int n)
{
	char buf[64] = "textpoke";

	for (int i = 0; i < n; i++) {
		if (sendto(s, buf, sizeof(buf), 0, (const struct sockaddr *)addr, sizeof(*addr)) <
		    0)
			break;
		if (recv(s, buf, sizeof(buf), MSG_DONTWAIT) < 0)
			break;
	}
}

static int churn(int rounds, bool attach, int pause_ms)
{
	int loaded = 0;

	for (int i = 0; i < rounds; i++) {
		/* r0 = i | 0x10000 (bytes to keep; distinct code per round); exit */
		struct bpf_insn insns[] = {
		    INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0x10000 | i),
		    INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		};
		struct sockaddr_in addr;
		int prog = prog_load(insns, 2, "tp_churn");
		int s;

		if (prog < 0) {
			fprintf(stderr, "record-bpf-churn: BPF_PROG_LOAD: %s\n", strerror(errno));
			return errno == EPERM || errno == EACCES ? -2 : -1;
		}
		loaded++;
		if (!attach) {
			close(prog);
			continue;
		}
		s = udp_socket(&addr);
		if (s >= 0 && !setsockopt(s, SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog)))
			ping(s, &addr, 3);
		if (s >= 0)
			close(s);
		close(prog);
		if (pause_ms > 0)
			usleep(pause_ms * 1000);
	}
	return loaded;
}

/* the JIT image as the kernel reports it, for tests that check ours against it */
static int dump_jit(int prog, const char *path)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	unsigned char *insns;
	__u64 ksym = 0;
	FILE *f;
	__u32 i;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) || !info.jited_prog_len)
		return -1;
	insns = malloc(info.jited_prog_len);
	if (!insns)
		return -1;
	i = info.jited_prog_len;
	memset(&info, 0, sizeof(info));
	info.jited_prog_len = i;
	info.jited_prog_insns = (unsigned long)insns;
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = (unsigned long)&ksym;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr))) {
		free(insns);
		return -1;
	}
	f = fopen(path, "a");
	if (!f) {
		free(insns);
		return -1;
	}
	fprintf(f, "%s %llx ", info.name, (unsigned long long)ksym);
	for (i = 0; i < info.jited_prog_len; i++)
		fprintf(f, "%02x", insns[i]);
	fprintf(f, "\n");
	free(insns);
	return fclose(f) ? -1 : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The kernel's count of the time @prog has run, in seconds, while @stats
 * (BPF_ENABLE_STATS) is held; -1 when it keeps none
 */
static double prog_run_time(int prog, int stats)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	if (stats < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)))
		return -1;
	return info.run_time_ns / 1e9;
}

static int busy(double seconds, int variant, const char *dump)
{
	/* r1 = 0; loop: r1 += 1; if r1 < 4000 goto loop; r0 = -1; exit */
	struct bpf_insn insns[] = {
	    INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0),
	    INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1),
	    INSN(BPF_JMP | BPF_JLT | BPF_K, 1, 0, -2, 4000 + variant),
	    INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, -1),
	    INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct sockaddr_in addr;
	double end = now() + seconds;
	union bpf_attr attr;
	char name[16];
	int prog, s, stats;

	if (variant > 0)
		snprintf(name, sizeof(name), "tp_busy%u", (unsigned int)variant % 1000);
	else
		snprintf(name, sizeof(name), "tp_busy");
	prog = prog_load(insns, 5, name);

	if (prog < 0) {
		fprintf(stderr, "record-bpf-churn: BPF_PROG_LOAD: %s\n", strerror(errno));
		return errno == EPERM || errno == EACCES ? -2 : -1;
	}
	if (dump && dump_jit(prog, dump)) {
		fprintf(stderr, "record-bpf-churn: BPF_OBJ_GET_INFO_BY_FD: %s\n", strerror(errno));
		return -1;
	}
	s = udp_socket(&addr);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_ATTACH_BPF, &prog, sizeof(prog))) {
		fprintf(stderr, "record-bpf-churn: SO_ATTACH_BPF: %s\n", strerror(errno));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.enable_stats.type = BPF_STATS_RUN_TIME;
	stats = syscall(__NR_bpf, BPF_ENABLE_STATS, &attr, sizeof(attr));
	/* a sample lands in the program only while it runs: count its own time too */
	while (now() < end)
		ping(s, &addr, 100);
	if (prog_run_time(prog, stats) >= 0) {
		/* bounded all the same: a filter the packets never reach */
		double cap = now() + 30 + 20 * seconds;

		while (prog_run_time(prog, stats) < seconds / 20 && now() < cap)
			ping(s, &addr, 100);
	}
	if (stats >= 0)
		close(stats);
	close(s);
	close(prog);
	return 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "churn";
	int n;

	if (!strcmp(mode, "churn"))
		n = churn(argc > 2 ? atoi(argv[2]) : 200, true, argc > 3 ? atoi(argv[3]) : 0);
	else if (!strcmp(mode, "flash"))
		n = churn(argc > 2 ? atoi(argv[2]) : 200, false, 0);
	else if (!strcmp(mode, "busy"))
		n = busy(argc > 2 ? atof(argv[2]) : 1.0, argc > 3 ? atoi(argv[3]) : 0,
			 argc > 4 ? argv[4] : NULL);
	else {
		fprintf(
		    stderr,
		    "usage: record-bpf-churn churn [N [MS]] | flash [N] | busy [SECONDS [V [FILE]]]\n");
		return 1;
	}
	if (n < 0)
		return n == -2 ? 2 : 1;
	printf("%d\n", n);
	return 0;
}
