# aviator-adsb: the usual entry points. `make help` lists them.
SWIFT   ?= swift
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RELEASE := .build/release/aviator-adsb
SHARED  ?= ../shared
VENV    := .venv

.PHONY: help deps build release size install uninstall deb run test test-js lint conformance conformance-check almanac-check bench heldout bench-network bench-gain bench-budget samples identical identity-store bench-identity fuzz-build fuzz fuzz-smoke soak history-kills history-check web-load web-perf clean

help:
	@echo "make deps         install what is needed (librtlsdr-dev, pkg-config, libmosquitto-dev, mosquitto, libsqlite3-dev, python3-venv, zstd, tmux, dump1090-mutability, chromium,"
	@echo "                  nodejs, systemd, man-db, dpkg-dev) when missing"
	@echo "make build        debug build"
	@echo "make release      optimised, self-contained build (.build/release/aviator-adsb)"
	@echo "make size         the release binary's size, stripped, against its limit (SIZE_LIMIT_MB=40); fails above it"
	@echo "make install      the stripped binary, its manual page, the systemd unit and /etc/default/aviator-adsb"
	@echo "                  (PREFIX=/usr/local, BINDIR, MANDIR, UNITDIR, SYSCONFDIR=/etc, DESTDIR; BINARY: the build to install)"
	@echo "make uninstall    remove what make install put there (an edited /etc/default/aviator-adsb stays)"
	@echo "make deb          a Debian package of the same files in $(DEB_DIR) (BINARY as for install)"
	@echo "make run          the main job: the daemon replays a bundled recording, the terminal radar shows it"
	@echo "make test         the web app's module tests (test-js), unit and end-to-end tests, then the pyModeS conformance check"
	@echo "make lint         swift format lint --strict over Sources, Tests, Fuzz and Package.swift (the checked-in .swift-format)"
	@echo "make test-js      the web app's pure modules (words, palette, angles, projection...) under node's test runner"
	@echo "make conformance  compare every decoded field with pyModeS over ../shared/messages"
	@echo "make almanac-check  the web app's sun and moon against PyEphem: ten places, a year (make test runs it too)"
	@echo "make bench        yield, false frames and CPU time beside readsb and dump1090-fa ($(SHARED)/peers), both simulated channels"
	@echo "make heldout      the demodulator's yield and false frames on simulated skies of seeds no rule was tuned on"
	@echo "make bench-gain   the adaptive gain against every fixed gain, through the fake dongle's tuner model"
	@echo "make bench-budget the demodulator's governor at replay speeds 1 to 32 (slow computers imitated), beside readsb; writes docs/demodulator.md"
	@echo "make bench-network  synthetic receivers into one MQTT broker and one aggregator: CPU, memory, latency, losses (BENCH_PUBLISHERS=\"10 50\")"
	@echo "make samples      regenerate Samples/ bit-identically with the simulator"
	@echo "make identical    demod output of the working tree against HEAD's, byte for byte"
	@echo "make web-load     200 WebSocket clients and a sleeper on a 300-aircraft replay (WEB_LOAD_SECONDS=30)"
	@echo "make web-perf     the web radar (scope and sky view) in headless Chromium, CPU slowed 4x, 300 aircraft: frame times, memory, screenshots"
	@echo "make soak         30 min of hostile clients, peers and servers against four daemons (SOAK_MINUTES=30)"
	@echo "make history-kills the recording daemon killed HISTORY_KILLS (200) times; its store checked after each"
	@echo "make history-check the busy replay for HISTORY_MINUTES (20) with the history on; the store against the feed"
	@echo "make fuzz         libFuzzer on every parser of outside data, FUZZ_SECONDS (60) each; crashes go to Fuzz/Crashes"
	@echo "make fuzz-smoke   the fuzz targets' seed corpus replayed through the fuzzer builds, no fuzzing"

deps:
	@if ! pkg-config --exists librtlsdr 2>/dev/null; then \
		echo "installing librtlsdr-dev and pkg-config"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq librtlsdr-dev pkg-config; fi
	@if ! pkg-config --exists libmosquitto 2>/dev/null || ! [ -x /usr/sbin/mosquitto ]; then \
		echo "installing libmosquitto-dev and mosquitto (the MQTT client library, and the broker the network tests run)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends libmosquitto-dev mosquitto; fi
	@if ! pkg-config --exists sqlite3 2>/dev/null; then \
		echo "installing libsqlite3-dev (the history store)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libsqlite3-dev; fi
	@if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then \
		echo "installing python3-venv"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3 python3-venv; fi
	@if ! command -v openssl >/dev/null 2>&1; then \
		echo "installing openssl (the TLS tests compare certificate fingerprints with it)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq openssl; fi
	@if ! command -v zstd >/dev/null 2>&1; then \
		echo "installing zstd (make bench reads readsb's compressed, timestamped frame dump)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq zstd; fi
	@if ! command -v tmux >/dev/null 2>&1; then \
		echo "installing tmux (the terminal radar's end-to-end test runs under it)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq tmux; fi
	@if ! command -v dump1090-mutability >/dev/null 2>&1; then \
		echo "installing dump1090-mutability (the reference decoder the tests and benchmarks compare with)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends dump1090-mutability; fi
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium (the web radar's browser tests drive it headless)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; fi
	@if ! command -v node >/dev/null 2>&1; then \
		echo "installing nodejs (make test-js runs the web app's module tests with node's test runner)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends nodejs; fi
	@if ! command -v systemd-analyze >/dev/null 2>&1 || ! command -v man >/dev/null 2>&1 \
		|| ! command -v dpkg-shlibdeps >/dev/null 2>&1 || ! command -v strip >/dev/null 2>&1; then \
		echo "installing systemd, man-db, dpkg-dev and binutils (make install, make deb and their tests)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends systemd man-db dpkg-dev binutils; fi

build:
	$(SWIFT) build

# The Swift runtime and FoundationEssentials linked in: one self-contained binary to copy to
# a receiver, which also starts in a few milliseconds less. The static runtime's link options
# export every symbol of the program's own modules to the dynamic linker, which nothing
# looks up: --no-export-dynamic leaves out those 5 MB. --icf=safe lets the linker keep one
# copy of functions compiled to the same code whose address nothing takes (generic
# specialisations, mostly): 0.5 MB (docs/install.md, the binary's size).
# Every function (Swift and C) and every C datum in a section of its own, so the linker's
# garbage collection of sections, which SwiftPM asks for, drops what nothing uses from the
# libraries the daemon uses a part of (docs/install.md, the binary's size). Without the flag
# Swift gives sections of their own only to some functions.
release:
	$(SWIFT) build -c release --static-swift-stdlib --product aviator-adsb -Xlinker --no-export-dynamic -Xlinker --icf=safe \
		-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections

# The release binary's size (docs/install.md, the binary's size): stripped as `make install`
# strips it, it must stay within SIZE_LIMIT_MB (decimal megabytes). The full Foundation would
# bring ICU's data tables (icudt*, 34 MB) and CoreFoundation: their symbols in the unstripped
# binary fail the check with the reason. A release build, so not part of `make test`, which
# has the source-level check (ArchitectureTests: no source imports the full Foundation).
SIZE_LIMIT_MB ?= 40
size: release
	@strip -o $(RELEASE).stripped $(RELEASE)
	@unstripped=$$(stat -c %s $(RELEASE)); stripped=$$(stat -c %s $(RELEASE).stripped); \
	echo "aviator-adsb: $$(awk "BEGIN { printf \"%.1f\", $$unstripped / 1e6 }") MB unstripped," \
		"$$(awk "BEGIN { printf \"%.1f\", $$stripped / 1e6 }") MB stripped (limit $(SIZE_LIMIT_MB) MB)"; \
	if nm $(RELEASE) | grep -q -E ' (icudt[0-9]+_dat|_CFRuntimeCreateInstance)$$'; then \
		echo "the full Foundation is linked (ICU data or CoreFoundation symbols): see docs/install.md"; exit 1; fi; \
	if [ $$stripped -gt $$(( $(SIZE_LIMIT_MB) * 1000000 )) ]; then \
		echo "the stripped binary is over $(SIZE_LIMIT_MB) MB"; exit 1; fi

# Installing (docs/install.md): the stripped binary, its manual page (written from the
# binary's own help by scripts/manpage.py), the systemd unit and the settings file, which is
# never overwritten. BINARY is the build to install: the release build by default (built
# first only when missing, so that `sudo make install` builds nothing as root), any other
# when given (the tests install the debug one). DESTDIR stages the files under another root.
# CREATE_USER (on without DESTDIR): as root, create the service's user as the Debian package
# does, and have systemd reload its units.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
DATADIR    ?= $(PREFIX)/share/aviator-adsb
UNITDIR    ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc
BINARY     ?= $(RELEASE)
DEB_DIR    ?= .build/deb
CREATE_USER ?= $(if $(DESTDIR),,yes)
install: $(if $(wildcard $(BINARY)),,release)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/default \
		$(DESTDIR)$(DATADIR)
	install -m 755 -s $(BINARY) $(DESTDIR)$(BINDIR)/aviator-adsb
	install -m 644 data/identity-store.gz $(DESTDIR)$(DATADIR)/identity-store.gz
	python3 scripts/manpage.py $(BINARY) --sysconfdir $(SYSCONFDIR) > $(DESTDIR)$(MANDIR)/man1/aviator-adsb.1
	gzip -9nf $(DESTDIR)$(MANDIR)/man1/aviator-adsb.1
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@DATADIR@|$(DATADIR)|g' \
		packaging/aviator-adsb.service \
		> $(DESTDIR)$(UNITDIR)/aviator-adsb.service
	chmod 644 $(DESTDIR)$(MANDIR)/man1/aviator-adsb.1.gz $(DESTDIR)$(UNITDIR)/aviator-adsb.service
	@config=$(DESTDIR)$(SYSCONFDIR)/default/aviator-adsb; if [ -e $$config ]; then echo "kept $$config as it is"; \
		else install -m 644 packaging/aviator-adsb.default $$config; fi
	@if [ -n "$(CREATE_USER)" ] && [ "$$(id -u)" = 0 ]; then sh packaging/debian/postinst configure; \
		elif [ -n "$(CREATE_USER)" ]; then echo "not root: the service's user was not created (docs/install.md)"; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/aviator-adsb $(DESTDIR)$(MANDIR)/man1/aviator-adsb.1.gz $(DESTDIR)$(UNITDIR)/aviator-adsb.service
	rm -f $(DESTDIR)$(DATADIR)/identity-store.gz
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || true
	@config=$(DESTDIR)$(SYSCONFDIR)/default/aviator-adsb; if cmp -s packaging/aviator-adsb.default $$config; then rm -f $$config; \
		elif [ -e $$config ]; then echo "kept $$config: it was changed"; fi

# The package: the files of `make install` for PREFIX=/usr, then packaging/build-deb.sh.
deb:
	rm -rf $(DEB_DIR)/root
	$(MAKE) install DESTDIR=$(abspath $(DEB_DIR))/root PREFIX=/usr BINARY=$(BINARY)
	bash packaging/build-deb.sh $(DEB_DIR)/root $(DEB_DIR)

# The main job without hardware: the daemon replays a bundled busy sky in real time and the
# terminal radar prints what it sees, then the daemon stops.
RUN_SOCKET := $(shell mktemp -u /tmp/aviator-run-XXXXXX.sock)
run: release
	@$(RELEASE) --replay Samples/busy-airport.cu8 --throttle --loop --receiver 52.3,4.75 \
		--range-km 30 --socket $(RUN_SOCKET) --log-level warning & pid=$$!; \
	sleep 3; $(RELEASE) radar --once --socket $(RUN_SOCKET) --size 100x32; status=$$?; \
	kill -INT $$pid; wait $$pid; exit $$status

# The suites in parallel (TEST_WIDTH at a time); the conformance check then runs on the
# debug binary the tests built, so the dependency graph is built once. Only the two
# products the tests run are built: the fuzz executables (inert without
# --sanitize=fuzzer) would add about 0.6 GB of debug binaries, and the whole debug build
# then needs about 1.3 GB of disk.
DEBUG := .build/debug/aviator-adsb
# A run that outlives TEST_MINUTES is stopped with a message: the log then shows which tests
# started and never finished.
TEST_MINUTES ?= 60
# At most TEST_WIDTH tests run at once. Many of them time a server, a daemon or a peer on
# loopback against a deadline; with every test started together on a two-core machine each
# got too small a share of it, and now and then one missed its deadline.
TEST_WIDTH ?= 6
# The feed load test then runs by itself, since it reads the memory of the whole test process.
# The web app's module tests come first: they take a second, the rest takes many minutes.
test: lint test-js $(VENV)/.pymap3d $(VENV)/.prometheus-client $(VENV)/.wmm $(VENV)/.ephem
	@free=$$(df -Pk . | awk 'NR == 2 {print $$4}'); if [ "$${free:-0}" -lt 2000000 ]; then \
		echo "make test: only $$(( $${free:-0} / 1024 )) MB free here; the build and the tests need about 2 GB" >&2; fi
	@$(SWIFT) build --product aviator-adsbPackageTests && $(SWIFT) build --product aviator-adsb
	@timeout --kill-after=20 $$(( $(TEST_MINUTES) * 60 )) $(SWIFT) test --skip-build --experimental-maximum-parallelization-width $(TEST_WIDTH) --skip FeedLoadTests; status=$$?; \
	if [ $$status -eq 124 ] || [ $$status -eq 137 ]; then \
		echo "make test: the tests were still running after $(TEST_MINUTES) minutes and were stopped"; fi; \
	exit $$status
	@echo "make test: the feed load test, alone in its process so its memory is the feed server's"
	@FEED_LOAD_ALONE=1 timeout --kill-after=20 300 $(SWIFT) test --skip-build --filter FeedLoadTests
	$(MAKE) conformance-check BINARY=$(DEBUG)

# The web app's pure modules (docs/web.md, tests): Tests/WebApp/*.test.mjs import them from
# Sources/Web/App and run under node's own test runner, nothing to install from npm. The
# package.json at the top only tells node that those .js files are ES modules (node 20.19
# and later would guess it, Debian 12's node 18 does not).
# The tree as `swift format` (the toolchain's own) formats it, with the checked-in
# .swift-format; `swift format format -i -r Sources Tests Fuzz Package.swift` mends it.
lint:
	$(SWIFT) format lint --strict --parallel -r Sources Tests Fuzz Package.swift

test-js:
	@command -v node >/dev/null 2>&1 || { echo "make test-js: node is missing; make deps installs Debian's nodejs" >&2; exit 1; }
	node --test --test-reporter=spec Tests/WebApp/*.test.mjs

$(VENV)/.pymodes:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check pymodes==3.6.1
	touch $@

# pymap3d: the independent geodesy the projection tests compare with (scripts/aer.py).
$(VENV)/.pymap3d: $(VENV)/.pymodes
	$(VENV)/bin/pip install --quiet --disable-pip-version-check pymap3d==3.1.0
	touch $@

# wmm-calculator: NOAA's own WMM2025 software, the independent magnetic model the
# declination tests compare with (scripts/wmm_declination.py).
$(VENV)/.wmm: $(VENV)/.pymodes
	$(VENV)/bin/pip install --quiet --disable-pip-version-check wmm-calculator==1.4.4
	touch $@

# ephem (PyEphem): the independent almanac the web app's sun and moon are compared with
# (scripts/almanac_check.py); self-contained, it downloads no ephemeris.
$(VENV)/.ephem: $(VENV)/.pymodes
	$(VENV)/bin/pip install --quiet --disable-pip-version-check ephem==4.2.1
	touch $@

# prometheus-client: the independent parser of /metrics' text format (scripts/parse_metrics.py).
$(VENV)/.prometheus-client: $(VENV)/.pymodes
	$(VENV)/bin/pip install --quiet --disable-pip-version-check prometheus-client==0.26.0
	touch $@

conformance: release
	$(MAKE) conformance-check BINARY=$(RELEASE)

conformance-check: $(VENV)/.pymodes
	$(VENV)/bin/python scripts/conformance.py --binary $(BINARY) --messages $(SHARED)/messages

# The web app's almanac (docs/web.md, sun and moon) against PyEphem; fails beyond 0.1° for
# the sun, 0.5° for the moon. AlmanacCheckTests runs the same under make test.
almanac-check: $(VENV)/.ephem
	@command -v node >/dev/null 2>&1 || { echo "make almanac-check: node is missing; make deps installs Debian's nodejs" >&2; exit 1; }
	$(VENV)/bin/python scripts/almanac_check.py

# The daemon is measured first, on an idle machine, and its figures join the targets table.
bench: release $(VENV)/.pymodes
	@if ! command -v valgrind >/dev/null 2>&1; then \
		echo "installing valgrind (make bench counts each decoder's instructions with it)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq valgrind; fi
	$(VENV)/bin/python scripts/bench_decode.py --binary $(RELEASE) --messages $(SHARED)/messages
	SHARED=$(SHARED) DAEMON_JSON=.build/bench-daemon.json bash scripts/bench-daemon.sh
	SHARED=$(SHARED) DAEMON_JSON=.build/bench-daemon.json bash scripts/bench.sh
	$(MAKE) bench-identity

# Not part of `make test`: skies of seeds `make bench` never simulates (scripts/heldout.py),
# where a false frame the rules were not tuned against shows.
heldout: release
	python3 scripts/heldout.py --binary $(RELEASE)

# Not part of `make test`: 200 WebSocket clients and one that never reads on a 300-aircraft
# replay; prints latency, CPU and memory (WEB_LOAD_SECONDS, 30 by default).
WEB_LOAD_SECONDS ?= 30
web-load:
	WEB_LOAD_SECONDS=$(WEB_LOAD_SECONDS) $(SWIFT) test --filter WebLoadEndToEndTests

# Not part of `make test`: the web radar in headless Chromium with the CPU slowed 4x on a
# 300-aircraft sky; prints frame times, frame rate and memory (WEB_PERF_SECONDS, 20 by
# default), and takes the README's screenshots into docs/images.
WEB_PERF_SECONDS ?= 20
web-perf:
	WEB_SCREENSHOTS=$(CURDIR)/docs/images $(SWIFT) test --filter WebAppBrowserTests
	WEB_PERF_SECONDS=$(WEB_PERF_SECONDS) $(SWIFT) test --filter WebAppPerformanceTests

# Not part of `make test`: half an hour of replay, churning clients, a flapping hostile Beast
# peer and a misbehaving OpenSky stand-in, all on loopback; memory and descriptors must stay flat.
SOAK_MINUTES ?= 30
soak: release
	python3 scripts/soak.py --binary $(RELEASE) --minutes $(SOAK_MINUTES)

# Not part of `make test`: SIGKILL at random moments, again and again; the history store must
# open after every kill, pass its integrity check and keep every committed batch.
HISTORY_KILLS ?= 200
history-kills: release
	python3 scripts/history_kills.py --binary $(RELEASE) --kills $(HISTORY_KILLS)

# Not part of `make test`: the store against what the feed and aircraft.json showed meanwhile.
HISTORY_MINUTES ?= 20
history-check: release
	python3 scripts/history_check.py --binary $(RELEASE) --minutes $(HISTORY_MINUTES)

# Not part of `make test`: synthetic receivers publishing 1,000 frames/s each into one
# mosquitto and one aggregator; prints the aggregator's CPU and memory, the end-to-end latency
# and the frames lost, for each count of publishers in BENCH_PUBLISHERS.
BENCH_PUBLISHERS ?= 10 50
BENCH_SECONDS    ?= 30
bench-network: release
	bash scripts/bench-network.sh $(RELEASE) $(BENCH_SECONDS) $(BENCH_PUBLISHERS)

bench-gain: release
	bash scripts/bench-gain.sh $(RELEASE)

bench-budget: release
	work=$$(mktemp -d /tmp/aviator-bench-budget.XXXXXX); \
	python3 scripts/bench_budget.py $(RELEASE) $(SHARED)/peers/readsb $$work --doc docs/demodulator.md; \
	status=$$?; rm -rf $$work; exit $$status

samples: release
	bash scripts/make-samples.sh

# The identity store (docs/identity.md) from the standing data's snapshot in ../shared.
STANDING_DATA ?= $(SHARED)/standing-data/vrs-standing-data-2026-08-19.tar.xz
identity-store: release
	rm -rf .build/standing-data && mkdir -p .build/standing-data
	tar xJf $(STANDING_DATA) -C .build/standing-data
	$(RELEASE) db build .build/standing-data -o data/identity-store.gz

# Load time and memory of the identity store and of a generated 600,000-row --db-file.
bench-identity: release
	python3 scripts/make-aircraft-db.py 600000 .build/aircraft-600k.csv.gz
	$(RELEASE) db check --identity-store data/identity-store.gz
	$(RELEASE) db check --db-file .build/aircraft-600k.csv.gz

# demod output of this tree against the last commit's, byte for byte, on every recording.
identical: release
	bash scripts/demod-identical.sh HEAD

# libFuzzer builds of the targets in Fuzz/Targets (docs/fuzzing.md), in a build folder of
# their own: every module they reach is instrumented, which the normal builds must not be.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= message-line beast feed opensky demod routes mqtt aircraft-db identity-store history-query tar
FUZZ_BUILD   ?= .build-fuzz
fuzz-build:
	@for target in $(FUZZ_TARGETS); do \
		$(SWIFT) build --sanitize=fuzzer -c release --scratch-path $(FUZZ_BUILD) --product fuzz-$$target || exit 1; done

fuzz: fuzz-build
	FUZZ_BUILD=$(FUZZ_BUILD) bash scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	FUZZ_BUILD=$(FUZZ_BUILD) bash scripts/fuzz.sh smoke $(FUZZ_TARGETS)

clean:
	rm -rf .build .build-fuzz $(VENV)
