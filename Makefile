# Trawler's two everyday commands are `make run` and `make test` (see README.md).
GO ?= go
BIN := build/trawler

.PHONY: run test build headless package package-linux package-windows install deps deps-test deps-package fmt-check vet gui-smoke package-check bench bench-peers clean

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

# The build's packages plus MinGW-w64, to cross-compile the Windows .exe.
deps-package:
	@bash .ci/install-deps package

# The Fyne tool at the version go.mod pins, built for this machine once (a
# `go tool fyne` under the Windows build's CC would build the tool itself
# with MinGW).
build/fyne: go.mod go.sum
	mkdir -p build
	$(GO) build -o build/fyne fyne.io/tools/cmd/fyne

# fyne package rewrites FyneApp.toml (drops its comments, counts builds):
# this runs it and puts the file back, so a build leaves the tree clean.
FYNE_KEEPS_TOML = bash .ci/keep-file FyneApp.toml

# Desktop packages, with the Fyne tool pinned in go.mod (a tool dependency) and
# FyneApp.toml's name, ID, version and icon. The macOS .app needs a Mac:
# .github/workflows/release.yml builds all three on a tagged release.
package: package-linux package-windows

# dist/trawler-linux-amd64.tar.xz: the binary, the .desktop file, the icon
# and a Makefile; unpack it and run make user-install (no root needed).
package-linux: deps build/fyne
	mkdir -p dist
	$(FYNE_KEEPS_TOML) build/fyne package -os linux -release
	bash .ci/repack-linux Trawler.tar.xz dist/trawler-linux-amd64.tar.xz

# dist/trawler-windows-amd64.exe: a GUI-subsystem program with its icon and
# version resource; from a terminal its commands print there as usual.
# GLFW's C code is built with stack protection, which MinGW-w64 keeps in
# libssp: linked statically, so the .exe needs no extra DLL.
package-windows: deps-package build/fyne
	mkdir -p dist
	$(FYNE_KEEPS_TOML) env CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 CGO_LDFLAGS="-O2 -g -l:libssp.a" \
		build/fyne package -os windows -release
	mv Trawler.exe dist/trawler-windows-amd64.exe

# Installs the Linux package for this user: ~/.local/bin, the menu entry
# and the icon.
install: package-linux
	tmp=$$(mktemp -d) && tar -xJf dist/trawler-linux-amd64.tar.xz -C "$$tmp" && \
	$(MAKE) -C "$$tmp/trawler" user-install && rm -rf "$$tmp"

# The build's packages plus the tests': Xvfb and xdotool for the window's
# smoke test, dbus and gnome-keyring for the keychain tests, PostgreSQL,
# MinGW-w64 and Wine for the packages' check.
deps-test:
	@bash .ci/install-deps ci

test: deps-test fmt-check vet
	$(GO) test -race ./...
	bash .ci/gui-smoke
	$(MAKE) package-check

# Both packages built; the Linux one installed per user into a fresh home
# and opened under Xvfb; the Windows .exe's command line run under Wine.
package-check: deps-test package
	bash .ci/package-check

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

# Trawler against a Colly crawler on the same site, a process of its own
# (bench/peers, a module of its own so Colly never becomes our dependency).
bench-peers: headless
	cd bench/peers && $(GO) build -o ../../build/peers-site ./site && $(GO) build -o ../../build/peers-colly ./colly
	cd bench/peers && $(GO) run . -trawler ../../build/trawler-headless -site ../../build/peers-site -colly ../../build/peers-colly

clean:
	rm -rf build dist
