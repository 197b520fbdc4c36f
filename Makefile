SHELL := /bin/bash
# Tock: the two commands a person needs are `make demo` and `make test`.
# Each installs what it needs on a fresh Debian / Raspberry Pi OS machine
# that has Swift.

SWIFT ?= swift
APT_PACKAGES := libgpiod-dev libyaml-dev libmosquitto-dev zlib1g-dev pkg-config tmux
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

## The caches (Debian roots, the cross toolchain, kernels, Home Assistant,
## the image's base, the venvs; each keyed by what it is made from) live
## outside the clone, so that a second clone on this machine starts warm:
## .cache is a link to TOCK_CACHE, made (or pointed there again) whenever
## make reads this file; CACHE is the directory itself, which the venvs'
## scripts name. A .cache directory already in a clone is kept as it is.
## Two runs at once need two TOCK_CACHE (their results and work
## directories are in it too).
TOCK_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/tock
CACHE := $(shell if [ -L .cache ] || [ ! -e .cache ]; then mkdir -p "$(TOCK_CACHE)" && ln -sfn "$(TOCK_CACHE)" .cache; fi; realpath -m .cache)

## $(call venv,DIR,MODULES,PIP ARGUMENTS): a venv of Debian's python3 at DIR
## in which MODULES import and whose scripts name DIR, made again from
## scratch when not (its python gone, a version changed, a venv copied from
## elsewhere).
define venv
@{ $(1)/bin/python -c 'import $(2)' && head -1 $(1)/bin/pip | grep -qx '#!$(1)/bin/python[0-9.]*'; } 2>/dev/null \
	|| { rm -rf $(1) && /usr/bin/python3 -m venv $(1) && $(1)/bin/python -m pip install -q $(3); }
endef
, := ,


.PHONY: demo demo-sim test check deps build release clean fuzz

## The appliance on its default: on a board with a GPIO character device, the
## real backend with the default wiring (deploy/config.yaml) in the
## foreground (Ctrl-C stops it); elsewhere the desk simulator in this
## terminal (keys: s x r, R long reset, S long start, u/d switch, q quit).
demo: build
	@if ls /dev/gpiochip* >/dev/null 2>&1; then \
		echo "GPIO chips found: running the appliance on them (Ctrl-C stops; make demo-sim for the simulator)"; \
		.build/debug/tock run --verbose --backend gpiod --config $(or $(CONFIG),deploy/config.yaml); \
	else \
		.build/debug/tock sim $(if $(CONFIG),--config $(CONFIG),); \
	fi

## `tock` on PATH for a desk user: a link to this checkout's debug build.
.PHONY: install-dev
install-dev: build
	$(SUDO) ln -sf $(CURDIR)/.build/debug/tock $(or $(PREFIX),/usr/local)/bin/tock
	@echo "tock -> $(CURDIR)/.build/debug/tock"

## The desk simulator, even on a board.
demo-sim: build
	.build/debug/tock sim $(if $(CONFIG),--config $(CONFIG),)

## Every test: unit and scenario tests (virtual time), the kernel
## interfaces, the service process, the simulator in a real terminal, the
## MQTT link and Home Assistant, the deployment files and both packages,
## the real-kernel GPIO tests under QEMU (amd64 and arm64), the amd64
## package booted under systemd in QEMU, and the Raspberry Pi image booted,
## cut and upgraded under QEMU (image-smoke). Four lanes of stages run side
## by side (.ci/lanes): the arm64 package and then the image's boots (the
## longest) at normal priority; at nice 5, the debug build, the amd64
## package, the Swift tests, the deployment files, systemd and Wi-Fi in
## one lane, the broker, the GPIO VMs and the page in another, and Home
## Assistant (mostly waiting on its own start) in a third, each of these
## waiting (@STAGE) for the build it uses. Every boot is paid once (docs/testing.md, "Which boot proves
## what"). The Debian 13 arm64 root of the image is made beside them
## (image-base-background). Every stage prints its time, and the run ends
## with the table (docs/testing.md, "Budget").
STAGE := bash .ci/stage
LANE_FLAGS := PACKAGES_BUILT=1 VM_TEST_V2=0 HA_WINDOW=15
test: deps
	@$(STAGE) --reset
	$(MAKE) --no-print-directory image-base-background
	MAKE="$(MAKE) $(LANE_FLAGS)" bash .ci/lanes \
		"arm: deb-arm64 image-smoke" \
		"home/5: test-build deb swift-test checks deploy-test systemd-test wifi-test" \
		"link/5: @test-build mqtt-test address-test @deb vm-test @deb-arm64 vm-test-arm64 web-test" \
		"ha/5: @test-build ha-test" \
		|| { $(STAGE) --table; $(STAGE) --failed; exit 1; }
	@$(STAGE) --table

## make test's debug build of every product and test (the other stages
## take their programs from it), with the import check.
.PHONY: test-build
test-build: deps
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	ln -sf tock .build/debug/tock-web

## make test's Swift tests and quick checks (after its build): the Swift
## tests, the module graph and imports, the simulator in a real terminal,
## the hardware guide against the code, the benchmark's analysis, the
## TM1637 wire decoder on synthetic traces, and the image's Imager
## repository file and card config.yaml writers on fake files.
.PHONY: swift-test checks
swift-test:
	$(SWIFT) test --skip-build
checks:
	python3 Tests/docs/module-graph.py .
	bash Tests/terminal/sim-in-tmux.sh .build/debug/tock
	bash Tests/hardware/consistency.sh --tock .build/debug/tock
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 python3 -m unittest test_analysis test_callgrind
	cd Benchmarks/kernel-path && PYTHONDONTWRITEBYTECODE=1 python3 -m unittest test_wire
	cd Tests/image && PYTHONDONTWRITEBYTECODE=1 TOCK=$(CURDIR)/.build/debug/tock python3 -m unittest test_os_list test_card_config

## With PACKAGES_BUILT=1 (make test's lanes, after its packages stage) the
## stages that test a package take the one already in .build/deb instead
## of building it again.
ifeq ($(PACKAGES_BUILT),1)
DEB_PREREQ :=
DEB_ARM64_PREREQ :=
else
DEB_PREREQ := deb
DEB_ARM64_PREREQ := deb-arm64
endif

build: deps
	$(SWIFT) build --product tock

## Everyday work: the Swift tests (the core, the scenarios and golden
## traces on virtual time, the real-kernel-free process tests), the docs'
## checks (module graph, imports, the hardware guide against the code) and
## the simulator in a real terminal. `make test` is the whole suite and CI's.
.PHONY: check
check: test-build
	$(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory checks

## The MQTT link against real mosquitto brokers on 127.0.0.1 (password
## file, TLS with a throwaway CA), three members of a fleet group, and the
## faults: broker down, killed, partitioned (a network namespace), slow,
## flooded, wrong login (Tests/mqtt/).
MQTT_TEST_PACKAGES := mosquitto mosquitto-clients python3-paho-mqtt python3-jsonschema python3-jinja2 openssl iproute2 iptables
.PHONY: mqtt-test
mqtt-test:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) $(MQTT_TEST_PACKAGES)"
	$(SWIFT) build --product tock
	bash Tests/mqtt/run.sh .build/debug/tock

## Tock against a real Home Assistant core (Tests/ha/): Home Assistant
## HA_VERSION from PyPI in a virtualenv on Debian sid's Python 3.14 (2026.3
## and later require 3.14.2; Debian 12 has 3.11), in a sid root cached under
## .cache/ha/ (Tests/ha/root.sh, mmdebstrap); Home Assistant runs in that
## root (Tests/ha/in-root.sh: chroot in a private mount namespace, the host's
## network), onboarded through its API, its MQTT entry made through the
## config flow, with mosquitto and tock on the host's loopback. Needs root.
HA_VERSION ?= 2026.11.0
HA_TEST_PACKAGES := mosquitto python3-aiohttp mmdebstrap debian-archive-keyring
.PHONY: ha-test
ha-test:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) $(HA_TEST_PACKAGES)"
	$(SWIFT) build --product tock
	root=$$($(SUDO) bash Tests/ha/root.sh $(CACHE) $(HA_VERSION)) && \
	PYTHONDONTWRITEBYTECODE=1 $(SUDO) /usr/bin/python3 Tests/ha/ha_test.py --tock .build/debug/tock \
		--ha-python "bash $(CURDIR)/Tests/ha/in-root.sh $$root /venv/bin/python" $(if $(HA_WINDOW),--window $(HA_WINDOW),)
## The web page (tock-web, docs/web.md) against a mock box on loopback: the
## page in Debian's headless chromium driven by Playwright, then schemathesis
## on docs/openapi.yaml (WEB_EXAMPLES cases per operation and phase; Tests/web/),
## then the connection slots under attack in network namespaces (root).
## Both from PyPI in a venv under .cache/ named by their versions.
.PHONY: web-test web-venv
web-venv:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) chromium python3-venv"
	$(SWIFT) build --product tock
	ln -sf tock .build/debug/tock-web
	$(call venv,$(WEB_VENV),playwright$(,) schemathesis,-r Tests/web/requirements.txt)
WEB_VENV := $(CACHE)/web-venv-playwright1.65.2-schemathesis4.32.5
WEB_EXAMPLES ?= 25
web-test: export TOCK_WEB_TEST_DIR = $(CACHE)/web-tests
web-test: web-venv
	rm -rf $(CACHE)/web-tests
	cd Tests/web && PYTHONDONTWRITEBYTECODE=1 $(WEB_VENV)/bin/python browser_test.py $(CURDIR)/.build/debug/tock $(CURDIR)/.build/debug/tock-web /usr/bin/chromium
	cd Tests/web && PYTHONDONTWRITEBYTECODE=1 $(WEB_VENV)/bin/python timers_test.py $(CURDIR)/.build/debug/tock $(CURDIR)/.build/debug/tock-web /usr/bin/chromium
	cd Tests/web && PYTHONDONTWRITEBYTECODE=1 $(WEB_VENV)/bin/python page_texts_test.py $(CURDIR)/.build/debug/tock $(CURDIR)/.build/debug/tock-web /usr/bin/chromium
	cd Tests/web && PYTHONDONTWRITEBYTECODE=1 $(WEB_VENV)/bin/python fuzz_api.py $(CURDIR)/.build/debug/tock $(CURDIR)/.build/debug/tock-web \
		$(WEB_VENV)/bin/schemathesis $(WEB_EXAMPLES)
	cd Tests/web && PYTHONDONTWRITEBYTECODE=1 $(SUDO) python3 slots_test.py $(CURDIR)/.build/debug/tock $(CURDIR)/.build/debug/tock-web

## Bounded floods against tock-web, one per kind of attack (pairing
## guesses, large bodies, large headers, idle connections, a stopped
## appliance), with resident memory, descriptors and CPU of tock-web and
## of the appliance read from /proc (release builds; docs/web.md, Limits).
.PHONY: web-flood
web-flood:
	$(SWIFT) build -c release --product tock
	ln -sf tock .build/release/tock-web
	cd Tests/web && PYTHONDONTWRITEBYTECODE=1 python3 flood.py $(CURDIR)/.build/release/tock $(CURDIR)/.build/release/tock-web

## The page's pictures in docs/pictures (a phone and a desktop viewport),
## from a mock box, in headless chromium.
.PHONY: web-screenshots
web-screenshots: web-venv
	cd Tests/web && PYTHONDONTWRITEBYTECODE=1 $(WEB_VENV)/bin/python screenshots.py $(CURDIR)/.build/debug/tock $(CURDIR)/.build/debug/tock-web \
		/usr/bin/chromium $(CURDIR)/docs/pictures

## One simulated box for the keys, the command line and the page: the desk
## simulator in this terminal serving the control socket, and tock-web on
## http://127.0.0.1:8080/ (WEB_PORT); the pairing code appears on the
## simulator's display. WEB_LISTEN=0.0.0.0 opens the page to the LAN (for
## a real phone; said loudly, with the addresses).
.PHONY: demo-web
WEB_PORT ?= 8080
demo-web: deps
	$(SWIFT) build --product tock
	ln -sf tock .build/debug/tock-web
	bash Tests/web/demo-web.sh .build/debug/tock .build/debug/tock-web $(WEB_PORT)

release: deps
	$(SWIFT) build -c release --product tock $(RELEASE_LINK)

## GPIO tests on a real kernel (QEMU + gpio-sim); TOCK=path runs the tock scenarios too.
.PHONY: vm-test
# Runs tock built against libgpiod v1 (the system's, as on Debian 12 and
# Raspberry Pi OS bookworm) and v2 (Debian 13's 2.2.1, fetched by prepare.sh).
GPIOD2 := $(CACHE)/vm/gpiod2
# VM_TEST_V2=0 leaves out the libgpiod v2 build for this machine and its runs
# (make test: vm-test-arm64 runs the v2 backend, as shipped, on Debian 13's
# kernel; docs/testing.md, "Which boot proves what").
VM_TEST_V2 ?= 1
vm-test: deps
	bash Tests/vm/prepare.sh
	$(DEPLOY_BUILD)
ifeq ($(VM_TEST_V2),1)
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-vm-v2 --product tock $(RELEASE_LINK) \
		-Xcc -I$(GPIOD2)/include -Xlinker -L$(GPIOD2)/lib
	bash Tests/vm/vm-test.sh --tock v1=.build-release/release/tock --tock v2=.build-vm-v2/release/tock $(if $(TOCK),--tock $(TOCK),)
else
	bash Tests/vm/vm-test.sh --probes v1 --tock v1=.build-release/release/tock $(if $(TOCK),--tock $(TOCK),)
endif

## System packages the build and tests use (only what is missing).
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

## Fuzz the control socket's request parser for FUZZ_SECONDS (default 60).
FUZZ_SECONDS ?= 60
fuzz:
	mkdir -p .build/fuzz/corpus
	swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name TockFuzz \
		Tests/fuzz/ControlRequestFuzz.swift Sources/TockControl/ControlRequest.swift $(wildcard Sources/TockJSON/*.swift) \
		Sources/TockConfig/DurationText.swift $(wildcard Sources/TockCore/*.swift) -o .build/fuzz/control-request
	.build/fuzz/control-request .build/fuzz/corpus Tests/fuzz/corpus -max_total_time=$(FUZZ_SECONDS) -max_len=2048 -artifact_prefix=.build/fuzz/

## Fuzz what Tock decodes from its state file and a fleet group's topic
## (the snapshot and the group message, then every mode run on what decodes).
STATE_FUZZ_SOURCES := $(wildcard Sources/TockCore/*.swift) Sources/TockMQTT/GroupSchedule.swift Sources/TockConfig/TopicName.swift \
	$(wildcard Sources/TockJSON/*.swift) Sources/TockShell/SnapshotJSON.swift Sources/TockShell/CountJSON.swift Sources/TockShell/StateFile.swift
.PHONY: fuzz-state
fuzz-state:
	mkdir -p .build/fuzz/state-corpus
	swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name TockStateFuzz \
		Tests/fuzz/StateFuzz.swift $(STATE_FUZZ_SOURCES) -o .build/fuzz/state
	.build/fuzz/state .build/fuzz/state-corpus Tests/fuzz/state-corpus -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -artifact_prefix=.build/fuzz/state-

## Fuzz the boot partition's setup files (tock-setup.txt, rpi-preseed.toml):
## TockSetup's readers and the network files they write, without I/O.
SETUP_FUZZ_SOURCES := $(filter-out Sources/TockSetup/SetupApply.swift Sources/TockSetup/SetupPaths.swift,$(wildcard Sources/TockSetup/*.swift))
.PHONY: fuzz-setup
fuzz-setup:
	mkdir -p .build/fuzz/setup-corpus .build/fuzz/clibcrypto
	printf 'module CLibcrypto {\n  header "$(CURDIR)/Sources/CLibcrypto/include/CLibcrypto.h"\n  export *\n}\n' > .build/fuzz/clibcrypto/module.modulemap
	clang -c -O -fsanitize=fuzzer-no-link,address Sources/CLibcrypto/loader.c -o .build/fuzz/clibcrypto/loader.o
	swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name TockSetupFuzz -I .build/fuzz/clibcrypto \
		Tests/fuzz/SetupFuzz.swift $(SETUP_FUZZ_SOURCES) .build/fuzz/clibcrypto/loader.o -o .build/fuzz/setup
	.build/fuzz/setup .build/fuzz/setup-corpus Tests/fuzz/setup-corpus -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -artifact_prefix=.build/fuzz/setup-

clean:
	rm -rf .build

## Benchmarks/: Tock against two peers built the usual ways, one after another
## under the same conditions (about 10 minutes; QUICK=1: about 1 minute,
## written under .build/bench-quick instead of Benchmarks/). Real-time
## scheduling from deploy/tock.service needs root, as systemd has.
.PHONY: bench
BENCH_VENV := $(CACHE)/bench-venv
BENCH_OUT := $(if $(QUICK),$(CURDIR)/.build/bench-quick,$(CURDIR)/Benchmarks)
bench:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) stress-ng rt-tests valgrind python3-venv"
	$(DEPLOY_BUILD)
	$(SWIFT) build -c release --package-path Benchmarks/peers/SwiftTimer --scratch-path .build-bench-peer
	$(FLOOR_BUILD)
	$(call venv,$(BENCH_VENV),gpiozero$(,) matplotlib,-r Benchmarks/requirements.txt)
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 $(BENCH_VENV)/bin/python bench.py --tock $(CURDIR)/.build-release/release/tock \
		--swift-timer $(CURDIR)/.build-bench-peer/release/swift-timer --python $(BENCH_VENV)/bin/python \
		--floor-static $(FLOOR)/floor-static --floor-dynamic $(FLOOR)/floor-dynamic \
		--floor-swift $(FLOOR)/count-swift --floor-c $(FLOOR)/count-c \
		--out $(BENCH_OUT) $(if $(QUICK),--quick,)
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) mosquitto mosquitto-clients"
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 python3 mqtt_bench.py --tock $(CURDIR)/.build-release/release/tock \
		--out $(BENCH_OUT)/mqtt $(if $(QUICK),--seconds 20 --cycles 4,)
	@$(MAKE) --no-print-directory bench-tm1637
	@$(MAKE) --no-print-directory bench-timers
	@$(MAKE) --no-print-directory bench-kernel-path
	@$(MAKE) --no-print-directory bench-syscalls
	@$(MAKE) --no-print-directory bench-card

## The display path through a real kernel (Benchmarks/kernel-path/): the
## release build in the gpio-sim VM driving a TM1637, counting down and as
## a stopwatch, with the guest's gpio and syscall trace events decoded per
## frame (line changes and reads beside the protocol's floor, syscalls by
## kind, bus time, the wire's timing); BEFORE=path/to/old/tock adds an
## earlier build; an HT16K33 is tried on i2c-stub (about 3 minutes;
## Benchmarks/kernel-path/TABLE.md). VM_ARCH=arm64 with TOCK=an arm64 tock
## runs the arm64 guest instead.
.PHONY: bench-kernel-path
KPATH_TOCK = $(or $(TOCK),$(CURDIR)/.build-release/release/tock)
bench-kernel-path:
	bash Tests/vm/prepare.sh
	$(if $(TOCK),,$(DEPLOY_BUILD))
	cd Benchmarks/kernel-path && PYTHONDONTWRITEBYTECODE=1 python3 kernel_path.py \
		$(if $(BEFORE),--tock before=$(abspath $(BEFORE)),) --tock tock=$(abspath $(KPATH_TOCK)) \
		--out $(BENCH_OUT)/kernel-path$(if $(filter arm64,$(VM_ARCH)),/arm64,) $(if $(QUICK),--timer-seconds 3 --stopwatch-seconds 1,)

## The TM1637 driver's cost per frame (Benchmarks/tm1637.py): line
## operations beside the floor the bytes sent need, and instructions under
## callgrind, with the real driver built into a harness over the mock
## two-wire bus (Benchmarks/tm1637/; about 2 minutes).
## TM1637_BEFORE=path/to/an/older/tm1637-frames adds it side by side.
.PHONY: bench-tm1637
bench-tm1637:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind"
	$(SWIFT) build -c release --package-path Benchmarks/tm1637 --scratch-path .build-tm1637
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 python3 tm1637.py $(if $(TM1637_BEFORE),--harness before=$(abspath $(TM1637_BEFORE)),) \
		--harness tock=$(CURDIR)/.build-tm1637/release/tm1637-frames --out $(BENCH_OUT)/tm1637

## What an open page costs the box (Benchmarks/web_cost.py): instructions a
## second of tock-web and tock (callgrind) with 0, 1, 2 and 5 live displays
## on a stopwatch's first minute and on a count-down, bytes a display, the
## page's first load and reload, tock-web's resident memory. WEB_BEFORE_TOCK
## and WEB_BEFORE (an older tock and tock-web) are measured in the same run.
.PHONY: bench-web
bench-web:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind"
	$(DEPLOY_BUILD)
	ln -sf tock .build-release/release/tock-web
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 python3 web_cost.py --tock $(CURDIR)/.build-release/release/tock \
		--tock-web $(CURDIR)/.build-release/release/tock-web \
		$(if $(WEB_BEFORE),--before-tock $(abspath $(or $(WEB_BEFORE_TOCK),$(CURDIR)/.build-release/release/tock)) --before-web $(abspath $(WEB_BEFORE)),) \
		--json $(BENCH_OUT)/web-cost.json

## Tock against an earlier build of itself (BEFORE=path/to/old/tock), side
## by side in one run: rounds of old, new, old, new of the instructions per
## second of counting (callgrind), the wake-ups per second while counting
## and the idle clock's wake-ups per minute (off, blinking, steady), with the
## medians and new/old (Benchmarks/compare/TABLE.md). ROUNDS (default 3;
## about 15 minutes each) and IDLE_SECONDS (default 120) shorten it.
.PHONY: bench-compare
ROUNDS ?= 3
bench-compare:
	@[ -n "$(BEFORE)" ] || { echo "usage: make bench-compare BEFORE=path/to/old/tock [ROUNDS=3] [IDLE_SECONDS=120]"; exit 2; }
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind python3-venv"
	$(DEPLOY_BUILD)
	$(call venv,$(BENCH_VENV),gpiozero$(,) matplotlib,-r Benchmarks/requirements.txt)
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 $(BENCH_VENV)/bin/python bench.py --tock $(CURDIR)/.build-release/release/tock \
		--compare $(abspath $(BEFORE)) --rounds $(ROUNDS) $(if $(IDLE_SECONDS),--idle-seconds $(IDLE_SECONDS),) \
		--out $(CURDIR)/Benchmarks/compare

## A second of counting, counted (callgrind): the count-down, the stopwatch
## and the count-down with the MQTT link up, without display or buzzer
## drivers, for the release build and, with BEFORE=path/to/old/tock, an
## earlier build beside it (Benchmarks/tick_cost.sh; about 3 minutes a build).
## What each extra timer costs a second of counting (Benchmarks/timers_cost.sh).
.PHONY: bench-timers
bench-timers:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind"
	$(DEPLOY_BUILD)
	bash Benchmarks/timers_cost.sh $(CURDIR)/.build-release/release/tock

## tock-web's resident memory with a live page (paired, the page loaded,
## the live display open on a count) after 65 s, this release build and,
## given BEFORE (a tock binary), that one (Benchmarks/web_memory.py).
.PHONY: bench-web-memory
bench-web-memory:
	$(DEPLOY_BUILD)
	PYTHONDONTWRITEBYTECODE=1 python3 Benchmarks/web_memory.py $(if $(BEFORE),before=$(abspath $(BEFORE)),) now=$(CURDIR)/.build-release/release/tock

## One program against two: installed size, and resident and proportional
## memory of tock and tock-web running side by side from this package and,
## given BEFORE_DEB, from that one (Benchmarks/one_program.sh).
.PHONY: bench-one-program
bench-one-program: deb
	bash Benchmarks/one_program.sh $(if $(BEFORE_DEB),before=$(abspath $(BEFORE_DEB)),) now=$$(ls -t .build/deb/tock_*_$(HOST_ARCH).deb | head -1)

## The files one Start press crosses, counted (Benchmarks/press_path.py):
## the release build on the mock backend under callgrind, a window with the
## press against one without, each instruction given to the source file its
## address belongs to; writes the table into docs/architecture.md (about a minute).
## `make mode-probe`: a throwaway mode added in a scratch copy of the tree,
## what the compiler refuses listed, each switch given the mode, the files
## it took (docs/architecture.md, "A new mode"; a build from scratch).
.PHONY: press-path mode-probe
mode-probe:
	bash Tests/docs/mode-probe.sh --fix
press-path:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind binutils"
	$(DEPLOY_BUILD)
	python3 Benchmarks/press_path.py $(CURDIR)/.build-release/release/tock --write docs/architecture.md

.PHONY: bench-tick
bench-tick:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind mosquitto"
	$(DEPLOY_BUILD)
	bash Benchmarks/tick_cost.sh $(if $(BEFORE),before=$(abspath $(BEFORE)),) now=$(CURDIR)/.build-release/release/tock

## System calls a wake-up while counting down MM:SS, counted by strace
## (Benchmarks/wake_syscalls.sh), beside an earlier build with
## BEFORE=path/to/old/tock (about a minute).
.PHONY: bench-syscalls
bench-syscalls:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) strace"
	$(DEPLOY_BUILD)
	bash Benchmarks/wake_syscalls.sh $(if $(BEFORE),before=$(abspath $(BEFORE)),) now=$(CURDIR)/.build-release/release/tock

## Bytes reaching the card for each state change (Benchmarks/card_writes.sh):
## the state file on ext4 on a loop device mounted as the image mounts its
## data partition, a Start or Stop every 5 s, beside an earlier build with
## BEFORE=path/to/old/tock (about 5 minutes a build; root).
.PHONY: bench-card
bench-card:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) e2fsprogs util-linux"
	$(DEPLOY_BUILD)
	$(SUDO) bash Benchmarks/card_writes.sh $(if $(BEFORE),before=$(abspath $(BEFORE)),) now=$(CURDIR)/.build-release/release/tock | tee $(BENCH_OUT)/card-writes.txt

## The floor (Benchmarks/peers/Floor): a Swift program without Foundation
## that says ready and waits, linked as the release build is and as the
## Swift peer is.
FLOOR := $(CURDIR)/.build-bench-floor
FLOOR_BUILD = mkdir -p $(FLOOR) && swiftc -O -static-stdlib -use-ld=lld -Xclang-linker --ld-path=$(CURDIR)/deploy/ld-static-libstdcxx \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic Benchmarks/peers/Floor/floor.swift -o $(FLOOR)/floor-static \
	&& swiftc -O Benchmarks/peers/Floor/floor.swift -o $(FLOOR)/floor-dynamic \
	&& swiftc -O -static-stdlib -use-ld=lld -Xclang-linker --ld-path=$(CURDIR)/deploy/ld-static-libstdcxx \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic -import-objc-header Benchmarks/floor/floor.h Benchmarks/floor/floor.swift \
	-o $(FLOOR)/count-swift && cc -O2 Benchmarks/floor/floor.c -o $(FLOOR)/count-c

## Instructions from exec to ready, and per second of counting with the
## service's notification socket, under callgrind (Benchmarks/startup.py):
## the release build beside the Foundation Timer peer, and beside an earlier
## build with BEFORE=path/to/old/tock, and the floor (Benchmarks/startup/TABLE.md;
## about 3 minutes).
.PHONY: bench-startup
bench-startup:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) valgrind"
	$(DEPLOY_BUILD)
	$(SWIFT) build -c release --package-path Benchmarks/peers/SwiftTimer --scratch-path .build-bench-peer
	$(FLOOR_BUILD)
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 python3 startup.py $(if $(BEFORE),--tock before=$(abspath $(BEFORE)),) \
		--tock tock=$(CURDIR)/.build-release/release/tock --swift-timer $(CURDIR)/.build-bench-peer/release/swift-timer \
		--floor "floor: static Swift, no Foundation=$(FLOOR)/floor-static" \
		--out $(CURDIR)/Benchmarks/startup

## The scheduling comparison behind deploy/tock.service: Tock with the unit's
## settings, with Nice=-10 and with none, every core busy, 4 runs each (about
## 7 minutes; Benchmarks/scheduling/TABLE.md).
.PHONY: bench-scheduling
bench-scheduling:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) stress-ng python3-venv"
	$(DEPLOY_BUILD)
	$(call venv,$(BENCH_VENV),gpiozero$(,) matplotlib,-r Benchmarks/requirements.txt)
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 $(BENCH_VENV)/bin/python bench.py --tock $(CURDIR)/.build-release/release/tock \
		--swift-timer none --python $(BENCH_VENV)/bin/python --out $(CURDIR)/Benchmarks/scheduling \
		--programs tock,tock-nice,tock-untuned --conditions load --repeat 4

## The idle clock's wake-ups per minute on the real reactor: tock run idle
## with display.idle off, with the blinking colon and with a steady one,
## 120 s each (about 6.5 minutes; Benchmarks/idle-clock/TABLE.md).
## The MQTT link's cost to the timer's wake-ups (side by side with a tock
## without it, under a command flood and a broker restart) and a fleet
## group's flip skew: Benchmarks/mqtt/TABLE.md.
.PHONY: bench-mqtt
bench-mqtt:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) mosquitto mosquitto-clients"
	$(DEPLOY_BUILD)
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 python3 mqtt_bench.py --tock $(CURDIR)/.build-release/release/tock \
		--out $(CURDIR)/Benchmarks/mqtt $(if $(QUICK),--seconds 20 --cycles 4,)

.PHONY: bench-idle-clock
bench-idle-clock:
	$(DEPLOY_BUILD)
	cd Benchmarks && PYTHONDONTWRITEBYTECODE=1 python3 bench.py --idle-clock-only --tock $(CURDIR)/.build-release/release/tock \
		--swift-timer none --python none --out $(CURDIR)/Benchmarks/idle-clock

## Deployment (deploy/): the Debian package, a direct install, and their test.
.PHONY: deb install deploy-test
# Release links: lld with packed relative relocations (DT_RELR, glibc 2.36 and
# later): the dynamic loader applies 80,000 relative relocations as a 15 KB
# bitmap instead of a 1.9 MB table, half of `tock --version`'s instructions
# (Benchmarks/README.md, start-up). gold, swiftc's default, has no DT_RELR.
# lld is run through deploy/ld-static-libstdcxx, which links the C++ library
# the Swift runtime needs in rather than loading libstdc++.so.6 (1.6 M
# instructions and 1.2 MB resident less at start). --no-export-dynamic takes
# back swiftc's --export-dynamic: nothing loads symbols from the program, and
# its 10,000 exported names cost 0.8 MB and, at start, the runtime's one
# dladdr(3) that scans them (0.3 M instructions; docs/benchmarks.md).
# The functions the box runs placed together: each function in a section of
# its own, laid out in deploy/order/tock.order's order (make order-file).
# The kernel maps code 64 KiB around each page a process faults in; with
# the code that runs spread over the text, start-up's stages and a first
# press were 4-5 MB resident each (docs/benchmarks.md, "Code laid out").
RELEASE_ORDER := -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/deploy/order/tock.order -Xlinker --no-warn-symbol-ordering
RELEASE_LINK := -Xswiftc -use-ld=lld -Xswiftc -Xclang-linker -Xswiftc --ld-path=$(CURDIR)/deploy/ld-static-libstdcxx \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic $(RELEASE_ORDER)
DEPLOY_BUILD := SWIFT="$(SWIFT)" bash deploy/release-build.sh .build-release -c release --static-swift-stdlib --product tock $(RELEASE_LINK)
# tock-web is tock run by that name (Sources/tock/Main.swift): a link.
DEPLOY_BUILD_WEB := ln -sf tock .build-release/release/tock-web

## deploy/order/tock.order made again from a release build of this tree
## (deploy/order/make-order.py: callgrind over start-up, presses, a count's
## seconds, the stopwatch and the MQTT link), then the build linked with it;
## order-check says how much of the release build the order still covers.
.PHONY: order-file order-check
order-file:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="valgrind mosquitto"
	$(DEPLOY_BUILD)
	python3 deploy/order/make-order.py .build-release/release/tock
	$(DEPLOY_BUILD)
	python3 deploy/order/check-order.py .build-release/release/tock
order-check:
	$(DEPLOY_BUILD)
	python3 deploy/order/check-order.py .build-release/release/tock

## .build/deb/tock_<version>_<arch>.deb from a release build (deploy/build-deb.sh).
## ARCH=arm64 on a PC: the Raspberry Pi OS (Debian 13) package, cross-built
## with Debian's Swift (deploy/cross/, docs/arm64.md).
HOST_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
ifeq ($(ARCH)-$(filter arm64,$(HOST_ARCH)),arm64-)
deb: deb-arm64
else
deb:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) dpkg-dev"
	$(DEPLOY_BUILD)
	$(DEPLOY_BUILD_WEB)
	bash deploy/build-deb.sh --web .build-release/release/tock-web .build-release/release/tock .build/deb
endif

## The arm64 package from this machine: a Debian sid root with Debian's
## Swift, a Debian 13 arm64 sysroot and a Swift SDK for it, cached in
## .cache/arm64/ (about 5 minutes the first time).
.PHONY: deb-arm64 vm-test-arm64 systemd-test-arm64
CROSS_PACKAGES := mmdebstrap dpkg-dev binutils-aarch64-linux-gnu
ARM64_DEB_BIN := .build-arm64/deb-root/usr/bin/tock
deb-arm64:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(CROSS_PACKAGES)"
	$(SUDO) bash deploy/cross/deb.sh .build/deb
	$(SUDO) rm -rf .build-arm64/deb-root && $(SUDO) dpkg-deb -x $$(ls -t .build/deb/tock_*_arm64.deb | head -1) .build-arm64/deb-root

## lintian on the arm64 package, then the GPIO tests of vm-test on an arm64
## guest (Debian 13's kernel, gpio-sim built for it) with its binary.
vm-test-arm64: $(DEB_ARM64_PREREQ)
	@$(MAKE) --no-print-directory deps APT_PACKAGES="qemu-system-arm cpio xz-utils zstd lintian"
	bash Tests/deploy/lintian.sh $$(ls -t .build/deb/tock_*_arm64.deb | head -1)
	$(SUDO) VM_ARCH=arm64 bash Tests/vm/vm-test.sh --tock arm64=$(ARM64_DEB_BIN)

## The arm64 package installed with apt on Debian 13 arm64 under QEMU with
## systemd, then the two boots of systemd-test (Tests/vm-systemd/). Its root
## is the Raspberry Pi image's base root (deploy/image/base.sh, mmdebstrap
## with qemu-user), shared with make image.
systemd-test-arm64: $(DEB_ARM64_PREREQ)
	@$(MAKE) --no-print-directory deps APT_PACKAGES="qemu-system-arm cpio xz-utils e2fsprogs dpkg-dev mmdebstrap qemu-user-static binfmt-support arch-test"
	$(SUDO) VM_ARCH=arm64 bash Tests/vm-systemd/systemd-test.sh

## The Raspberry Pi image (deploy/image/, docs/raspberry-pi.md; tested
## under QEMU only, never yet on a Pi):
## .build/image/tock-<version>-raspi-arm64.img.xz and .img.bmap, Debian 13
## arm64 with the arm64 package of deb-arm64. The Debian root is cached in
## .cache/image/ by its package set; its maintainer scripts run under
## qemu-user (binfmt_misc, mounted when it is not).
.PHONY: image image-smoke image-test image-soak image-repro image-base-background image-pi4 bench-boot repo
## Beside the image: tock-<version>-imager.json, Raspberry Pi Imager's
## repository file (`rpi-imager --repo FILE`), with tock-icon.png.
## IMAGE_REPO_URL: the apt repository the box upgrades from (make repo's
## top; TOCK_REPO_URL is its older name); without it, none, which the box
## says in tock status and on its page (docs/updates.md). IMAGE_BASE_URL:
## where the .img.xz will be served for Imager (default: file:// of
## .build/image).
IMAGE_HOST_PACKAGES := mmdebstrap qemu-user-static binfmt-support arch-test dosfstools mtools fdisk bmap-tools apt-utils xz-utils e2fsprogs python3
image: deb-arm64
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(IMAGE_HOST_PACKAGES)"
	$(SUDO) IMAGE_REPO_URL="$(or $(IMAGE_REPO_URL),$(TOCK_REPO_URL))" IMAGE_BASE_URL="$(IMAGE_BASE_URL)" \
		bash deploy/image/build.sh $$(ls -t .build/deb/tock_*_arm64.deb | head -1) .build/image

## The image under QEMU's raspi3b (Tests/image/): first boot with a setup
## file, the page, a broken setup and its fix, power cuts (two in first
## boots, then IMAGE_TEST_CUTS more, default 10), apt upgrade from a signed
## repository on this machine and one signed by another key refused.
## Not part of make test: an hour or more, after a cold base root of about
## 10 minutes on two free cores (docs/raspberry-pi.md, "State of this image").
## IMAGE_TEST_WORK: another work directory than .cache/image/test.
IMAGE_TEST_CUTS ?= 10
image-test: image
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(IMAGE_HOST_PACKAGES) qemu-system-arm openssh-client gnupg"
	$(SUDO) IMAGE_TEST_CUTS=$(IMAGE_TEST_CUTS) bash Tests/image/image-test.sh $(if $(PHASES),--phases $(PHASES),)

## Part of make test: the image (uncompressed: the tests read
## .cache/image/) in three boots under QEMU's raspi3b (image_test.py's
## short phase): the first boot with a setup file (READY on pinctrl-bcm2835
## by the default config's line names, host name, zone and SSH key applied,
## read-only root and FAT, the data partition grown), the page paired with
## the code off the display and a count started from it; a stopwatch and a
## power cut while it counts; a broken setup file and config.yaml (the
## display's code, the FAT log), the count continued, a second cut; the
## files fixed, the count still right; apt update && apt upgrade to the
## next version with the count running (a repository signed by another key
## refused first); every file system clean after each cut and the final
## power-off. The image trusts a key made for the run (the project's secret
## key is not on a CI machine): its only difference from make image's.
SMOKE_KEY := $(CACHE)/image/smoke-key
image-smoke: $(DEB_ARM64_PREREQ)
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(IMAGE_HOST_PACKAGES) qemu-system-arm openssh-client gnupg"
	$(SUDO) bash Tests/image/throwaway-key.sh $(SMOKE_KEY) "Tock archive stand-in for make image-smoke"
	$(SUDO) IMAGE_COMPRESS=0 IMAGE_REPO_KEYRING=$(SMOKE_KEY)/key.pgp bash deploy/image/build.sh $$(ls -t .build/deb/tock_*_arm64.deb | head -1) .build/image
	$(SUDO) TOCK_REPO_GNUPGHOME=$(SMOKE_KEY)/gnupg TOCK_REPO_KEYRING=$(SMOKE_KEY)/key.pgp bash Tests/image/image-test.sh --phases short

## The image as a Raspberry Pi 4 (Tests/image/pi4-test.sh): the image of
## make image-smoke (or make image) when .cache/image has one, else built
## as image-smoke builds it, then its first boot under QEMU's raspi4b from
## Debian 13's qemu-system-arm 10.0 (a root cached under .cache by its
## package set, Tests/image/qemu-root.sh): READY on the serial console,
## tock on the BCM2711's GPIO17/27/22/23 by the default names, the setup
## applied, /data grown, a clean power-off. The card's device tree is
## changed for QEMU in a copy made at test time (Tests/image/pi4-dtb.sh).
## Not part of make test (docs/testing.md): about 10 minutes under load.
image-pi4:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(IMAGE_HOST_PACKAGES)"
	@if [ ! -f .cache/image/tock-$$(bash -c '. deploy/image/lib.sh; tock_version')-raspi-arm64.img ]; then \
		$(MAKE) --no-print-directory $(DEB_ARM64_PREREQ) && \
		$(SUDO) bash Tests/image/throwaway-key.sh $(SMOKE_KEY) "Tock archive stand-in for make image-smoke" && \
		$(SUDO) IMAGE_COMPRESS=0 IMAGE_REPO_KEYRING=$(SMOKE_KEY)/key.pgp bash deploy/image/build.sh $$(ls -t .build/deb/tock_*_arm64.deb | head -1) .build/image; \
	fi
	$(SUDO) bash Tests/image/pi4-test.sh

## The image's boot by stage under QEMU's raspi3b (Tests/image/boot_stages.py):
## a first boot, a later boot and a boot after a power cut, each split into
## the kernel, the initramfs, every unit on tock.service's critical chain
## (systemd-analyze) and tock to READY; the image of image-smoke (or make
## image), built as image-pi4 builds it when there is none.
## BOOT_BEFORE=path/to/an/older.img boots it too, interleaved, side by side
## (about 25 minutes for both under load). Table and JSON: Benchmarks/boot/.
bench-boot:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(IMAGE_HOST_PACKAGES) qemu-system-arm openssh-client"
	@if [ ! -f .cache/image/tock-$$(bash -c '. deploy/image/lib.sh; tock_version')-raspi-arm64.img ]; then \
		$(MAKE) --no-print-directory $(DEB_ARM64_PREREQ) && \
		$(SUDO) bash Tests/image/throwaway-key.sh $(SMOKE_KEY) "Tock archive stand-in for make image-smoke" && \
		$(SUDO) IMAGE_COMPRESS=0 IMAGE_REPO_KEYRING=$(SMOKE_KEY)/key.pgp bash deploy/image/build.sh $$(ls -t .build/deb/tock_*_arm64.deb | head -1) .build/image; \
	fi
	mkdir -p $(BENCH_OUT)/boot
	set -o pipefail; cd Tests/image && PYTHONDONTWRITEBYTECODE=1 $(SUDO) python3 boot_stages.py \
		--image $(CURDIR)/.cache/image/tock-$$(bash -c '. ../../deploy/image/lib.sh; tock_version')-raspi-arm64.img \
		$(if $(BOOT_BEFORE),--before $(abspath $(BOOT_BEFORE)),) --work $(CACHE)/image/bench-boot \
		--json $(BENCH_OUT)/boot/stages.json | tee $(BENCH_OUT)/boot/TABLE.txt

## The image's base root (deploy/image/base.sh: 10 minutes cold, mostly one
## core of qemu-user) built at nice 19 beside make test's first stages,
## which leave a core idle much of the time; systemd-test-arm64 and
## image-smoke wait for it (base.sh's lock). Its log: .cache/image/base.log.
image-base-background:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="mmdebstrap qemu-user-static binfmt-support arch-test"
	@mkdir -p .cache/image
	@echo "image base: made beside the next stages, unless cached (.cache/image/base-background.log)"
	@$(SUDO) setsid nice -n 19 bash deploy/image/base.sh > .cache/image/base-background.log 2>&1 < /dev/null &

## The image built twice from one cached base, one .deb and one
## SOURCE_DATE_EPOCH, compared byte for byte (Tests/image/repro.sh).
image-repro: deb-arm64
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(IMAGE_HOST_PACKAGES)"
	$(SUDO) bash Tests/image/repro.sh $$(ls -t .build/deb/tock_*_arm64.deb | head -1)

## The power-cut soak: the cuts phase with 100 cuts in two lanes of 50 run
## side by side, each its own card, QEMU and seed (Tests/image/soak.sh;
## 1.4-2 minutes a cut under QEMU: about 1.7 hours of two free cores).
## IMAGE_SOAK_CUTS, IMAGE_SOAK_LANES and IMAGE_SOAK_SEED change them.
image-soak: image
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(IMAGE_HOST_PACKAGES) qemu-system-arm openssh-client gnupg"
	$(SUDO) bash Tests/image/soak.sh

## The signed apt repository in .build/repo (deploy/repo/, docs/updates.md)
## from the newest amd64 and arm64 packages in .build/deb.
repo:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="apt-utils gnupg"
	bash deploy/repo/repo.sh .build/repo $$(for a in amd64 arm64; do ls -t .build/deb/tock_*_$$a.deb 2>/dev/null | head -1; done)

## Build, then install and start the tock service on this machine (deploy/install.sh).
install: deps
	$(DEPLOY_BUILD)
	$(SUDO) bash deploy/install.sh --binary .build-release/release/tock

## The address on the display against a real kernel (root): a network
## namespace with veth interfaces, addresses added with ip(8), the scroll
## seen in the traces of tock run (mock backend) and tock sim in tmux
## (Tests/network/; about 40 s of real time).
.PHONY: address-test
address-test:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) iproute2"
	$(SWIFT) build --product tock
	$(SUDO) bash Tests/network/address-display-test.sh .build/debug/tock

## The unit, config, udev rule, install.sh and the .deb (Tests/deploy/deploy-test.sh), lintian on the .deb.
deploy-test: $(DEB_PREREQ)
	@$(MAKE) --no-print-directory deps APT_PACKAGES="lintian apt-utils gnupg"
	python3 deploy/order/check-order.py .build-release/release/tock
	bash Tests/deploy/deploy-test.sh
	bash Tests/deploy/clock-from-data-test.sh
	bash Tests/deploy/tock-config-test.sh
	bash Tests/deploy/update-check-test.sh
	bash Tests/deploy/lintian.sh $$(ls -t .build/deb/tock_*_$(HOST_ARCH).deb | head -1)

## The .deb on a real systemd: Debian 12 under QEMU with gpio-sim, two boots (Tests/vm-systemd/).
.PHONY: systemd-test
systemd-test: $(DEB_PREREQ)
	$(SUDO) bash Tests/vm-systemd/systemd-test.sh

## The box's Wi-Fi on a real kernel: mac80211_hwsim radios under QEMU as the box,
## a hostapd router and a phone; joins, the setup hotspot and its page (Tests/vm-wifi/).
.PHONY: wifi-test
wifi-test: deps
	$(SWIFT) build --product tock
	ln -sf tock .build/debug/tock-web
	$(SUDO) bash Tests/vm-wifi/wifi-test.sh

## Hardware build guide (Hardware/): regenerate the wiring diagrams (schemdraw,
## in a private venv under .cache/) and the display pictures (tock render --svg).
.PHONY: hardware-docs hardware-test
HW_SCRATCH ?= .build
HW_VENV := $(CACHE)/hardware-venv
HW_DIAGRAMS := buttons-leds buzzer-active buzzer-passive light-bh1750 rtc-ds3231
HW_DISPLAYS := tm1637 ht16k33 max7219
hardware-docs: deps
	$(call venv,$(HW_VENV),schemdraw,'schemdraw==0.23')
	cd Hardware/diagrams && export PYTHONDONTWRITEBYTECODE=1 && for d in $(HW_DIAGRAMS); do $(HW_VENV)/bin/python $$d.py $$d.svg || exit 1; done
	cd Hardware/diagrams && export PYTHONDONTWRITEBYTECODE=1 && for k in $(HW_DISPLAYS); do $(HW_VENV)/bin/python displays.py $$k display-$$k.svg || exit 1; done
	$(SWIFT) build --scratch-path $(HW_SCRATCH) --product tock
	bash Hardware/render-pictures.sh $(HW_SCRATCH)/debug/tock Hardware/pictures

## Pins agree across deploy/config.yaml, Hardware/README.md and the diagram
## sources; the committed display pictures match tock render --svg.
hardware-test: deps
	$(SWIFT) build --scratch-path $(HW_SCRATCH) --product tock
	bash Tests/hardware/consistency.sh --tock $(HW_SCRATCH)/debug/tock
