# The workbench's interface; README.md explains each target and variable.
# Every target is a script under scripts/ so it can be run by hand too.

.PHONY: run check tree export series-check bench mutants bisect

run:
	@scripts/run-main.sh

check:
	@scripts/check.sh

tree:
	@scripts/make-tree.sh

export:
	@scripts/export-series.sh

series-check:
	@scripts/series-check.sh

mutants:
	@tests/mutants.sh

bisect:
	@tests/bisect.sh

bench:
	@echo "make mutants:
	@tests/mutants.sh

bisect:
	@tests/bisect.sh

bench: not yet (see the benchmarks issue)"
