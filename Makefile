# Let's Chat. `make run` and `make test` work on a fresh machine: they install what is missing.
SHELL := /bin/bash
export NPM_CONFIG_UPDATE_NOTIFIER := false

.PHONY: soak run test install system-deps build typecheck lint test-unit test-client test-integration test-e2e test-harness bench clean

run: install build
	@bash scripts/run-deps.sh
	npm start

# Every tier, in order of cost, each even when an earlier one failed; the last line adds them up.
# Under CI=true no test may skip for a missing component.
test: install system-deps build
	@bash scripts/run-tests.sh

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.installed

# Chromium (browser tests) and coturn (relay-only calls) from Debian, when running as root.
system-deps:
	@bash scripts/system-deps.sh

# The client bundle (dist/) and the compiled server (dist-server/: npm start runs no TypeScript).
dist-server/main.js: node_modules/.installed package.json webpack.config.ts $(shell find client/src common server/src migrations -type f 2>/dev/null)
	npm run --silent build

build: dist-server/main.js

typecheck: install
	npm run --silent typecheck

# ESLint (type-aware rules, the layering as import boundaries) and the import-cycle check.
lint: install
	npm run --silent lint

test-unit: install
	npm run --silent test:unit

test-client: install
	npm run --silent test:client

test-integration: install
	npm run --silent test:integration

test-e2e: install build
	npm run --silent test:e2e

test-harness: install
	npm run --silent test:harness

bench: install build system-deps
	npm run --silent bench

# Minutes of load, fuzzing and floods against one server; fails on loss or a growing heap.
# SOAK_SECONDS (default 600), SOAK_CLIENTS (1000) and SOAK_RATE (1000 msg/s) size it.
soak: install build
	npm run --silent soak

clean:
	rm -rf dist dist-server var node_modules/.installed
