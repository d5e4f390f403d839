# The workbench's interface; README.md explains each target and variable.
# Every target is a script under scripts/ or tests/ so it can be run by hand.

.PHONY: run shell check tree export series-check mutants bisect bench matrix distro send

run:
	@scripts/run-main.sh

shell:
	@scripts/run-main.sh shell

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
	@scripts/bench.sh

matrix:
	@scripts/matrix.sh

distro:
	@scripts/distro.sh

send:
	@scripts/send.sh
