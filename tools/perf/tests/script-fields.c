// SPDX-License-Identifier: GPL-2.0-only
/*
 * -F as perf script parses it: replacing, adding and removing fields,
 * per event type, and the errors perf gives (checked against perf 6.1:
 * "Invalid field requested.", "Cannot mix +-field with overridden
 * fields", "Samples for 'cpu-clock' event do not have CPU attribute set").
 */
#include "tests.h"
#include "../util/evsel.h"
#include "../util/script-fields.h"

static int test__script_fields(struct test_suite *t)
{
	struct evsel evsel = {.name = (char *)"cpu-clock"};
	struct script_fields sf;
	u64 sw;

	evsel.attr.type = PERF_TYPE_SOFTWARE;
	evsel.attr.sample_type =
	    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;

	/* defaults: perf 6.1's software set, cpu dropped for want of PERF_SAMPLE_CPU */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("check", !script_fields__check_evsel(&sf, &evsel));
	sw = script_fields__get(&sf, PERF_TYPE_SOFTWARE);
	TEST_ASSERT_EQUAL("sw defaults", sw,
			  SF_COMM | SF_TID | SF_TIME | SF_EVNAME | SF_IP | SF_SYM | SF_SYMOFFSET |
			      SF_DSO | SF_PERIOD | SF_BPF_OUTPUT);
	TEST_ASSERT_EQUAL("tracepoint defaults", script_fields__get(&sf, PERF_TYPE_TRACEPOINT),
			  SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME | SF_TRACE);

	/* a list replaces every type's fields; trace is ignored where invalid */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("list", !script_fields__parse(&sf, "comm,tid,trace"));
	TEST_ASSERT_EQUAL("sw list", script_fields__get(&sf, PERF_TYPE_SOFTWARE), SF_COMM | SF_TID);
	TEST_ASSERT_EQUAL("tp list", script_fields__get(&sf, PERF_TYPE_TRACEPOINT),
			  SF_COMM | SF_TID | SF_TRACE);

	/* +/- edit the defaults */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("edit", !script_fields__parse(&sf, "+abi,-period"));
	sw = script_fields__get(&sf, PERF_TYPE_SOFTWARE);
	TEST_ASSERT_VAL("+abi", sw & SF_ABI);
	TEST_ASSERT_VAL("-period", !(sw & SF_PERIOD));
	TEST_ASSERT_VAL("kept", sw & SF_SYMOFFSET);

	/* a type prefix leaves the other types alone */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("typed", !script_fields__parse(&sf, "sw:comm,ip"));
	TEST_ASSERT_EQUAL("sw typed", script_fields__get(&sf, PERF_TYPE_SOFTWARE), SF_COMM | SF_IP);
	TEST_ASSERT_VAL("hw untouched", script_fields__get(&sf, PERF_TYPE_HARDWARE) & SF_PERIOD);

	/* errors */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("unknown field", script_fields__parse(&sf, "comm,bogus"));
	TEST_ASSERT_VAL("mix", script_fields__parse(&sf, "comm,+tid"));
	TEST_ASSERT_VAL("bad type", script_fields__parse(&sf, "gpu:comm"));
	TEST_ASSERT_VAL("trace on sw", script_fields__parse(&sf, "sw:trace"));
	TEST_ASSERT_VAL("none for all", script_fields__parse(&sf, ""));

	/* asking for data the samples lack is an error, not a silent drop */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("cpu", !script_fields__parse(&sf, "comm,cpu"));
	TEST_ASSERT_VAL("cpu missing", script_fields__check_evsel(&sf, &evsel));
	script_fields__init(&sf);
	TEST_ASSERT_VAL("abi", !script_fields__parse(&sf, "+abi"));
	TEST_ASSERT_VAL("regs missing", script_fields__check_evsel(&sf, &evsel));
	evsel.attr.sample_type |= PERF_SAMPLE_REGS_USER;
	TEST_ASSERT_VAL("regs present", !script_fields__check_evsel(&sf, &evsel));

	/*
	 * sym needs samples with an address, not the ip field (perf prints
	 * "-F comm,sym" as comm alone); symoff needs sym
	 */
	script_fields__init(&sf);
	TEST_ASSERT_VAL("sym", !script_fields__parse(&sf, "comm,sym"));
	TEST_ASSERT_VAL("sym without ip", !script_fields__check_evsel(&sf, &evsel));
	evsel.attr.sample_type &= ~PERF_SAMPLE_IP;
	TEST_ASSERT_VAL("sym without an address", script_fields__check_evsel(&sf, &evsel));
	script_fields__init(&sf);
	TEST_ASSERT_VAL("dso", !script_fields__parse(&sf, "comm,dso"));
	TEST_ASSERT_VAL("dso without an address", script_fields__check_evsel(&sf, &evsel));
	evsel.attr.sample_type |= PERF_SAMPLE_ADDR;
	TEST_ASSERT_VAL("dso with addr", !script_fields__check_evsel(&sf, &evsel));
	evsel.attr.sample_type |= PERF_SAMPLE_IP;
	script_fields__init(&sf);
	TEST_ASSERT_VAL("symoff", !script_fields__parse(&sf, "ip,symoff"));
	TEST_ASSERT_VAL("symoff without sym", script_fields__check_evsel(&sf, &evsel));
	return TEST_OK;
}

struct test_suite suite__script_fields = {
    .desc = "script: -F field lists, defaults and errors as perf script's",
    .func = test__script_fields,
};
