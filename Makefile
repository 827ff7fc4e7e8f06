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

# Robustness (issue 11): libFuzzer over the decoders and EXIF (FUZZ_SECONDS per target), and the
# unit tests under AddressSanitizer + ThreadSanitizer (SANITIZER=asan|tsan|all).
FUZZ_SECONDS ?= 60
SANITIZER ?= all
.PHONY: fuzz sanitize
fuzz:
	fuzz/run.sh $(FUZZ_SECONDS)

sanitize:
	scripts/sanitizers.sh $(SANITIZER)
