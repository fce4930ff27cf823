# Two commands set everything up: `make serve` and `make test` (see README.md).
.PHONY: serve test build bench soak
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
