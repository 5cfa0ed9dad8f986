# lockstep: see README.md. Every target that builds first makes sure the
# system Z3 library is there (the Go side has its own cgo binding to it).

GO      ?= go
BIN     := bin/lockstep
Z3H     := /usr/include/z3.h
# Seconds of fuzzing for `make fuzz`.
FUZZTIME ?= 300s

.PHONY: all deps build demo test vet soak fuzz bench clean

all: build

# deps installs libz3-dev with apt-get only when its header is missing.
deps:
	@if [ ! -f $(Z3H) ]; then \
		echo "installing libz3-dev (Z3 headers missing)"; \
		SUDO=; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libz3-dev; \
	fi
	@$(GO) mod download

build: deps
	$(GO) build -o $(BIN) ./cmd/lockstep

# demo runs both engines on the paper's LinkedList program, checks them
# against each other with the published rules (which the checker refutes:
# docs/FINDINGS.md) and with the corrected ones, then hunts a counterexample
# to the tech report's rules on generated programs and shrinks it; then the
# other engines: Kiasan's lazier# (partition exactness), POSE-J against the
# summary engine without GSE, and the published POSE merge refuted.
demo: build
	$(BIN) run -engine gse -k 3 -steps 300 testdata/programs/linkedlist.jl
	$(BIN) run -engine summary -k 3 -steps 300 testdata/programs/linkedlist.jl
	-$(BIN) check -variant published -k 2 testdata/programs/linkedlist.jl | head -12
	$(BIN) check -variant fixed -k 2 testdata/programs/linkedlist.jl
	-$(BIN) check -gen -n 50 -seed 1 -variant seed000 | head -16
	$(BIN) engines
	$(BIN) check -engine 'lazier#' -k -1 -steps 150 testdata/programs/swap.jl
	$(BIN) check -engine pose -vs summary:fixed -k -1 -steps 150 testdata/programs/swap.jl
	-$(BIN) check -engine pose:pose-published-merge -k -1 -steps 150 testdata/programs/pose_merge.jl | head -4

vet: deps
	$(GO) vet ./...

# test is what CI runs: vet, then every package's tests (property tests on a
# fixed, moderate number of programs; deep runs are `make soak`).
test: deps vet
	$(GO) test -count=1 ./...

# soak runs the property tests on many more programs, 60 signals against the
# built CLI (cli TestSignalsSoak) and the fault-injection streams
# (checker TestFaults*: 2,000 programs under `fixed` and 500 under
# `published`, 10 % of the solver's queries faulty).
soak: deps
	LOCKSTEP_SOAK=1 $(GO) test -count=1 -timeout 2h ./...

fuzz: deps
	$(GO) test -run '^$$' -fuzz FuzzParseCheck -fuzztime $(FUZZTIME) ./javalite/

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
