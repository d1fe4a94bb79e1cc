# Two commands set everything up on a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint format migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/daphne -b $(HOST) -p $(PORT) yahtzee_site.asgi:application

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest --cov --cov-report=term-missing:skip-covered \
		--cov-fail-under=0 $(PYTEST_ARGS)
	$(BIN)/python -m coverage report --include='games/rules.py,games/engine.py' --fail-under=100

clean:
	rm -rf $(VENV) staticfiles .coverage
