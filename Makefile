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
BASE_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc -I$(BUILD)/gen $(CPPFLAGS)
LIBS       = -lldns $(LDLIBS)
TEST_LIBS  = -lcriterion -lidn -lidn2 $(LIBS)

GRAM_C   = $(if $(wildcard grammar/zone.y),$(BUILD)/gen/zone.tab.c) $(if $(wildcard grammar/zone.l),$(BUILD)/gen/zone.lex.c)
GRAM_H   = $(GRAM_C:.c=.h)
LIB_SRC  = $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o) $(GRAM_C:$(BUILD)/gen/%.c=$(BUILD)/obj/%.o)
LIB      = $(BUILD)/libzonepuny.a
BIN      = $(BUILD)/zonepuny
TESTS    = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
DRIVERS  = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/*_driver.c))
BENCHES  = $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))

.PHONY: all check check-unit check-scripts check-asan check-valgrind bench tables deps install clean fuzz
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

$(BIN): $(BUILD)/obj/main.o $(LIB)
	$(CC) $(BASE_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/%.c $(LIB) | $(GRAM_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) $(WARN) -Wno-missing-prototypes $(LDFLAGS) -o $@ $< $(LIB) $(TEST_LIBS)

$(BUILD)/bench/%: bench/%.c $(LIB) | $(GRAM_H)
	@mkdir -p $(@D)
	$(CC) $(BASE_CPPFLAGS) $(BASE_CFLAGS) $(WARN) -Wno-missing-prototypes $(LDFLAGS) -o $@ $< $(LIB) $(TEST_LIBS)

# Unit tests (criterion) first, then the script tests: golden zones, oracles, peers.
check: check-unit check-scripts

check-unit: $(TESTS)
	@set -e; for t in $(TESTS); do echo "== $$t"; $$t --jobs=2; done

check-scripts: $(BIN) $(TESTS) $(DRIVERS)
	@BUILD=$(BUILD) ZONEPUNY=$(abspath $(BIN)) PYTHON=$(PYTHON) bash tests/run_scripts.sh

check-asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g" \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" check

bench: $(BIN) $(BENCHES)
	@BUILD=$(BUILD) ZONEPUNY=$(abspath $(BIN)) PYTHON=$(PYTHON) bash bench/run.sh

# Nameprep tables come from Unicode 3.2 data shipped with Python (unicodedata.ucd_3_2_0, stringprep).
tables:
	$(PYTHON) tools/gen_nameprep.py > src/nameprep_tables.c.new
	mv src/nameprep_tables.c.new src/nameprep_tables.c

deps:
	bash tools/deps.sh

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/zonepuny
	install -m 644 man/zonepuny.1 $(DESTDIR)$(PREFIX)/share/man/man1/zonepuny.1

clean:
	rm -rf build build-asan build-fuzz

-include $(wildcard $(BUILD)/obj/*.d $(BUILD)/tests/*.d $(BUILD)/bench/*.d)
