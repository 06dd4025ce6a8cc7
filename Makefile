# pqgen — the developer entry points. `make demo` and `make test` are the two
# set-up commands of the README; the rest are for working on pqgen itself.

GO          ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME    ?= 60s
FUZZMINTIME ?= 200x
GENFUZZ_N   ?= 400
DUCKFUZZ_N  ?= 300
ARROWFUZZ_N ?= 150
HYPFUZZ_N   ?= 300
PJSFUZZ_N   ?= 300
GOFUZZ_N    ?= 300
PGOFUZZ_N   ?= 300
BENCHTIME   ?= 1s
BENCH       ?= .
export PARQUET_TEST_DATA ?= $(abspath ../shared/parquet-testing)

.PHONY: all build demo test check race fmt generate generate-check bench bench-peers bench-query fuzz clean

all: check test

build:
	$(GO) build ./...

## demo: build pqgen, write a small example file with the runtime and inspect it.
demo:
	$(GO) run ./examples/demo

## test: every test of the module and of the peers module (cross-checks).
test:
	$(GO) test -count=1 ./...
	cd peers && $(GO) test -count=1 ./...

## check: gofmt, go mod tidy, go vet (also with -tags purego and for arm64)
## and staticcheck (pinned) over both modules.
check:
	@out=$$(gofmt -l $$(git ls-files '*.go') 2>/dev/null); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) mod tidy -diff
	cd peers && $(GO) mod tidy -diff
	$(GO) vet ./...
	$(GO) vet -tags purego ./...
	GOARCH=arm64 $(GO) vet ./...
	cd peers && $(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	cd peers && $(GO) run $(STATICCHECK) ./...

## race: the race detector over the packages that run goroutines (the
## parallel writer, the codec pools, the generated parallel tests).
RACE_PKGS ?= ./runtime/ ./runtime/compress/ ./examples/generated/
race:
	$(GO) test -race -count=1 $(RACE_PKGS)

fmt:
	gofmt -w $$(git ls-files '*.go')

## generate: regenerate every generated file (kernels, metadata codec, examples,
## and the peers module's benchmark types).
generate:
	$(GO) generate ./...
	cd peers && $(GO) generate ./...

## generate-check: regenerate and fail if anything committed differs.
generate-check: generate
	@git diff --exit-code --stat -- . || (echo "generated files are stale: run make generate and commit"; exit 1)

## bench: benchmarks of the runtime, and the peer comparisons printed as ratios.
bench:
	$(GO) test -run='^$$' -bench='$(BENCH)' -benchtime=$(BENCHTIME) -benchmem ./runtime/... | tee bench.out
	cd peers && $(GO) test -run='^$$' -bench='$(BENCH)' -benchtime=150ms -count=3 -benchmem $$($(GO) list ./... | grep -v '/bench$$') | tee ../bench-peers.out
	cd peers && $(GO) run ./internal/benchratio/cmd/benchratio -best < ../bench-peers.out

## bench-peers: the end-to-end suite (peers/bench): Flat, nested Contact and
## 200-column Wide rows (PEER_ROWS each, Wide a tenth), each with regular
## (flat, nested, wide) and high-entropy data (flat-he, ...), snappy and zstd,
## written and read by pqgen, parquet-go and arrow-go, in PEER_COUNT rounds
## that each run every benchmark once (the libraries take turns). Prints the
## ratio table and the per-library metrics; bench-suite.out is
## benchstat-compatible (benchstat -col /impl bench-suite.out). PEER_BENCH is
## a regexp on the sub-benchmark names; do not anchor it with $ (the rounds
## after the first are named type=flat#01 and so on until the output is cleaned):
## flat selects flat and flat-he, flat-he only the latter. x-memmove is
## the CPU time over that of a memmove of the same bytes; cores, how many
## cores two goroutines got just before each benchmark (about 2 on an idle
## two-core machine, 1 when the second core is busy; the least of the rounds).
PEER_ROWS  ?= 1000000
PEER_COUNT ?= 3
PEER_BENCH ?= .
bench-peers:
	cd peers && $(GO) test -run='^$$' -bench='BenchmarkPeers/$(PEER_BENCH)' -benchtime=1x -count=1 -timeout=2h ./bench -args -rows=$(PEER_ROWS) -rounds=$(PEER_COUNT) | sed -E 's/^(BenchmarkPeers\/type=[a-z-]+)#[0-9]+/\1/' | tee ../bench-suite.out
	cd peers && $(GO) run ./internal/benchratio/cmd/benchratio -best -metrics rows/s,allocs/row,B/row,peak-MiB,file-MB,x-memmove,cores < ../bench-suite.out

## bench-query: issue 16's window+kind query and point lookup on 2 M events
## through pqgen's filtered reader and through DuckDB (peers/js, one
## thread) on the same file, best of QUERY_RUNS runs each; prints the best
## times and the ratio duckdb/pqgen (above 1: pqgen is faster).
QUERY_RUNS ?= 7
bench-query:
	cd peers && $(GO) test -run='^$$' -bench='^BenchmarkQueryDuckDB$$' -benchtime=1x -count=1 ./bench -args -query-runs=$(QUERY_RUNS)

## fuzz: run every fuzz target for FUZZTIME each (FUZZTIME=10m make fuzz;
## FUZZMINTIME, 200x, bounds the minimization of each new input),
## then GENFUZZ_N random schemas from a fresh seed (or PQGEN_GENFUZZ_SEED)
## through generated code, checked with arrow-go, DuckDB, Polars, parquet-wasm
## and hyparquet (peers/genfuzz), DUCKFUZZ_N files of random schemas and
## options DuckDB writes from a fresh seed (or PQGEN_DUCKFUZZ_SEED), and
## ARROWFUZZ_N seeds of random Arrow tables arrow-rs and Polars write (or
## PQGEN_ARROWFUZZ_SEED), HYPFUZZ_N and PJSFUZZ_N files of random schemas
## hyparquet-writer and parquetjs write (or PQGEN_HYPFUZZ_SEED,
## PQGEN_PJSFUZZ_SEED), GOFUZZ_N random Arrow tables arrow-go writes (or
## PQGEN_GOFUZZ_SEED) and PGOFUZZ_N files of random Go types parquet-go
## writes (or PQGEN_PGOFUZZ_SEED), read and written back by generated code
## (peers/genconf's TestDuckFuzz, TestArrowFuzz, TestHypFuzz,
## TestParquetjsFuzz, TestArrowGoFuzz and TestParquetGoFuzz).
# writerfuzz runs peers/genconf's writer fuzz test $(2) on $($(1)_N) files
# from PQGEN_$(1)_SEED, or a fresh seed.
writerfuzz = cd peers && PQGEN_$(1)_SEED=$${PQGEN_$(1)_SEED:-$$(date +%s)} PQGEN_$(1)_N=$($(1)_N) \
	$(GO) test -count=1 -timeout=1h -run='^$(2)$$' -v ./genconf

fuzz:
	FUZZTIME=$(FUZZTIME) FUZZMINTIME=$(FUZZMINTIME) ./scripts/fuzz.sh
	cd peers && PQGEN_GENFUZZ_SEED=$${PQGEN_GENFUZZ_SEED:-$$(date +%s)} PQGEN_GENFUZZ_N=$(GENFUZZ_N) \
		$(GO) test -count=1 -timeout=2h -run='^TestGenFuzz$$' -v ./genfuzz
	$(call writerfuzz,DUCKFUZZ,TestDuckFuzz)
	$(call writerfuzz,ARROWFUZZ,TestArrowFuzz)
	$(call writerfuzz,HYPFUZZ,TestHypFuzz)
	$(call writerfuzz,PJSFUZZ,TestParquetjsFuzz)
	$(call writerfuzz,GOFUZZ,TestArrowGoFuzz)
	$(call writerfuzz,PGOFUZZ,TestParquetGoFuzz)

clean:
	rm -f bench.out bench-peers.out bench-suite.out
