# One-command set-up: `make run` starts the service, `make test` runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin

.PHONY: install test run bench openapi clients clean chromium

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

test: install chromium
	$(BIN)/pytest

# The browser tests (tests/e2e/test_web_*.py, test_browser_cors.py) drive Debian's chromium: installed here when
# missing and we are root (CI); otherwise those tests skip and say why.
chromium:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ]; then \
		apt-get update && apt-get install -y chromium; \
	fi

run: install
	$(BIN)/rummy serve

openapi: install
	$(BIN)/rummy openapi > openapi.yaml

# The clients generated from openapi.yaml (clients/README.md): Python and TypeScript packages.
clients: install
	$(BIN)/openapi-python-client generate --path openapi.yaml --meta none --overwrite \
		--config clients/python/config.yml --output-path clients/python/contract_rummy_client
	cd clients/typescript && npm install --no-audit --no-fund && npm run build

bench: install
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
