// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86 instruction decoding with capstone (64- and 32-bit code), branch targets named by the
 * caller (the symbol at the target as of the moment being shown, which
 * for BPF programs and trampolines depends on the time).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_CAPSTONE
#include <capstone/capstone.h>
#include <dlfcn.h>
#endif

#include "debug.h"
#include "disasm.h"

#ifdef HAVE_CAPSTONE
/*
 * libcapstone is opened when an instruction is first decoded, not linked:
 * its 77k relocations cost every run a few milliseconds and 150 page
 * faults at start-up, though most runs never disassemble.  The soname is
 * that of the header the build saw (capstone 4: libcapstone.so.4).
 */
#define CAPSTONE_SONAME__(v) "libcapstone.so." #v
#define CAPSTONE_SONAME_(v) CAPSTONE_SONAME__(v)
#define CAPSTONE_SONAME CAPSTONE_SONAME_(CS_API_MAJOR)

static struct {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh handle);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			    cs_insn *insn);
	bool (*insn_group)(csh handle, const cs_insn *insn, unsigned int group_id);
	void *lib;
	int err; /* 0 until tried, then 1 (loaded) or -EOPNOTSUPP */
} cs;

static int capstone__load(void)
{
	void *lib;

	if (cs.err)
		return cs.err < 0 ? cs.err : 0;
	cs.err = -EOPNOTSUPP;
	lib = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		pr_warning("disassembly needs %s: %s\n", CAPSTONE_SONAME, dlerror());
		return cs.err;
	}
	/* a function pointer from dlsym()'s void *, as POSIX allows */
#define CS_SYM(field, name)                                                               \
	do {                                                                              \
		*(void **)&cs.field = dlsym(lib, name);                                   \
		if (!cs.field) {                                                          \
			pr_warning("disassembly: %s has no %s\n", CAPSTONE_SONAME, name); \
			dlclose(lib);                                                     \
			return cs.err;                                                    \
		}                                                                         \
	} while (0)
	CS_SYM(open, "cs_open");
	CS_SYM(option, "cs_option");
	CS_SYM(malloc, "cs_malloc");
	CS_SYM(free, "cs_free");
	CS_SYM(close, "cs_close");
	CS_SYM(disasm_iter, "cs_disasm_iter");
	CS_SYM(insn_group, "cs_insn_group");
#undef CS_SYM
	cs.lib = lib;
	cs.err = 1;
	return 0;
}

/* one decoder per mode: [0] 64-bit, [1] 32-bit, opened when first needed */
static struct {
	csh handle;
	cs_insn *insn;
	bool open;
} disasm_modes[2];

static int disasm__init(int m)
{
	int err;

	if (disasm_modes[m].open)
		return 0;
	err = capstone__load();
	if (err)
		return err;
	if (cs.open(CS_ARCH_X86, m ? CS_MODE_32 : CS_MODE_64, &disasm_modes[m].handle) != CS_ERR_OK)
		return -ENOMEM;
	cs.option(disasm_modes[m].handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs.option(disasm_modes[m].handle, CS_OPT_DETAIL, CS_OPT_ON);
	disasm_modes[m].insn = cs.malloc(disasm_modes[m].handle);
	if (!disasm_modes[m].insn) {
		cs.close(&disasm_modes[m].handle);
		return -ENOMEM;
	}
	disasm_modes[m].open = true;
	return 0;
}

void disasm__exit(void)
{
	int m;

	for (m = 0; m < 2; m++) {
		if (!disasm_modes[m].open)
			continue;
		cs.free(disasm_modes[m].insn, 1);
		disasm_modes[m].insn = NULL;
		cs.close(&disasm_modes[m].handle);
		disasm_modes[m].open = false;
	}
	if (cs.lib) {
		dlclose(cs.lib);
		memset(&cs, 0, sizeof(cs));
	}
}

bool disasm__available(void)
{
	return !capstone__load();
}

/* capstone writes "%rsp, %rbp"; perf and objdump write "%rsp,%rbp" */
static void copy_operands(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n + 1 < size; src++) {
		if (*src == ' ' && n && dst[n - 1] == ',')
			continue;
		dst[n++] = *src;
	}
	dst[n] = '\0';
}

/*
 * capstone 4 spells the operand size of instructions that only have a
 * 64-bit form in long mode ("callq", "pushq"); objdump and perf no longer
 * do.  Only those: a general rule would turn cmovl into cmov.
 */
static const char *mnemonic(const char *m)
{
	static const char *const q[][2] = {
	    {"callq", "call"}, {"retq", "ret"},	    {"pushq", "push"},	 {"popq", "pop"},
	    {"jmpq", "jmp"},   {"leaveq", "leave"}, {"pushfq", "pushf"}, {"popfq", "popf"},
	};
	size_t i;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		if (!strcmp(m, q[i][0]))
			return q[i][1];
	}
	return m;
}

static bool insn__is_branch(csh handle, const cs_insn *insn)
{
	return cs.insn_group(handle, insn, CS_GRP_JUMP) || cs.insn_group(handle, insn, CS_GRP_CALL);
}

static int __disasm__one(int m, const u8 *bytes, size_t len, u64 addr, struct disasm_insn *out,
			 disasm_sym_fn sym, void *arg)
{
	const uint8_t *code = bytes;
	uint64_t pc = addr;
	size_t left = len;
	cs_insn *insn;
	csh handle;
	int n;

	n = disasm__init(m);
	if (n)
		return n;
	handle = disasm_modes[m].handle;
	insn = disasm_modes[m].insn;
	if (!cs.disasm_iter(handle, &code, &left, &pc, insn))
		return -EINVAL;
	out->addr = addr;
	out->len = insn->size;
	n = snprintf(out->text, sizeof(out->text), "%s", mnemonic(insn->mnemonic));
	if (n < 0 || (size_t)n >= sizeof(out->text))
		return insn->size;
	if (insn->detail && insn__is_branch(handle, insn) && insn->detail->x86.op_count == 1 &&
	    insn->detail->x86.operands[0].type == X86_OP_IMM) {
		u64 target = insn->detail->x86.operands[0].imm;
		char name[128];

		if (sym && sym(target, name, sizeof(name), arg))
			snprintf(out->text + n, sizeof(out->text) - n, " %s", name);
		else
			snprintf(out->text + n, sizeof(out->text) - n, " %#llx",
				 (unsigned long long)target);
	} else if (insn->op_str[0]) {
		out->text[n++] = ' ';
		copy_operands(out->text + n, sizeof(out->text) - n, insn->op_str);
	}
	return insn->size;
}

int disasm__one(const u8 *bytes, size_t len, u64 addr, struct disasm_insn *out, disasm_sym_fn sym,
		void *arg)
{
	return __disasm__one(0, bytes, len, addr, out, sym, arg);
}

int disasm__one_32(const u8 *bytes, size_t len, u64 addr, struct disasm_insn *out,
		   disasm_sym_fn sym, void *arg)
{
	return __disasm__one(1, bytes, len, addr, out, sym, arg);
}
#else
bool disasm__available(void)
{
	static bool warned;

	if (!warned) {
		pr_warning("disassembly needs capstone, not built in\n");
		warned = true;
	}
	return false;
}

void disasm__exit(void)
{
}

int disasm__one(const u8 *bytes, size_t len, u64 addr, struct disasm_insn *out, disasm_sym_fn sym,
		void *arg)
{
	return -EOPNOTSUPP;
}

int disasm__one_32(const u8 *bytes, size_t len, u64 addr, struct disasm_insn *out,
		   disasm_sym_fn sym, void *arg)
{
	return -EOPNOTSUPP;
}
#endif

static void describe_bytes(const u8 *bytes, size_t len, char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < len && n + 4 < size; i++)
		n += snprintf(buf + n, size - n, "%s%02x", i ? " " : "", bytes[i]);
}

void disasm__describe(const u8 *bytes, size_t len, u64 addr, char *buf, size_t size,
		      disasm_sym_fn sym, void *arg)
{
	struct disasm_insn insn;
	size_t off = 0, n = 0;
	bool all_nops = true;
	int nr = 0, l = 0;

	if (!size)
		return;
	buf[0] = '\0';
	if (!len) {
		snprintf(buf, size, "(none)");
		return;
	}
	/* first pass: only nops? then say how many bytes, as "nop5" */
	while (off < len) {
		l = disasm__one(bytes + off, len - off, addr + off, &insn, sym, arg);
		if (l <= 0)
			break;
		if (strncmp(insn.text, "nop", 3))
			all_nops = false;
		off += l;
	}
	if (off < len) {
		/* a lone prefix byte (a kprobe's original 0x48) reads best as is */
		if (l == -EOPNOTSUPP || len <= 8)
			describe_bytes(bytes, len, buf, size);
		else
			snprintf(buf, size, "<%zu bytes>", len);
		return;
	}
	if (all_nops) {
		snprintf(buf, size, "nop%zu", len);
		return;
	}
	/* a long body (a trampoline) is summarized by its first instructions */
	for (off = 0; off < len && n + 1 < size; off += l, nr++) {
		l = disasm__one(bytes + off, len - off, addr + off, &insn, sym, arg);
		if (nr == 3) {
			snprintf(buf + n, size - n, "; ... (%zu bytes)", len);
			return;
		}
		n += snprintf(buf + n, size - n, "%s%s", nr ? "; " : "", insn.text);
	}
}
