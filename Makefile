# PhotoKiosk — the README's two commands are `make run` and `make test`.
SWIFT ?= swift
PHOTOS ?=
RUN_ARGS ?=

.PHONY: run test deps build release unit-test e2e bench clean

deps:
	@scripts/install-deps.sh

# Release build: the app is what a kiosk runs, so it is built optimised.
release: deps
	$(SWIFT) build -c release --product photokiosk

run: release
	.build/release/photokiosk $(if $(PHOTOS),--photos $(PHOTOS)) $(RUN_ARGS)

unit-test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

test: unit-test
	@if [ -x e2e/run.sh ]; then e2e/run.sh; else echo "e2e: no end-to-end suite in this tree"; fi

clean:
	rm -rf .build

# Benchmarks (BENCHMARKS.md): release build, the figures beside their baselines, a frame-time
# histogram. Prints numbers; never fails on timing.
bench:
	@bench/run.sh
