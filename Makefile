# Trawler's two everyday commands are `make run` and `make test` (see README.md).
GO ?= go
BIN := build/trawler

.PHONY: run test build headless deps deps-test fmt-check vet gui-smoke bench clean

run: deps
	$(GO) run .

build: deps
	mkdir -p build
	$(GO) build -buildvcs=auto -o $(BIN) .

# Every command but the window: static, pure Go, no system packages needed
# (servers, containers, robots). GOOS/GOARCH pick another platform.
headless:
	mkdir -p build
	CGO_ENABLED=0 $(GO) build -tags nogui -buildvcs=auto -trimpath -o build/trawler-headless .

deps:
	@bash .ci/install-deps build

# The build's packages plus the tests': Xvfb and xdotool for the window's
# smoke test, dbus and gnome-keyring for the keychain tests.
deps-test:
	@bash .ci/install-deps ci

test: deps-test fmt-check vet
	$(GO) test -race ./...
	bash .ci/gui-smoke

# The real binary under Xvfb: the window must appear, draw and close without
# a Fyne threading error; the screenshot lands in build/screenshot.png.
gui-smoke:
	bash .ci/gui-smoke

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./crawl/...

clean:
	rm -rf build
