# Feltguard: the two commands (see README). Both set everything up on a fresh machine
# (Python 3.11, pip, Debian apt) into .venv; nothing is installed system-wide but Chromium.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: demo test test-long explore tools lint bench clean

# The tested versions: constraints.txt pins every package to the one the suite ran against
# (hardware/INSTALL.md, "The tested versions", says how to refresh it).
$(STAMP): pyproject.toml constraints.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e '.[test]'
	touch $(STAMP)

# The simulated 6-seat table with its live view on http://127.0.0.1:5000/ (Ctrl-C to stop): a
# line per hand and each finding as it is raised, then made against caught. Its journal stays
# here, feltguard-sim-YYYYmmdd-HHMMSS.sqlite (review: feltguard replay FILE). More options:
# make demo ARGS="--game razz --seats 5 --host 0.0.0.0" (feltguard sim --help).
demo: $(STAMP)
	$(BIN)/feltguard sim $(ARGS)

# The test suite, Chromium and Redis included (apt-get when missing and we are root; the tests
# start their own redis-server, none runs as a service), one pytest worker per CPU
# (pytest-xdist). The long property, fuzz and soak tests run at a slice of their size here
# (tests/sizes.py); test-long runs them at full size. On the 2-core machine: pytest about 4
# minutes with little else running.
test: $(STAMP) tools
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/pytest -q -n auto --durations=15 -m "not long"

# The long tests at full size (the `long` marker): the core's fuzz (102,000 mutated streams),
# the seating fairness property (10,000 sequences), every ranking against PokerKit (20,000
# hands each), clean hands of every game (8 examples each), the table's memory over 120 hands.
# On the 2-core machine: about 2 minutes with little else running. CI (.ci/run) runs test, then
# this.
test-long: $(STAMP) tools
	$(BIN)/pytest -q -n auto --durations=10 -m long

# The property tests with new examples every run (tests/conftest.py: CI draws the same ones).
explore: $(STAMP)
	HYPOTHESIS_PROFILE=explore $(BIN)/pytest -q -n auto -m "not long" -k "not browser" tests/rules tests/controller

tools:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || echo "chromium not installed: browser tests will skip"
	@command -v redis-server >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; } || echo "redis-server not installed: cardroom tests will skip"
	@command -v certutil >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq libnss3-tools >/dev/null; } || echo "certutil (libnss3-tools) not installed: the HTTPS browser tests will skip"
	@{ command -v avr-gcc && command -v avr-size && [ -f /usr/lib/avr/include/avr/io.h ] && command -v simavr && [ -f /usr/include/simavr/sim_avr.h ] && [ -f /usr/include/libelf.h ]; } >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev >/dev/null; } || echo "gcc-avr/avr-libc/simavr/libsimavr-dev/libelf-dev not installed: the reader firmware tests will skip"

# The package tree's shape (import-linter, [tool.importlinter] in pyproject.toml) is part of lint.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# make bench adds the bench extra (eval7, the compiled hold'em evaluator bench.equity compares
# against, where it has a wheel: x86_64) to the tested versions of the rest.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install -q -c constraints.txt -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
