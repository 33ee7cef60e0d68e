# apicli — developer tasks. GNU make.
#
#   make help        list the targets
#   make test        install deps, start a local httpbin on 127.0.0.1, run `swift test`, stop it
#   make run         offline demo (stubbed sample, no network)
#
# Variables you may override: SWIFT, PYTHON, PREFIX, BINDIR, DESTDIR, SWIFT_TEST_FLAGS.

SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT            ?= swift
PYTHON           ?= python3
PREFIX           ?= /usr/local
BINDIR           ?= $(PREFIX)/bin
DESTDIR          ?=
SWIFT_TEST_FLAGS ?=

VENV       := .venv
VENV_STAMP := $(VENV)/.apicli-venv-ok
HTTPBIN    := scripts/httpbin.sh
# `make test` runs its own httpbin in its own run dir, so it never touches one
# a human started with `make httpbin-start` (which lives in .run/).
TEST_RUN_DIR := .run/test
# The build with the URLSessionTransport trait (FoundationNetworking, libcurl) has its own folder.
URLSESSION_BUILD := .build-urlsession

# Python packages for the local httpbin. header-map needs gunicorn >= 22.
HTTPBIN_PIP := 'httpbin>=0.10.2,<0.11' 'gunicorn>=22'
# jsonschema judges the samples `import openapi` builds from schemas (OpenAPIRealSpecTests).
SCHEMA_PIP  := 'jsonschema>=4.18,<5'
# Schemathesis judges the mock of imported specs (ImportMockConformanceTests: `st run` on loopback).
SCHEMATHESIS_PIP := 'schemathesis>=4.1,<5'
VENV_CHECK  := 'import gunicorn, jsonschema, schemathesis, importlib.util as u; assert u.find_spec("httpbin")'

# Debian packages: sudo only when we are not root and sudo exists.
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && echo sudo)
APT  := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: help deps bench-deps test-urlsession bench venv build release test warnings run install uninstall clean distclean \
        httpbin-start httpbin-stop httpbin-status fuzz fuzz-build

help:
	@echo "apicli make targets:"
	@echo "  deps           install libyaml-dev, pkg-config, curl, libxml2-utils, chromium, nginx-light (apt) if missing"
	@echo "  venv           create .venv with httpbin + gunicorn + jsonschema + schemathesis (for live tests)"
	@echo "  build          swift build (debug)"
	@echo "  release        swift build -c release --static-swift-stdlib (no libcurl: async-http-client is the transport)"
	@echo "  bench          release build, then apicli vs curl, HTTPie, Tavern, wrk on loopback -> bench/results.md"
	@echo "  test           start a local httpbin, run swift test (SWIFT_TEST_FLAGS=...), then the URLSession"
	@echo "                 transport's contract tests (trait URLSessionTransport, .build-urlsession), stop it"
	@echo "  test-urlsession  only the URLSession transport's contract tests"
	@echo "  warnings       swift build --build-tests; fails on a warning from this repo's Sources/ or Tests/ (run by test)"
	@echo "  run            offline demo: swift run apicli call github.zen --stub"
	@echo "  install        release build, install apicli into \$$(DESTDIR)\$$(PREFIX)/bin (PREFIX=$(PREFIX))"
	@echo "  uninstall      remove \$$(DESTDIR)\$$(PREFIX)/bin/apicli"
	@echo "  fuzz           libFuzzer over the YAML layer, decoders and endpoint mapping (FUZZ_TIME=seconds, default 60)"
	@echo "  httpbin-start  start a local httpbin on 127.0.0.1 (prints its URL)"
	@echo "  httpbin-stop   stop it"
	@echo "  httpbin-status print its URL if it is running"
	@echo "  clean          stop httpbin, remove .build and .run"
	@echo "  distclean      clean, and remove .venv"

# System packages. Quiet and a no-op when everything is present. chromium (headless) renders
# the HTML report in CheckCISurfacesTests; nginx (ssl_verify_client) is ClientCertificateTests' server.
deps:
	@missing=""; \
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists yaml-0.1; then \
	  missing="$$missing libyaml-dev pkg-config"; fi; \
	if ! command -v curl >/dev/null 2>&1 || \
	   ! { ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4'; }; then \
	  missing="$$missing curl"; fi; \
	if ! command -v xmllint >/dev/null 2>&1; then \
	  missing="$$missing libxml2-utils"; fi; \
	if ! command -v chromium >/dev/null 2>&1; then \
	  missing="$$missing chromium"; fi; \
	if [ ! -x /usr/sbin/nginx ]; then \
	  missing="$$missing nginx-light"; fi; \
	if ! command -v $(PYTHON) >/dev/null 2>&1; then \
	  missing="$$missing python3 python3-venv"; \
	elif ! $(PYTHON) -c 'import venv, ensurepip' >/dev/null 2>&1; then \
	  missing="$$missing python3-venv"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(APT) update -qq && $(APT) install -y -qq --no-install-recommends $$missing; \
	fi
	@# The test servers run on the system python3 (scripts/graphql-server.py needs graphql-core).
	@$(PYTHON) -c 'import graphql' >/dev/null 2>&1 || $(PYTHON) -m pip install -q --disable-pip-version-check 'graphql-core>=3.2,<3.3'

venv: $(VENV_STAMP)
	@:

$(VENV_STAMP): Makefile
	@if ! $(VENV)/bin/python -c $(VENV_CHECK) >/dev/null 2>&1; then \
	  echo "venv: creating $(VENV) with httpbin + gunicorn + jsonschema + schemathesis"; \
	  { [ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV); } && \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check $(HTTPBIN_PIP) $(SCHEMA_PIP) $(SCHEMATHESIS_PIP); \
	fi
	@$(VENV)/bin/python -c $(VENV_CHECK) && touch $@

build: deps
	$(SWIFT) build

# The Swift runtime linked statically: a faster start-up (see README, Benchmarks). Nothing links
# libcurl: on Linux the live transport is async-http-client (the URLSessionTransport trait is opt-in).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product apicli

# Benchmark tools: Debian (hyperfine, nginx, wrk, GNU time) and PyPI (httpie, tavern) in
# bench/out/venv, apart from the test venv. A tool that cannot be installed makes its rows n/a.
BENCH_APT := hyperfine nginx-light wrk time hey
bench-deps: deps
	@missing=""; \
	for t in hyperfine:hyperfine nginx:nginx-light wrk:wrk hey:hey; do \
	  command -v $${t%%:*} >/dev/null 2>&1 || [ -x /usr/sbin/$${t%%:*} ] || missing="$$missing $${t#*:}"; done; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ]; then \
	  echo "bench-deps: installing$$missing"; \
	  $(APT) update -qq && $(APT) install -y -qq --no-install-recommends $$missing || true; \
	fi
	@if ! bench/out/venv/bin/python -c 'import httpie, tavern._core.pytest, jsonschema, jsonschema_rs' >/dev/null 2>&1; then \
	  echo "bench-deps: bench/out/venv with httpie + tavern"; \
	  mkdir -p bench/out && $(PYTHON) -m venv bench/out/venv && \
	  bench/out/venv/bin/python -m pip install -q --disable-pip-version-check httpie tavern 'pytest<9' jsonschema jsonschema-rs || true; \
	fi

bench: bench-deps
	PATH="$$PATH:/usr/sbin" bash bench/run.sh

# Fuzzing: Sources/apicli-fuzz built with libFuzzer and AddressSanitizer in its own build folder.
# The growing corpus lives in .run/fuzz/corpus (kept between runs, not committed); seeds are the
# shipped targets, the malformed corpus and every saved regression. A crash, leak, timeout or OOM
# stops the run and leaves the input in .run/fuzz/; save it under Tests/Fuzz/regressions/ with the fix.
FUZZ_TIME  ?= 60
FUZZ_JOBS  ?= 1
FUZZ_BUILD := .build-fuzz
FUZZ_DIR   := .run/fuzz
FUZZ_FLAGS ?= -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1

fuzz-build: deps
	$(SWIFT) build -c release --product apicli-fuzz --scratch-path $(FUZZ_BUILD) \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/corpus
	$(FUZZ_BUILD)/release/apicli-fuzz $(FUZZ_DIR)/corpus targets Tests/apicliTests/Malformed Tests/Fuzz/regressions \
	  -dict=Tests/Fuzz/yaml.dict -artifact_prefix=$(FUZZ_DIR)/ -max_total_time=$(FUZZ_TIME) \
	  $(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) $(FUZZ_FLAGS)

# One recipe, one shell: the trap stops httpbin however swift test ends,
# and the recipe exits with swift test's own status.
# `make warnings`: builds (with the tests) and fails if the compiler or SwiftPM warned about a file of
# this repository's Sources/ or Tests/ (dependencies' warnings are theirs). The compiler repeats a
# warning only when it compiles the file again, so this sees every file on a fresh build (CI) and
# the changed ones on an incremental one.
warnings: deps
	@set -o pipefail; log="$$(mktemp)"; trap 'rm -f "$$log"' EXIT; \
	$(SWIFT) build --build-tests 2>&1 | tee "$$log" || exit $$?; \
	ours="$$(grep -E "^($(CURDIR)/)?(Sources|Tests)/[^ ]+:[0-9]+:[0-9]+: warning:" "$$log" | sort -u)"; \
	unhandled="$$(grep -E "^ +$(CURDIR)/(Sources|Tests)/" "$$log" | sort -u)"; \
	if [ -n "$$ours$$unhandled" ]; then \
	  echo "warnings: the build warned about this repository's code:"; \
	  [ -z "$$ours" ] || echo "$$ours"; \
	  [ -z "$$unhandled" ] || { echo "files neither resources nor excluded in Package.swift:"; echo "$$unhandled"; }; \
	  exit 1; \
	fi

test: deps venv warnings
	@set -u; \
	export APICLI_RUN_DIR=$(TEST_RUN_DIR); \
	url="$$($(HTTPBIN) start)" || exit 1; \
	trap '$(HTTPBIN) stop >/dev/null 2>&1 || true' EXIT; \
	trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP; \
	echo "test: httpbin at $$url"; \
	export APICLI_TEST_HTTPBIN="$$url" APICLI_REQUIRE_LIVE=1; \
	export NO_PROXY="127.0.0.1,localhost$${NO_PROXY:+,$$NO_PROXY}" no_proxy="127.0.0.1,localhost$${no_proxy:+,$$no_proxy}"; \
	rc=0; $(SWIFT) test --disable-swift-testing $(SWIFT_TEST_FLAGS) || rc=$$?; \
	if [ $$rc -eq 0 ] && [ -z "$(SWIFT_TEST_FLAGS)" ]; then \
	  echo "test: the URLSession transport (trait URLSessionTransport) against the transport contract tests"; \
	  $(SWIFT) test --disable-swift-testing --traits URLSessionTransport --scratch-path $(URLSESSION_BUILD) \
	    --filter 'TransportContractTests|TransferContractTests|TransportErrorTests' || rc=$$?; \
	fi; \
	exit $$rc

# `make test-urlsession`: only the URLSession transport's contract tests (its own build folder).
test-urlsession: deps venv
	@$(MAKE) --no-print-directory test SWIFT_TEST_FLAGS="--traits URLSessionTransport --scratch-path $(URLSESSION_BUILD) --filter 'TransportContractTests|TransferContractTests|TransportErrorTests'"

run: deps
	$(SWIFT) run apicli call github.zen --stub

install: release
	install -d "$(DESTDIR)$(BINDIR)"
	install -s -m 755 .build/release/apicli "$(DESTDIR)$(BINDIR)/apicli"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/apicli"

httpbin-start: venv
	@$(HTTPBIN) start

httpbin-stop:
	@$(HTTPBIN) stop

httpbin-status:
	@$(HTTPBIN) status

clean:
	-@$(HTTPBIN) stop >/dev/null 2>&1
	-@APICLI_RUN_DIR=$(TEST_RUN_DIR) $(HTTPBIN) stop >/dev/null 2>&1
	-$(SWIFT) package clean
	rm -rf .build .build-fuzz $(URLSESSION_BUILD) .run

distclean: clean
	rm -rf $(VENV)
