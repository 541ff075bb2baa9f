# Makefile -- zonepuny: build, tests, benchmarks, tables, install
PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
PYTHON  ?= /usr/bin/python3
OPT     ?= -O2 -g
SAN     ?=

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Werror
# flex and bison output is not ours to fix; it still gets -Wall -Werror minus what it trips.
GEN_WARN := -Wall -Werror -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter
BASE_CFLAGS   = -std=c11 $(OPT) $(SAN) -MMD -MP $(CFLAGS)
# one folder per pipeline stage (doc/design.md)
SRC_DIRS = idna core record read label check write diff cli
BASE_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc -I$(BUILD)/gen $(CPPFLAGS)
LIBS       = -lldns -lcrypto -ljansson -pthread $(LDLIBS)
TEST_LIBS  = -lcriterion -lidn -lidn2 $(LIBS)
# ICU 72 is the IDNA2008 tests' oracle, and its peer in the benchmark
$(BUILD)/tests/test_idna2008 $(BUILD)/tests/test_diverge $(BUILD)/bench/bench_idna: \
  TEST_LIBS += -licuuc -licudata
# ICU 72's spoof checker (libicui18n) is the UTS #39 tests' oracle
$(BUILD)/tests/test_uts39: TEST_LIBS += -licui18n -licuuc -licudata

GRAM_C   = $(if $(wildcard grammar/zone.y),$(BUILD)/gen/zone.tab.c) $(if $(wildcard grammar/zone.l),$(BUILD)/gen/zone.lex.c)
GRAM_H   = $(GRAM_C:.c=.h)
LIB_SRC  = $(filter-out src/cli/main.c,$(wildcard src/*.c $(SRC_DIRS:%=src/%/*.c)))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o) $(GRAM_C:$(BUILD)/gen/%.c=$(BUILD)/obj/%.o)
LIB      = $(BUILD)/libzonepuny.a
BIN      = $(BUILD)/zonepuny
# The IDNA library installed for other programs: Punycode, Nameprep, IDNA2003, UTF-8, statuses.
IDNA_SRC = $(wildcard src/idna/*.c)
IDNA_LIB = $(BUILD)/libzonepuny-idna.a
IDNA_HDR = idna.h idna2008.h punycode.h nameprep.h utf8.h status.h wire.h
# Releases are tagged vMAJOR.MINOR.PATCH; a build from git says how far it is from the last tag
# (git describe), one from a release tarball says VERSION.
VERSION := $(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null | sed 's/^v//')
VERSION := $(if $(VERSION),$(VERSION),$(shell cat VERSION))
TESTS    = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
DRIVERS  = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/*_driver.c))
BENCHES  = $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))

.PHONY: FORCE all check check-unit check-scripts check-asan check-valgrind bench tables deps deps-test \
        install install-strip uninstall clean \
        fuzz fuzz-build fuzz-smoke check-ci check-all
.DELETE_ON_ERROR:

all: $(BIN)

$(BUILD)/gen/zone.tab.c $(BUILD)/gen/zone.tab.h: grammar/zone.y
	@mkdir -p $(@D)
	bison -Wall -Werror -o $(BUILD)/gen/zone.tab.c --header=$(BUILD)/gen/zone.tab.h $<

$(BUILD)/gen/zone.lex.c $(BUILD)/gen/zone.lex.h: grammar/zone.l
	@mkdir -p $(@D)
	flex --header-file=$(BUILD)/gen/zone.lex.h -o $(BUILD)/gen/zone.lex.c $<

$(BUILD)/obj/%.o: src/%.c | $(GRAM_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) $(WARN) -c -o $@ $<

$(BUILD)/obj/%.o: $(BUILD)/gen/%.c | $(GRAM_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) $(GEN_WARN) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(IDNA_LIB): $(IDNA_SRC:src/%.c=$(BUILD)/obj/%.o)
	@rm -f $@
	ar rcs $@ $^

# rewritten only when the version changes, so that what includes it is rebuilt then and only then
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@printf '#define ZP_VERSION "%s"\n' '$(VERSION)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/obj/cli/main.o $(BUILD)/obj/cli/cli_run.o: $(BUILD)/gen/version.h

# The man pages as installed: @VERSION@ in their footer is the version zonepuny --version says,
# so that the two cannot drift apart (tests/cli/check_install.sh).
MAN_PAGES = $(BUILD)/man/zonepuny.1 $(BUILD)/man/zonepuny-reload.1
$(BUILD)/man/%.1: man/%.1 $(BUILD)/gen/version.h
	@mkdir -p $(@D)
	sed -e 's|@VERSION@|$(VERSION)|g' $< > $@

FORCE:

$(BIN): $(BUILD)/obj/cli/main.o $(LIB)
	$(CC) $(BASE_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# Knot's zone scanner, the round-trip test's reader for Knot (libknot-dev)
$(BUILD)/tests/zscanner_driver: TEST_LIBS += -lzscanner
$(BUILD)/tests/%: tests/%.c $(LIB) | $(GRAM_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) $(WARN) -Wno-missing-prototypes $(LDFLAGS) -o $@ $< $(LIB) $(TEST_LIBS)

# the front end's peer in bench_parse's row of the goals
$(BUILD)/bench/bench_zscanner: TEST_LIBS += -lzscanner
$(BUILD)/bench/%: bench/%.c $(LIB) | $(GRAM_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) $(WARN) -Wno-missing-prototypes $(LDFLAGS) -o $@ $< $(LIB) $(TEST_LIBS)

# Unit tests (criterion) first, then the script tests: golden zones, oracles, peers.
# Under CI (the environment variable CI set, as CI services do) the same command also runs the
# whole suite under ASan+UBSan; tests/limits/check_fuzz_smoke.sh adds a 10 s fuzz run per harness.
# It ends with its wall-clock and CPU time (bash's time: the children's user and system time).
check:
	@bash -c 'TIMEFORMAT="make check: %0R s elapsed, %0U s user, %0S s system"; \
	  time $(MAKE) --no-print-directory check-all'

check-all: check-unit check-scripts $(if $(CI),check-ci)

check-unit: $(TESTS)
	@TEST_WRAP="$(TEST_WRAP)" bash tests/run_units.sh $(TESTS) ::: $(TEST_ARGS)

check-scripts: $(BIN) $(TESTS) $(DRIVERS)
	@BUILD=$(BUILD) ZONEPUNY=$(abspath $(ZONEPUNY_RUN)) PYTHON=$(PYTHON) bash tests/run_scripts.sh

# Nested so that it runs after the plain suite, never interleaved with it under -j.
check-ci: check-unit check-scripts
	$(MAKE) check-asan CI=

TEST_ARGS   ?= --jobs=2
TEST_WRAP   ?=
ZONEPUNY_RUN ?= $(BIN)

# Criterion runs each test in a forked child and ignores how the child exits after the test
# body returned, so a LeakSanitizer report there would not fail the run; every sanitizer report
# goes to a log file instead and any log fails the target. detect_leaks is on for the binary too.
SAN_LOG = $(abspath build-asan/sanitizer-logs)
check-asan:
	@rm -rf $(SAN_LOG) && mkdir -p $(SAN_LOG)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$(SAN_LOG)/asan \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(SAN_LOG)/ubsan \
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0 \
	$(MAKE) BUILD=build-asan OPT="-O1 -g" CI= \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  check-unit check-scripts
	@bash tests/sanitizer_logs.sh $(SAN_LOG)

# Valgrind memcheck over the unit tests and over every run of the binary in the script tests
# (tests/valgrind.sh stands in for it). Criterion forks without exec, so valgrind follows its
# children by itself, and criterion notices valgrind and runs one test at a time (no --jobs).
# -q leaves a log non-empty only when valgrind found something; any non-empty log fails.
# test_idna's four exhaustive oracle sweeps (every code point, a million random labels) would
# take hours at valgrind's slowdown and exceed their own criterion timeouts, which --timeout
# cannot lengthen: they are left out here and run under check-asan.
VG_FILTER = --filter='!(idna/every_code_point_*|idna/random_*_agree_with_libidn)'

VG_LOG = $(abspath $(BUILD)/valgrind-logs)
check-valgrind: $(BIN) $(TESTS) $(DRIVERS)
	@rm -rf $(VG_LOG) && mkdir -p $(VG_LOG)
	@VG_LOG=$(VG_LOG) VG_BIN=$(abspath $(BIN)) $(MAKE) CI= \
	  TEST_ARGS="$(VG_FILTER)" TEST_WRAP="bash $(abspath tests/valgrind.sh) --" \
	  ZONEPUNY_RUN=tests/valgrind.sh check-unit check-scripts
	@bash tests/sanitizer_logs.sh $(VG_LOG)

# libFuzzer harnesses (fuzz/fuzz_*.c) against the library built with the same sanitizers.
FUZZ_BUILD   = build-fuzz
FUZZ_CC     ?= clang-14
FUZZ_SAN     = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_NAMES   = $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS    = $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_SECONDS ?= 60

fuzz-build:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPT="-O1 -g" CI= \
	  SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_BINS)

$(BUILD)/fuzz_%: fuzz/fuzz_%.c $(LIB) | $(GRAM_H)
	$(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) $(WARN) -Wno-missing-prototypes -fsanitize=fuzzer \
	  $(LDFLAGS) -o $@ $< $(LIB) -lidn -lidn2 -licuuc -licudata $(LIBS)

# Each harness grows its own corpus in build-fuzz/corpus/NAME from the seeds in fuzz/corpus/NAME
# (read only); crashes go to build-fuzz/artifacts/.
fuzz: fuzz-build
	@set -e; for n in $(FUZZ_NAMES); do \
	  bash fuzz/run.sh $$n $(FUZZ_SECONDS); done

fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=10

bench: $(BIN) $(BENCHES)
	@bash tools/deps.sh bench
	@BUILD=$(BUILD) ZONEPUNY=$(abspath $(BIN)) PYTHON=$(PYTHON) bash bench/run.sh

# Nameprep tables come from Unicode 3.2 data shipped with Python (unicodedata.ucd_3_2_0, stringprep);
# IDNA2008 tables from the Unicode 15.0.0 files of Debian's unicode-data and unicode-idna; UTS #39's
# from unicode-data and confusables.txt (tools/data/).
tables:
	$(PYTHON) tools/gen_nameprep.py > src/idna/nameprep_tables.c.new
	mv src/idna/nameprep_tables.c.new src/idna/nameprep_tables.c
	$(PYTHON) tools/gen_idna2008.py > src/idna/idna2008_tables.c.new
	mv src/idna/idna2008_tables.c.new src/idna/idna2008_tables.c
	$(PYTHON) tools/gen_uts39.py > src/idna/uts39_tables.c.new
	mv src/idna/uts39_tables.c.new src/idna/uts39_tables.c
	$(PYTHON) tools/gen_check_help.py > src/check/registry_help.c.new
	mv src/check/registry_help.c.new src/check/registry_help.c

deps:
	bash tools/deps.sh build

deps-test:
	bash tools/deps.sh test

install: $(BIN) $(IDNA_LIB) $(MAN_PAGES)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/zonepuny
	install -m 755 $(INSTALL_STRIP) $(BIN) $(DESTDIR)$(PREFIX)/bin/zonepuny
	install -m 755 tools/zonepuny-reload $(DESTDIR)$(PREFIX)/bin/zonepuny-reload
	install -m 755 tools/zonepuny-git-diff $(DESTDIR)$(PREFIX)/bin/zonepuny-git-diff
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/doc/zonepuny
	install -m 644 doc/checks.md doc/editors.md $(DESTDIR)$(PREFIX)/share/doc/zonepuny/
	install -m 644 $(IDNA_LIB) $(DESTDIR)$(PREFIX)/lib/libzonepuny-idna.a
	install -m 644 $(IDNA_HDR:%=src/idna/%) $(DESTDIR)$(PREFIX)/include/zonepuny/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' tools/zonepuny-idna.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/zonepuny-idna.pc

install-strip:
	$(MAKE) INSTALL_STRIP=-s install

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/zonepuny $(DESTDIR)$(PREFIX)/bin/zonepuny-reload \
	  $(DESTDIR)$(PREFIX)/bin/zonepuny-git-diff \
	  $(DESTDIR)$(PREFIX)/share/man/man1/zonepuny.1 \
	  $(DESTDIR)$(PREFIX)/share/man/man1/zonepuny-reload.1 $(DESTDIR)$(PREFIX)/lib/libzonepuny-idna.a \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/zonepuny-idna.pc \
	  $(IDNA_HDR:%=$(DESTDIR)$(PREFIX)/include/zonepuny/%) \
	  $(DESTDIR)$(PREFIX)/share/doc/zonepuny/checks.md \
	  $(DESTDIR)$(PREFIX)/share/doc/zonepuny/editors.md
	-rmdir $(DESTDIR)$(PREFIX)/include/zonepuny $(DESTDIR)$(PREFIX)/share/doc/zonepuny 2>/dev/null

clean:
	rm -rf build build-asan build-fuzz build-vg build-tsan

-include $(wildcard $(BUILD)/obj/*.d $(BUILD)/obj/*/*.d $(BUILD)/tests/*.d $(BUILD)/bench/*.d $(BUILD)/fuzz_*.d)
