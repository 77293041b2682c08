# bakers_lab: `make survey` and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test lint survey venv clean lab app

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[test,notebooks]"
	touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q

survey: $(STAMP)
	$(BIN)/bakers-lab survey --deals 1-1000 --variant bakers_dozen --players solver --jobs -1 --out data/runs/bakers_dozen_1-1000

# JupyterLab on the notebooks (Ctrl-C stops it)
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# the web app in a browser: type a game number, replay it, play it (Ctrl-C stops it)
app: $(STAMP)
	$(BIN)/bakers-lab app

clean:
	rm -rf $(VENV) build *.egg-info
