# The workbench's interface; README.md explains each target and variable.
# Every target is a script under scripts/ so it can be run by hand too.

.PHONY: run check tree export series-check bench

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

bench:
	@echo "make bench: not yet (see the benchmarks issue)"
