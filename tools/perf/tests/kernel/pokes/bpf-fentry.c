// SPDX-License-Identifier: GPL-2.0-only
/*
 * In the rig's guest: BPF trampolines that come and go on a kernel function
 * a busy loop calls (issue 21).
 *
 *   bpf-fentry KIND FUNC[,FUNC...] SECONDS [ROUNDS]
 *
 * KIND is fentry or fexit.  ROUNDS times (default 1): load a trivial
 * BPF_PROG_TYPE_TRACING program (r0 = 0; exit) for FUNC, the first of
 * those given that the kernel's BTF (/sys/kernel/btf/vmlinux) has,
 * attach it with BPF_LINK_CREATE, call getpid() in a loop for
 * SECONDS / ROUNDS, then detach and unload it.  SIGTERM ends the round in progress early and
 * still detaches before exiting, so that a killed helper's teardown is
 * the same as a finished one's.
 *
 * What the kernel does meanwhile: the trampoline's image arrives as a
 * KSYMBOL bpf_trampoline_<key>, FUNC's ftrace site goes nop5 -> call
 * (TEXT_POKE) and back at detach; an fexit trampoline's call of the
 * original function is followed by a nop5 that teardown pokes into a jmp.
 *
 * The loop calls getpid by syscall(): glibc's getpid() has not cached the
 * pid since 2.25, but a raw syscall does not depend on that.
 *
 * Prints "func <name> btf <id>", then one line per round: "<round>
 * <prog id> <calls>".  Exit 1 on any failure, with the call and errno;
 * exit 2 when BPF is not allowed.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/*
 * The BTF id of the first of FUNCS (names separated by commas) that the
 * running kernel's BTF has as a function, or a negative errno; the name
 * chosen is printed, since which one a kernel has varies: 6.1's
 * __x64_sys_getpid is an alias of the static __do_sys_getpid, and only
 * the latter is in its BTF.
 */
static int func_btf_id(char *funcs)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id = -ENOENT;
	char *f;

	if (!btf) {
		fprintf(stderr, "bpf-fentry: btf__load_vmlinux_btf: %s\n", strerror(errno));
		return -errno;
	}
	for (f = strtok(funcs, ","); f; f = strtok(NULL, ",")) {
		id = btf__find_by_name_kind(btf, f, BTF_KIND_FUNC);
		if (id >= 0) {
			printf("func %s btf %d\n", f, id);
			break;
		}
		fprintf(stderr, "bpf-fentry: %s: no BTF_KIND_FUNC in the kernel's BTF: %s\n", f,
			strerror(-id));
	}
	btf__free(btf);
	return id;
}

static int prog_load(enum bpf_attach_type type, int btf_id)
{
	static char license[] = "GPL";
	/* r0 = 0; exit: fentry and fexit programs must return 0 */
	struct bpf_insn insns[] = {
	    {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
	    {.code = BPF_JMP | BPF_EXIT},
	};
	static char log[4096];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACING;
	attr.expected_attach_type = type;
	attr.attach_btf_id = btf_id;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)license;
	attr.log_buf = (unsigned long)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	strncpy(attr.prog_name, type == BPF_TRACE_FEXIT ? "tp_fexit" : "tp_fentry",
		sizeof(attr.prog_name) - 1);
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		fprintf(stderr, "bpf-fentry: BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	return fd;
}

static int link_create(int prog)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	/* for tracing programs the kernel takes the type and target from the load */
	attr.link_create.attach_type = 0;
	fd = sys_bpf(BPF_LINK_CREATE, &attr);
	if (fd >= 0)
		return fd;
	/* kernels before 5.10 attach tracing programs only through this */
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.prog_fd = prog;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
	if (fd < 0)
		fprintf(stderr, "bpf-fentry: BPF_LINK_CREATE and BPF_RAW_TRACEPOINT_OPEN: %s\n",
			strerror(errno));
	return fd;
}

static unsigned int prog_id(int prog)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) ? 0 : info.id;
}

int main(int argc, char **argv)
{
	enum bpf_attach_type type;
	double seconds, end;
	int rounds, id, i;

	if (argc < 4 || (strcmp(argv[1], "fentry") && strcmp(argv[1], "fexit"))) {
		fprintf(stderr, "usage: bpf-fentry fentry|fexit FUNC[,FUNC...] SECONDS [ROUNDS]\n");
		return 1;
	}
	type = strcmp(argv[1], "fexit") ? BPF_TRACE_FENTRY : BPF_TRACE_FEXIT;
	seconds = atof(argv[3]);
	rounds = argc > 4 ? atoi(argv[4]) : 1;
	if (rounds < 1)
		rounds = 1;
	signal(SIGTERM, on_term);
	id = func_btf_id(argv[2]);
	if (id < 0)
		return 1;

	for (i = 0; i < rounds && !stop; i++) {
		unsigned long calls = 0;
		int prog, link;

		prog = prog_load(type, id);
		if (prog < 0)
			return errno == EPERM || errno == EACCES ? 2 : 1;
		link = link_create(prog);
		if (link < 0)
			return 1;
		end = now() + seconds / rounds;
		while (!stop && now() < end) {
			for (int k = 0; k < 1000; k++)
				syscall(SYS_getpid);
			calls += 1000;
		}
		close(link);
		printf("%d %u %lu\n", i, prog_id(prog), calls);
		close(prog);
	}
	return 0;
}
