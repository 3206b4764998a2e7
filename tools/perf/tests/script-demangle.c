// SPDX-License-Identifier: GPL-2.0-only
/*
 * C++ names cut to perf 6.1's form (libiberty, no parameters, no return
 * types); the expected names are what perf printed for the same symbols.
 */
#include <string.h>

#include "tests.h"
#include "../util/script-demangle.h"

static const struct {
	const char *full, *perf;
} cases[] = {
	{ "xlogue_layout::xlogue_layout(long, bool)", "xlogue_layout::xlogue_layout" },
	{ "void copy_warning<tree_node*, tree_node const*>(tree_node*, tree_node const*)",
	  "copy_warning<tree_node*, tree_node const*>" },
	{ "hash_table<spec_hasher, false, xcallocator>::expand()",
	  "hash_table<spec_hasher, false, xcallocator>::expand" },
	{ "operator new(unsigned long)", "operator new" },
	{ "S::operator int() const", "S::operator int" },
	{ "S::operator()(int)", "S::operator()" },
	{ "S::operator<(S const&) const", "S::operator<" },
	{ "S::operator<<(int)", "S::operator<<" },
	{ "main::{lambda(int)#1}::operator()(int) const", "main::{lambda(int)#1}::operator()" },
	{ "(anonymous namespace)::A::get() const", "(anonymous namespace)::A::get" },
	{ "long Box<long>::get() const", "Box<long>::get" },
	{ "std::vector<int, std::allocator<int> >::size() const &&",
	  "std::vector<int, std::allocator<int> >::size" },
	{ "foo(int) [clone .constprop.0]", "foo [clone .constprop.0]" },
	{ "vtable for S", "vtable for S" },
	{ "std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
	  "std::operator<< <std::char_traits<char> >" },
	{ "int __gnu_cxx::operator-<int*>(int*, int*)", "__gnu_cxx::operator-<int*>" },
	{ "plain_c_name", "plain_c_name" },
};

static int test__script_demangle(struct test_suite *t)
{
	char out[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		script_demangle__strip(cases[i].full, out, sizeof(out));
		if (strcmp(out, cases[i].perf)) {
			pr_debug("'%s' -> '%s', perf prints '%s'\n", cases[i].full, out, cases[i].perf);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

struct test_suite suite__script_demangle = { .desc = "script: C++ symbol names as perf 6.1 prints them", .func = test__script_demangle, };
