# bakers_lab: `make survey` and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test test-numba lint survey venv kernels clean lab app check-data references ratings outcomes wheel smoke \
	clean-notebooks docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# installed, the searches compiled ahead of time as the install builds the package
# (setup.py, build_kernels.py: about two minutes, once a clone, as a package's C code is
# compiled when it is installed; every command after starts at once)
$(STAMP): $(BIN)/python pyproject.toml setup.py build_kernels.py
	$(BIN)/python -m pip install --quiet -e ".[test,notebooks,docs]"
	touch $(STAMP)

venv: $(STAMP)

# the compiled searches built again if a kernel's source changed since (build_kernels.py
# --if-stale: a second when nothing changed); make test does it first
kernels: $(STAMP)
	$(BIN)/python build_kernels.py --if-stale

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python .ci/clean_notebooks.py

# clear the outputs a run in JupyterLab (make lab) saved into the notebooks: they are
# kept without outputs, in the repository and in the wheel (make lint and make wheel check)
clean-notebooks:
	$(PYTHON) .ci/clean_notebooks.py --fix

# the tests with the linters beside them (the linters' words, and whether they passed,
# after the tests'); the tests first bring the compiled searches in numba's cache up to
# date (tests/conftest.py runs tests/warm.py: two seconds once set-up built them, about a
# minute after a change to them).  The tests run on $(WORKERS) processes, each test file
# on one of them (make test WORKERS=1: one process), the files in the order
# tests/conftest.py gives (the longest first), not xdist's (the most tests first, which
# left the longest files, with a few tests each, to the end)
WORKERS ?= 2
test: kernels
	@log=$$(mktemp); \
	$(MAKE) --no-print-directory lint >$$log 2>&1 & lint=$$!; \
	trap 'kill $$lint 2>/dev/null; rm -f $$log; exit 130' INT TERM; \
	$(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder \
		--ignore=tests/docs; tests=$$?; \
	wait $$lint; linted=$$?; cat $$log; rm -f $$log; \
	[ $$linted = 0 ] || echo "make test: make lint failed (above)"; \
	[ $$tests = 0 ] && [ $$linted = 0 ]

# the solver's own test files with numba's compile at first use forced (BAKERS_LAB_JIT=1),
# the path a platform without the compiled module takes; CI runs it after make test
NUMBA_TESTS = tests/test_solver_core.py tests/test_solver.py tests/test_solver_agreement.py \
	tests/test_shortest.py tests/test_players.py tests/test_planners.py tests/test_prove.py \
	tests/test_compiled.py tests/test_compile_notice.py
test-numba: kernels
	BAKERS_LAB_JIT=1 $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile $(NUMBA_TESTS)

survey: $(STAMP)
	$(BIN)/bakers-lab survey --deals 1-1000 --variant bakers_dozen --players solver --jobs -1 --out data/runs/bakers_dozen_1-1000

# replay every row of every shipped survey on the rule engine (make test replays every 40th deal)
check-data: $(STAMP)
	BAKERS_LAB_FULL_DATA=1 $(BIN)/python -m pytest -q tests/test_shipped_data.py

# record the slow reference searches' answers anew (tests/references.py says when: a
# change to the rule engine, the teaching search or the reference search); about 3 minutes
REFERENCE_TESTS = tests/test_solver_agreement.py tests/test_shortest.py tests/test_relax.py \
	tests/test_solver.py tests/test_references.py
references: $(STAMP)
	rm -f tests/data/references.json
	BAKERS_LAB_RECORD_REFERENCES=1 $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile $(REFERENCE_TESTS)

# the difficulty ratings that ship with the package, from the surveys in data/
ratings: $(STAMP)
	$(BIN)/bakers-lab ratings --out bakers_lab/ratings.parquet

# the compact outcome table that ships with the package (the surveys in data/ without
# moves and timings; tests/test_packaging.py checks that it equals what data/ gives)
outcomes: $(STAMP)
	$(BIN)/python -m bakers_lab.files.datadir --out bakers_lab/outcomes.parquet

# the wheel, in build/wheel/
wheel: $(STAMP)
	$(BIN)/python .ci/clean_notebooks.py
	rm -rf build/lib build/wheel
	$(BIN)/python -m pip wheel --quiet --no-deps -w build/wheel .

# the wheel installed in a fresh environment outside the clone, and tried there
smoke: wheel
	.ci/smoke.sh build/wheel/bakers_lab-*.whl

# the manual, into build/docs/html (open index.html): offline, warnings are errors, every
# reference to the package's own names must find its page; the notebooks and the guides'
# examples are run (and kept in build/docs/.jupyter_cache until they change), after the
# searches are compiled into numba's cache (docs/_ext/generate.py); then its tests
# (tests/docs: every public name has its page, every example ran, the site in a
# browser), which make test leaves out
docs: kernels
	$(BIN)/sphinx-build -W --keep-going -n -q -j 2 -b html -d build/docs/doctrees docs build/docs/html
	$(BIN)/python -m pytest -q -n 2 -p no:cacheprovider tests/docs
	@echo "the manual: build/docs/html/index.html"

# JupyterLab on the notebooks (Ctrl-C stops it)
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# the web app in a browser: type a game number, replay it, play it (Ctrl-C stops it)
app: $(STAMP)
	$(BIN)/bakers-lab app

clean:
	rm -rf $(VENV) build *.egg-info
