# Two commands set everything up: `make serve` and `make test` (see README.md).
.PHONY: serve test build bench soak mutants
PORT ?= 8000

serve:
	PORT=$(PORT) scripts/serve.sh

test:
	scripts/test.sh

build:
	scripts/build.sh

bench:
	scripts/bench.sh

soak:
	scripts/soak.sh

# Mutation testing (issue 15, MUTANTS.md): the known bugs (tests/mutations), then cargo-mutants; takes hours.
mutants:
	scripts/mutants.sh
