# SPDX-License-Identifier: GPL-2.0-only
#
# make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="session sample ..."]
#
# Builds the project with clang, ASan, UBSan and libFuzzer's coverage
# into build-fuzz/, links one libFuzzer program per target
# (build-fuzz/fuzz-<target>, from tools/perf/tests/fuzz/fuzz-<target>.c
# and the entry function in tools/perf/tests/fuzz-<target>.c), and runs
# each for FUZZ_SECONDS over its checked-in corpus, one after the other.
# New inputs go to build-fuzz/corpus/<target>/, crashes to
# build-fuzz/crash-<target>-*: add a crash's minimized input to
# tools/perf/tests/fuzz/corpus/<target>/ with its fix.  See README.

FUZZ_CC ?= clang
FUZZ_OUT := build-fuzz/
FUZZ_SECONDS ?= 60
FUZZ_DIR := tools/perf/tests/fuzz
FUZZ_TARGETS ?= session sample textpoke kcore kallsyms unwind intel-pt
# extra libFuzzer options, e.g. FUZZ_ARGS=-runs=1000
FUZZ_ARGS ?=

FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# clang's warnings are not gcc's: the gcc build keeps -Werror, this one only reports
FUZZ_CFLAGS := $(filter-out -Werror -O2,$(CFLAGS_BASE)) -O1 -g $(FUZZ_SAN) \
	       -fsanitize=fuzzer-no-link -DTEXTPOKE_VERSION='"$(VERSION)-fuzz"' \
	       -Itools/perf -Itools/perf/util -Itools/lib/textpoke/include \
	       $(FEATURE_CFLAGS) -DFEATURES_ON='"$(strip $(FEATURES_ON))"' \
	       -DFEATURES_OFF='"$(strip $(FEATURES_OFF))"'

# everything but main(): libFuzzer brings its own
FUZZ_SRCS := $(LIB_SRCS) $(UTIL_SRCS) $(TEST_SRCS) $(filter-out tools/perf/perf.c,$(MAIN_SRCS))
FUZZ_OBJS := $(patsubst %.c,$(FUZZ_OUT)%.o,$(FUZZ_SRCS)) $(FUZZ_OUT)tests-list.o
FUZZ_PROGS := $(patsubst %,$(FUZZ_OUT)fuzz-%,$(FUZZ_TARGETS))

$(FUZZ_OUT)%.o: %.c $(FEATURE_MK)
	@mkdir -p $(@D)
	@$(if $(Q),echo '  FUZZCC  $<')
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_OUT)tests-list.c: FORCE
	@mkdir -p $(@D)
	$(Q)sh tools/build/gen-tests-list.sh $(TEST_SRCS) >$@.tmp && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

$(FUZZ_OUT)tests-list.o: $(FUZZ_OUT)tests-list.c
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Itools/perf/tests -c -o $@ $<

$(FUZZ_OUT)fuzz-%: $(FUZZ_OUT)$(FUZZ_DIR)/fuzz-%.o $(FUZZ_OBJS)
	@$(if $(Q),echo '  FUZZLD  $@')
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(LIBS)

# kept: make would remove them as intermediates of the pattern rules
.SECONDARY: $(FUZZ_OBJS) $(patsubst %,$(FUZZ_OUT)$(FUZZ_DIR)/fuzz-%.o,$(FUZZ_TARGETS))

fuzz-build: $(FUZZ_PROGS)

# -close_fd_mask=3: the readers' error messages about bad input would be
# most of the output; libFuzzer's own and the sanitizers' reports stay.
# Replay one input with its messages: build-fuzz/fuzz-<target> <file>.
# every target runs even when one before crashed; the status says which did
fuzz: fuzz-build
	$(Q)failed=""; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_OUT)corpus/$$t || exit 1; \
		dict=$$(for d in $(FUZZ_DIR)/$$t.dict $(FUZZ_DIR)/perf-data.dict; do \
			case $$t:$$d in *:$(FUZZ_DIR)/$$t.dict|session:*|sample:*) \
				[ -f $$d ] && { echo "-dict=$$d"; break; };; esac; done); \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s $$dict"; \
		ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(FUZZ_OUT)fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=1024 -malloc_limit_mb=256 -close_fd_mask=3 \
			-print_final_stats=1 -artifact_prefix=$(FUZZ_OUT)crash-$$t- $$dict \
			$(FUZZ_ARGS) $(FUZZ_OUT)corpus/$$t $(FUZZ_DIR)/corpus/$$t || \
			failed="$$failed $$t"; \
	done; \
	[ -z "$$failed" ] || { echo "fuzz: crashed:$$failed (inputs in $(FUZZ_OUT)crash-*)"; exit 1; }

-include $(FUZZ_OBJS:.o=.d) $(patsubst %,$(FUZZ_OUT)$(FUZZ_DIR)/fuzz-%.d,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build
