SHELL := /bin/bash
# Tock: the two commands a person needs are `make demo` and `make test`.
# Each installs what it needs on a fresh Debian / Raspberry Pi OS machine
# that has Swift.

SWIFT ?= swift
APT_PACKAGES := libgpiod-dev pkg-config tmux
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test deps build release clean

## The desk simulator in this terminal (keys: s x r, R long reset, u/d switch, q quit).
demo: build
	.build/debug/tock sim $(if $(CONFIG),--config $(CONFIG),)

## Every test: unit, scenario (virtual time) and kernel-interface tests.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	bash Tests/terminal/sim-in-tmux.sh .build/debug/tock

build: deps
	$(SWIFT) build --product tock

release: deps
	$(SWIFT) build -c release --product tock

## System packages the build and tests use (only what is missing).
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		$(SUDO) apt-get update -q && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

clean:
	rm -rf .build
