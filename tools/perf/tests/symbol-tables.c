// SPDX-License-Identifier: GPL-2.0-only
/*
 * Symbol tables: the rb-tree that mirrors perf's stays a valid red-black
 * tree in the same order as the sorted table through random inserts and
 * erasures; overlapping late symbols resolve like perf (outer one when it
 * sits above them in the tree); C++ names print as perf prints them.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "../util/symbol.h"

static int check_tree(void)
{
	struct symtree *t = symtree__new();
	struct symbol *syms[2000];
	int order[2000], nodes[2000];
	size_t i, nr, live = 0;
	unsigned int seed = 12345;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("symtree__new", t);
	for (i = 0; i < ARRAY_SIZE(syms); i++) {
		seed = seed * 1103515245 + 12345;
		/* few distinct starts: many equal keys */
		syms[i] = symbol__new((seed >> 16) % 300, 1, STB_GLOBAL, STT_FUNC, "s");
		if (!syms[i] || (nodes[i] = symtree__insert(t, syms[i])) < 0)
			goto out;
		if (symtree__check(t) < 0) {
			pr_debug("broken after insert %zu\n", i);
			goto out;
		}
	}
	for (i = 0; i < ARRAY_SIZE(syms); i += 1 + (i % 3)) {
		symtree__erase(t, nodes[i]);
		nodes[i] = -1;
		if (symtree__check(t) < 0) {
			pr_debug("broken after erase %zu\n", i);
			goto out;
		}
	}
	for (i = 0; i < ARRAY_SIZE(syms); i++)
		live += nodes[i] >= 0;
	nr = symtree__inorder(t, order);
	if (nr != live) {
		pr_debug("in-order walk: %zu nodes, %zu live\n", nr, live);
		goto out;
	}
	/* sorted by start, equal starts in insertion order (= node index) */
	for (i = 1; i < nr; i++) {
		const struct symbol *a = syms[order[i - 1]], *b = syms[order[i]];

		if (a->start > b->start || (a->start == b->start && order[i - 1] > order[i])) {
			pr_debug("out of order at %zu\n", i);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	symtree__delete(t);
	for (i = 0; i < ARRAY_SIZE(syms); i++)
		symbol__delete(syms[i]);
	return ret;
}

static int check_overlap(void)
{
	struct symbols syms;
	struct symbol *s;
	int ret = TEST_FAIL;

	symbols__init(&syms);
	symbols__use_tree(&syms);
	/* _init is unsized: the fixup stretches it to _start, across .plt */
	symbols__add(&syms, symbol__new(0x1000, 0, STB_GLOBAL, STT_FUNC, "_init"));
	symbols__add(&syms, symbol__new(0x1100, 0x40, STB_GLOBAL, STT_FUNC, "_start"));
	symbols__add(&syms, symbol__new(0x1200, 0x40, STB_GLOBAL, STT_FUNC, "main"));
	symbols__fixup(&syms, false);
	if (symbols__add_late(&syms, symbol__new(0x1030, 0x10, STB_GLOBAL, STT_FUNC, "rand@plt")))
		goto out;
	s = symbols__find(&syms, 0x1034);
	/* the late one is a leaf below _init: perf's search meets _init first */
	if (!s || strcmp(s->name, "_init")) {
		pr_debug("0x1034: %s, expected _init\n", s ? s->name : "nothing");
		goto out;
	}
	s = symbols__find(&syms, 0x1210);
	if (!s || strcmp(s->name, "main"))
		goto out;
	s = symbols__find(&syms, 0x1240);
	if (s && strcmp(s->name, "main")) /* last symbol's end */
		goto out;
	ret = TEST_OK;
out:
	symbols__exit(&syms);
	return ret;
}

static int check_demangle(struct test_suite *t)
{
	static const char *const cases[][2] = {
	    {"_ZNK2ns1A3barEi", "ns::A::bar"},
	    {"_Z3fooIlET_S0_", "foo<long>"},
	    {"_Z5plainlPKc", "plain"},
	    {"_ZNSt18__moneypunct_cacheIwLb0EED0Ev",
	     "std::__moneypunct_cache<wchar_t, false>::~__moneypunct_cache"},
	    {"_ZNSt8numpunctIcE22_M_initialize_numpunctEP15__locale_struct",
	     "std::numpunct<char>::_M_initialize_numpunct"},
	    {"_ZTv0_n24_NSoD1Ev", "virtual thunk to std::basic_ostream<char, "
				  "std::char_traits<char> >::~basic_ostream()"},
	    {"_ZdlPv", "operator delete"},
	    {"_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc",
	     "std::operator<< <std::char_traits<char> >"},
	    {"_ZN9__gnu_cxxmiIPiEEiT_S2_", "__gnu_cxx::operator-<int*>"},
	    {"_Z24ix86_comparison_operatorii", "ix86_comparison_operator"},
	    {"_ZN1AclEi", "A::operator()"},
	    {"_ZNK1AcviEv", "A::operator int"},
	    {"_ZTV1S", "vtable for S"},
	    /* as perf 6.1 printed __sanitizer::AddModuleSegments(...) [clone .part.0] */
	    {"_ZN11__sanitizer17AddModuleSegmentsEPKcPNS_24InternalMmapVectorNoCtorINS_"
	     "12LoadedModuleEEE.part.0",
	     "__sanitizer::AddModuleSegments"},
	    {"_Z3barv.cold", "bar"},
	    /* a lambda in a const member: as perf 6.1 printed it from libasan */
	    {"_ZZNK11__sanitizer25SuspendedThreadsListLinux17GetRegistersAndSPEmPNS_18"
	     "InternalMmapVectorImEEPmENKUlmE_clEm",
	     "__sanitizer::SuspendedThreadsListLinux::GetRegistersAndSP(unsigned long, "
	     "__sanitizer::InternalMmapVector<unsigned long>*, unsigned long*) "
	     "const::{lambda(unsigned long)#1}::operator()"},
	    /* Rust legacy names, as stock perf 6.1 printed them (libiberty's rules) */
	    {"_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h5c5a8e0e2b9f4d13E",
	     "std::rt::lang_start::{{closure}}"},
	    {"_ZN58_$LT$std..sys..fd..FileDesc$u20$as$u20$core..ops..Drop$GT$4drop17hc68340e1baa4987aE",
	     "<std::sys::fd::FileDesc as core::ops::Drop>::drop"},
	};
	char *probe = symbol__demangle("_Z1fv");
	size_t i;

	if (!probe) {
		test_skip(t, "libstdc++'s __cxa_demangle is not available");
		return TEST_SKIP;
	}
	free(probe);
	TEST_ASSERT_VAL("not mangled", !symbol__demangle("main"));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *d = symbol__demangle(cases[i][0]);
		bool ok = d && !strcmp(d, cases[i][1]);

		if (!ok)
			pr_debug("%s: \"%s\", expected \"%s\"\n", cases[i][0], d ?: "(null)",
				 cases[i][1]);
		free(d);
		if (!ok)
			return TEST_FAIL;
	}
	return TEST_OK;
}

static int test__symbol_tables(struct test_suite *t)
{
	int ret = check_tree();

	if (!ret)
		ret = check_overlap();
	if (!ret)
		ret = check_demangle(t);
	return ret;
}

struct test_suite suite__symbol_tables = {
    .desc = "Symbol tables: perf's rb-tree shape, overlaps, C++ names",
    .func = test__symbol_tables,
};
