# SPDX-License-Identifier: GPL-2.0-only
#
# perf textpoke: one make builds everything.
#
#   make               build tools/perf/perf-textpoke
#   make deps          install the Debian packages we build with (as root)
#   make check         deps, build, every test (last line: N passed, N failed, N skipped)
#   make check-san     the same suite built with ASan + UBSan
#   make demo          record a workload on this machine and show it
#   make bench         throughput and memory against stock perf
#   make doc           the man pages (asciidoctor), in build/Documentation/
#   make install       prefix=/usr/local DESTDIR=: binary, man pages, test data
#   make kernel-recordings  the 32-bit recordings again, on Debian's kernel under qemu
#   make check-kernel  text pokes of Debian's kernel under qemu against its own bytes
#                      (make check runs it too: the kernel-rig test)
#
# V=1 shows the commands.

CC ?= gcc
prefix ?= /usr/local
bindir ?= $(prefix)/bin
mandir ?= $(prefix)/share/man
# the tests and their data; the binary finds them at ../share/perf-textpoke
pkgdatadir = $(prefix)/share/perf-textpoke
DESTDIR ?=

SANITIZE ?=
ifeq ($(SANITIZE),1)
OUTPUT ?= build-san/
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
PROG := $(OUTPUT)perf-textpoke
else
OUTPUT ?= build/
SAN_FLAGS :=
PROG := tools/perf/perf-textpoke
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

# the libraries the probes look for (tools/build/detect.sh), and the tools
FEATURE_PACKAGES := libelf-dev libdw-dev libtraceevent-dev libcapstone-dev libzstd-dev libipt-dev
DEB_PACKAGES := gcc make pkg-config bc time $(FEATURE_PACKAGES)
# the man pages; without its recommends, which pull in a browser and a
# PDF toolchain
DOC_PACKAGES := asciidoctor
ASCIIDOCTOR ?= asciidoctor

# The probes run again when a library's package comes, goes or changes:
# their key is the dpkg file list of each package present (newer after an
# install), and the set of them is kept in the fragment.  A fresh
# machine's first plain make, before make deps, then leaves nothing stale.
FEATURE_MK := $(OUTPUT)features.mk
DPKG_INFO ?= /var/lib/dpkg/info
FEATURE_KEY := $(sort $(foreach p,$(FEATURE_PACKAGES), \
		$(wildcard $(DPKG_INFO)/$(p).list $(DPKG_INFO)/$(p):*.list)))
ifeq ($(filter deps test-deps check check-san demo bench doc clean help,$(MAKECMDGOALS)),)
include $(FEATURE_MK)
ifneq ($(FEATURE_KEY),$(FEATURE_KEY_SEEN))
$(FEATURE_MK): FORCE
endif
endif

CFLAGS_BASE := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	       -Wno-missing-field-initializers -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	       -fno-strict-aliasing
CFLAGS += $(CFLAGS_BASE) $(SAN_FLAGS) -DTEXTPOKE_VERSION='"$(VERSION)"' \
	  -Itools/perf -Itools/perf/util -Itools/lib/textpoke/include \
	  $(FEATURE_CFLAGS) -DFEATURES_ON='"$(strip $(FEATURES_ON))"' \
	  -DFEATURES_OFF='"$(strip $(FEATURES_OFF))"'
LDFLAGS += $(SAN_FLAGS)
LIBS := $(FEATURE_LIBS) -lm -lpthread

LIB_SRCS := $(sort $(wildcard tools/lib/textpoke/*.c))
UTIL_SRCS := $(sort $(wildcard tools/perf/util/*.c))
TEST_SRCS := $(sort $(wildcard tools/perf/tests/*.c))
MAIN_SRCS := tools/perf/perf.c $(sort $(wildcard tools/perf/builtin-*.c))

LIB_OBJS := $(patsubst %.c,$(OUTPUT)%.o,$(LIB_SRCS))
OBJS := $(patsubst %.c,$(OUTPUT)%.o,$(UTIL_SRCS) $(TEST_SRCS) $(MAIN_SRCS)) \
	$(OUTPUT)tests-list.o
LIBTEXTPOKE := $(OUTPUT)libtextpoke.a

all: $(PROG)

$(FEATURE_MK): tools/build/detect.sh $(wildcard tools/build/feature/*.c) $(subst :,\:,$(FEATURE_KEY))
	@mkdir -p $(@D)
	$(Q)sh tools/build/detect.sh "$(CC)" $@ "$(FEATURE_KEY)"

$(OUTPUT)%.o: %.c $(FEATURE_MK)
	@mkdir -p $(@D)
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# The test table is generated from the suites the test files define, so
# adding a test touches no shared file.
# Regenerated on every make, replaced only when it changes, so that a
# deleted test file drops out of the table too.
$(OUTPUT)tests-list.c: FORCE
	@mkdir -p $(@D)
	$(Q)sh tools/build/gen-tests-list.sh $(TEST_SRCS) >$@.tmp && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

$(OUTPUT)tests-list.o: $(OUTPUT)tests-list.c
	$(Q)$(CC) $(CFLAGS) -Itools/perf/tests -c -o $@ $<

$(LIBTEXTPOKE): $(LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(PROG): $(OBJS) $(LIBTEXTPOKE)
	@$(if $(Q),echo '  LINK    $@')
	$(Q)$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LIBTEXTPOKE) $(LIBS)

-include $(OBJS:.o=.d) $(LIB_OBJS:.o=.d)

deps:
	$(Q)sh scripts/apt-install.sh required $(DEB_PACKAGES)
	$(Q)sh scripts/apt-install.sh required --no-install-recommends $(DOC_PACKAGES)

# Optional test-time packages: stock perf (the oracle), a 32-bit
# toolchain, bpftool, headless chromium (report --html), gdb (an oracle
# of the unwinding and srcline tests), python3 (reads JSON, builds the
# corruption matrix), bzip2 (unpacks the checked-in recordings' perf
# archive), qemu and busybox (the real kernel's rig, kernel-rig: it
# fetches Debian's kernel package itself).  Each one missing is said with
# apt-get's error, and its tests skip, naming it.
TEST_PACKAGES := gcc-multilib bpftool linux-perf chromium gdb python3 bc bzip2 \
		 qemu-system-x86 busybox-static libbpf-dev
TEST_PACKAGES += hotspot # record-default-file.sh: hotspot-perfparser opens our default output
test-deps:
	$(Q)sh scripts/apt-install.sh optional --no-install-recommends $(TEST_PACKAGES)

# tests side by side, one per CPU (those that must run alone do)
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

check: deps test-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)TEXTPOKE_SRCDIR=$(CURDIR) $(PROG) test -j $(TEST_JOBS)

check-san: deps test-deps
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 all
	$(Q)TEXTPOKE_SRCDIR=$(CURDIR) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build-san/perf-textpoke test \
		-j $(TEST_JOBS)

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/demo.sh $(PROG)

bench: deps test-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bash scripts/bench.sh $(PROG)

DOC_DIR := tools/perf/Documentation
DOC_EXT := $(DOC_DIR)/asciidoctor-extensions.rb
MAN_PAGES := $(patsubst $(DOC_DIR)/%.txt,$(OUTPUT)Documentation/%.1, \
	       $(sort $(wildcard $(DOC_DIR)/perf-textpoke*.txt)))

doc: $(MAN_PAGES)

# never a raw copy of the asciidoc source in man1: no converter, no install
doc-converter:
	@command -v $(ASCIIDOCTOR) >/dev/null 2>&1 || { \
		echo "make: $(ASCIIDOCTOR) not found: the man pages are built with it;" \
		     "run make deps, or apt-get install --no-install-recommends asciidoctor" >&2; \
		exit 1; }

# compat-mode: the pages are in perf's asciidoc dialect ('emphasis', [verse])
$(OUTPUT)Documentation/%.1: $(DOC_DIR)/%.txt $(DOC_EXT) | doc-converter
	@mkdir -p $(@D)
	@$(if $(Q),echo '  DOC     $@')
	$(Q)$(ASCIIDOCTOR) -b manpage -d manpage -a compat-mode -r ./$(DOC_EXT) \
		--failure-level WARN -a mansource='perf-textpoke $(VERSION)' \
		-a manmanual='perf Manual' -o $@.tmp $< && mv $@.tmp $@

# what perf-textpoke test needs beside the binary: the shell tests, their
# lib, the workloads built at test time, the man page sources (the
# SYNOPSIS tests), laid out as in the tree
TEST_DATA := $(wildcard tools/perf/tests/shell/*.sh tools/perf/tests/shell/lib/* \
			tools/perf/tests/workloads/* tools/perf/tests/data/m32-guest/*) \
	     $(wildcard tools/perf/tests/data/kernel-guest/*.txt \
			tools/perf/tests/data/kernel-guest/*/*.gz \
			tools/perf/tests/data/kernel-guest/*/kcore_dir/*) \
	     $(wildcard $(DOC_DIR)/perf-textpoke*.txt)

install: all doc
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1
	install -m 755 $(PROG) $(DESTDIR)$(bindir)/perf-textpoke
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(mandir)/man1/
	$(Q)for f in $(TEST_DATA); do \
		install -d $(DESTDIR)$(pkgdatadir)/$${f%/*} && \
		install -m 644 $$f $(DESTDIR)$(pkgdatadir)/$$f || exit 1; \
	done

# The checked-in 32-bit recordings (tools/perf/tests/data/m32-guest), made
# again on Debian's kernel under qemu: tools/perf/tests/kernel/README.md.
# Never run by check: the suite reads the files in the tree.
kernel-recordings:
	$(Q)bash tools/perf/tests/kernel/make-recordings.sh

# Issue 21's experiments booted twice (KASLR on, off) and checked against
# the kernel's own bytes: tools/perf/tests/kernel/README.md.  The suite
# runs the same as its kernel-rig test (tests/shell/kernel-rig.sh).
# Exit 2 is a skip (no qemu, no kernel package), said on its last line.
check-kernel: all
	$(Q)bash tools/perf/tests/kernel/check-kernel.sh; rc=$$?; \
		[ $$rc = 2 ] && exit 0; exit $$rc

# make fuzz [FUZZ_SECONDS=N]: the libFuzzer harnesses, built with clang
-include tools/perf/tests/fuzz/fuzz.mk

clean:
	rm -rf build/ build-san/ build-fuzz/ tools/perf/perf-textpoke

help:
	@sed -n '3,18p' Makefile | sed 's/^# \{0,1\}//'

FORCE:

.PHONY: FORCE all deps test-deps check check-san demo bench doc doc-converter install clean help \
	kernel-recordings check-kernel
