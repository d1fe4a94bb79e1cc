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

# dev: the tools; peer: yatzy-solver, the published solver the Yatzy coach is tested against.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,peer]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/daphne -b $(HOST) -p $(PORT) yahtzee_site.asgi:application

# A production start (docs/deploy.md, "Production start"): DJANGO_DEBUG=0 and the rest of the
# settings from the environment (DJANGO_SECRET_KEY at least). Migrates, collects the static
# files (without them every page answers 500), refuses to start if `check --deploy` finds
# an error, then serves with daphne.
.PHONY: serve
serve: export DJANGO_DEBUG = 0
serve: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput
	$(BIN)/python manage.py check --deploy
	exec $(BIN)/daphne -b $(HOST) -p $(PORT) yahtzee_site.asgi:application

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest --cov --cov-report=term-missing:skip-covered \
		--cov-fail-under=0 $(PYTEST_ARGS)
	$(BIN)/python -m coverage report --include='games/rules/*,games/engine.py' --fail-under=100

clean:
	rm -rf $(VENV) staticfiles .coverage

# The translation catalogs (locale/te, locale/uz): after changing any text a person reads,
# `make messages` brings them up to date with the sources (needs GNU gettext's xgettext),
# then translate every new or changed message in both .po files and run it again to
# compile the .mo files (polib, no system package). `make test` fails until both are done.
MESSAGES_FLAGS = -l te -l uz --no-location --no-obsolete --ignore=.venv --ignore=var \
	--ignore=tests --ignore=bench --ignore=staticfiles --ignore=test-artifacts \
	--ignore=static/vendor --ignore=docs
.PHONY: messages
messages: install
	$(BIN)/python manage.py makemessages $(MESSAGES_FLAGS)
	$(BIN)/python manage.py makemessages -d djangojs $(MESSAGES_FLAGS)
	$(BIN)/python manage.py compilecatalogs

# The coach's optimal-play tables (Yahtzee's official rules and upper-first, Yatzy, Yacht),
# stored in var/strategy/ (or STRATEGY_CACHE_DIR). The solver runs alone, without Django
# (`manage.py solve` does the same from a Django process that holds ~95 MB of its own).
STRATEGY_CACHE_DIR ?= var/strategy
.PHONY: solve bench-strategy
solve: install
	$(BIN)/python -m games.strategy.build --cache-dir $(STRATEGY_CACHE_DIR)
	$(BIN)/python -m games.strategy.build --cache-dir $(STRATEGY_CACHE_DIR) --upper-first
	$(BIN)/python -m games.strategy.build --cache-dir $(STRATEGY_CACHE_DIR) --ruleset yatzy
	$(BIN)/python -m games.strategy.build --cache-dir $(STRATEGY_CACHE_DIR) --ruleset yacht

bench-strategy: install
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/bench_strategy.py
	$(BIN)/python bench/win_horizon.py

# The measurements behind the fair-play rule (docs/fair-play.md): 1 000 solitaire games per
# policy, reviewed as the site does, and the agreement of every run of 10. About 10 minutes.
.PHONY: fair-play-runs
fair-play-runs: install
	$(BIN)/python -m games.strategy.fairness_runs --games 1000 --cache-dir $(STRATEGY_CACHE_DIR) \
		--policies casual greedy slip10 slip5 slip2 optimal

# Browser scenarios (tests/browser/): the real server (daphne) driven through Debian's Chromium
# (apt-get install -y chromium); screenshots and failure traces go to test-artifacts/.
.PHONY: test-browser
test-browser: install
	YAHTZEE_BROWSER=1 $(BIN)/python -m pytest tests/browser --output test-artifacts/playwright \
		--tracing retain-on-failure --screenshot only-on-failure $(PYTEST_ARGS)

# Scale-out (tests/scale/): two daphne processes on a fresh PostgreSQL database and Redis, one
# game played across both; then the service, view, consumer and limits tests on PostgreSQL + Redis.
# Needs PostgreSQL (127.0.0.1:5432, trust) and Redis (127.0.0.1:6379): down means FAIL, not skip.
SCALE_POSTGRES ?= postgres://postgres@127.0.0.1:5432
SCALE_REDIS ?= redis://127.0.0.1:6379
SCALE_SUITE = $(wildcard tests/services/test_*.py tests/views/test_*.py tests/live/test_*.py \
	tests/test_limits.py tests/test_limits_login.py tests/test_jobs.py \
	tests/test_dice.py tests/test_replay.py tests/test_ratings.py tests/test_series.py \
	tests/test_committed.py tests/test_shared_boards.py tests/test_languages.py \
	tests/test_feedback.py tests/test_practice.py tests/test_coach_pages.py \
	tests/test_table_layout.py tests/test_selectors.py)
.PHONY: test-scale bench-load
test-scale: install
	YAHTZEE_SCALE=1 YAHTZEE_SCALE_POSTGRES=$(SCALE_POSTGRES)/postgres \
		YAHTZEE_SCALE_REDIS=$(SCALE_REDIS) $(BIN)/python -m pytest tests/scale $(PYTEST_ARGS)
	DATABASE_URL=$(SCALE_POSTGRES)/yahtzee_$$$$ REDIS_URL=$(SCALE_REDIS)/$$(( $$$$ % 15 + 1 )) \
		$(BIN)/python -m pytest $(SCALE_SUITE) -q $(PYTEST_ARGS)

# Live rooms load benchmark (bench/bench_load.py): embedded, then scale, at the target figures,
# each with the site's request handler and with Django's stock one (get_asgi_application);
# prints tables, writes JSON to bench/results/ (figures in docs/benchmarks.md). About 12 minutes.
# Every run is made; the target fails at the end if any run missed one of its targets.
BENCH_APPS ?= site stock
bench-load: install
	missed=0; for app in $(BENCH_APPS); do \
		$(BIN)/python -m bench.bench_load --mode embedded --app $$app --rooms 100 --rate 50 \
			--duration 60 || missed=1; \
		YAHTZEE_SCALE_POSTGRES=$(SCALE_POSTGRES)/postgres YAHTZEE_SCALE_REDIS=$(SCALE_REDIS) \
			$(BIN)/python -m bench.bench_load --mode scale --app $$app --rooms 100 --rate 100 \
			--duration 60 || missed=1; \
	done; exit $$missed

# The history page (/u/<name>/) at 10, 100 and 1000 finished games (bench/bench_history.py):
# median render time through Django's test client, response size and query count; prints a
# table, writes JSON to bench/results/ (figures in docs/benchmarks.md). About half a minute.
.PHONY: bench-history
bench-history: install
	$(BIN)/python -m bench.bench_history --sizes 10 100 1000
