# PhotoKiosk — the README's two commands are `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
PHOTOS ?=
RUN_ARGS ?=

.PHONY: run test deps build release unit-test e2e bench clean

deps:
	@scripts/install-deps.sh

# Release build: the app is what a kiosk runs, so it is built optimised, with the Swift runtime
# linked in as `make install` and the .deb do: only the runtime pages it touches are resident
# (about 2 MB less than libswiftCore and FoundationEssentials as shared libraries; BENCHMARKS.md).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product photokiosk

run: release
	.build/release/photokiosk $(if $(PHOTOS),--photos $(PHOTOS)) $(RUN_ARGS)

unit-test: deps
	$(SWIFT) build --build-tests
	@set -o pipefail; $(SWIFT) test --skip-build 2>&1 | tee .build/unit-test.log

# Everything: unit tests, a short fuzz run, the QEMU end-to-end stages (scripts/run-tests.sh).
# The last line, "tests: N passed, M failed, K skipped", is counted from what ran.
test: deps
	@scripts/run-tests.sh

clean:
	rm -rf .build

# The README's screenshots (docs/screenshots/*.png), rendered headless from the bundled samples;
# scripts/screenshots.sh lists them, one line per shot.
.PHONY: screenshots
screenshots: release
	@scripts/install-deps.sh pngquant
	scripts/screenshots.sh

# Picture-frame install (see docs/raspberry-pi.md, "Setting up the frame"): builds a release with the
# Swift runtime linked in (as you), then installs program, samples, config, unit, udev rules and
# the photokiosk user (as root, through sudo). DESTDIR=dir stages instead; BINARY=path installs
# a prebuilt program (e.g. cross-compiled) without building.
.PHONY: install deb static-release
STATIC_BIN = $(or $(BINARY),$(shell $(SWIFT) build -c release --static-swift-stdlib --show-bin-path 2>/dev/null)/photokiosk)
SUDO = $(if $(DESTDIR),,$(shell [ "$$(id -u)" -eq 0 ] || echo sudo))

static-release: deps $(if $(BINARY),,release)

install: static-release
	$(SUDO) env DESTDIR="$(DESTDIR)" PREFIX="$(or $(PREFIX),/usr/local)" scripts/install.sh --binary "$(STATIC_BIN)"

# Debian package (debian/, dpkg-buildpackage) from the release build: .build/photokiosk_VERSION_ARCH.deb
deb: static-release
	scripts/build-deb.sh --binary "$(STATIC_BIN)"

# The arm64 package for Raspberry Pi OS (64-bit) / Debian 13, cross-built here with Debian 13's
# Swift in a cached build root (scripts/build-deb-arm64.sh, docs/raspberry-pi.md):
# .build/photokiosk_VERSION_arm64.deb. Needs root or sudo (debootstrap, chroot).
.PHONY: deb-arm64
deb-arm64:
	scripts/build-deb-arm64.sh

# Robustness (issue 11): libFuzzer over the decoders and EXIF (FUZZ_SECONDS per target), and the
# unit tests under AddressSanitizer + ThreadSanitizer (SANITIZER=asan|tsan|all).
FUZZ_SECONDS ?= 60
SANITIZER ?= all
.PHONY: fuzz sanitize
fuzz:
	fuzz/run.sh $(FUZZ_SECONDS)

sanitize:
	scripts/sanitizers.sh $(SANITIZER)

# Benchmarks (BENCHMARKS.md): release build, the figures beside their baselines, a frame-time
# histogram. Prints numbers; never fails on timing.
bench:
	@bench/run.sh
