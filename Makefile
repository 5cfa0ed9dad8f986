# lockstep: see README.md. Every target that builds first makes sure the
# system Z3 library is there (the Go side has its own cgo binding to it).

GO      ?= go
BIN     := bin/lockstep
Z3H     := /usr/include/z3.h
# Seconds of fuzzing for `make fuzz`.
FUZZTIME ?= 300s

.PHONY: all deps build demo test vet soak fuzz bench clean cluster-test docs docs-bench docs-bench-data docs-trees docs-unseen docs-lemmas

all: build

# deps installs libz3-dev with apt-get only when its header is missing, and
# the JDK (default-jdk-headless) only when javac is missing.
deps:
	@if [ ! -f $(Z3H) ]; then \
		echo "installing libz3-dev (Z3 headers missing)"; \
		SUDO=; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libz3-dev; \
	fi
	@if ! command -v javac >/dev/null 2>&1; then \
		echo "installing default-jdk-headless (javac missing: package jvm's tests and jvm-diff run the JVM)"; \
		SUDO=; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq default-jdk-headless; \
	fi
	@$(GO) mod download

build: deps
	$(GO) build -o $(BIN) ./cmd/lockstep

# demo walks through what lockstep does, one step per command, each
# introduced by one sentence that says what it shows: GSE and the summary
# engine on the paper's LinkedList program, the published rules refuted and
# the corrected ones holding, a hunt on generated programs shrinking a
# counterexample to the tech report's rules, then the other engines.
# Commands whose verdict is a violation are expected to exit 1 (the '-'
# prefix); their output is cut after the verdict and the program.
demo: build
	@echo; echo "==> 1. GSE, the reference, explores LinkedList.contains at k = 3: one path per heap shape."
	$(BIN) run -engine gse -k 3 -steps 300 testdata/programs/linkedlist.jl
	@echo; echo "==> 2. Heap summaries explore the same program: far fewer paths, aliasing kept as constraints."
	$(BIN) run -engine summary -k 3 -steps 300 testdata/programs/linkedlist.jl
	@echo; echo "==> 3. The published rules checked step by step against GSE: the checker refutes them (VIOLATED, with the rule and the program)."
	-$(BIN) check -variant published -k 2 testdata/programs/linkedlist.jl | head -20
	@echo; echo "==> 4. The rules with the proposed fixes hold. In 'L1×25 ... T11×373', each lemma is followed by how many times it was checked and held (T11: the lockstep pairing itself is a bisimulation; docs/SEMANTICS.md §8 lists every lemma)."
	$(BIN) check -variant fixed -k 2 testdata/programs/linkedlist.jl
	@echo; echo "==> 5. Generated programs against the tech report's rules (seed000): the first failure is shrunk by rapid to a few lines and saved as a case file."
	-$(BIN) check -gen -n 50 -seed 1 -variant seed000 -save $${TMPDIR:-/tmp}/lockstep-demo | head -16
	@echo; echo "==> 6. Other engines run under the same checker; this is the list."
	$(BIN) engines
	@echo; echo "==> 7. Kiasan's lazier# splits one GSE state among several of its own: partition exactness holds on swap."
	$(BIN) check -engine 'lazier#' -k -1 -steps 150 testdata/programs/swap.jl
	@echo; echo "==> 8. POSE-J checked against the fixed summary engine directly, without GSE (lemma VS)."
	$(BIN) check -engine pose -vs summary:fixed -k -1 -steps 150 testdata/programs/swap.jl
	@echo; echo "==> 9. POSE's published merge rule refuted on a small program (VIOLATED, the engine's own invariant INV-P)."
	-$(BIN) check -engine pose:pose-published-merge -k -1 -steps 150 testdata/programs/pose_merge.jl | head -8
	@echo; echo "==> 10. Data: a binary-search-tree lookup with int keys and an assume, checked input by input (lemmas L12, L13)."
	$(BIN) check -variant fixed -k 2 testdata/data/bst_lookup.jl

# -trimpath (for vet, test and the go build the tests run, through GOFLAGS):
# without it the absolute path of the checkout goes into what package smt's
# cgo compiles, so a fresh clone at another path recompiles smt and every
# package above it although the build cache holds them (15 s of vet and
# 10 s of compiling on 2 cores); with it a clone reuses the cache.
# GOGC=400 with a 4 GiB soft limit (unless GOGC or GOMEMLIMIT is set), the
# setting the CLI gives itself (cli/main.go, tuneGC): the tests allocate
# much and keep little, and collecting a quarter as often spends less CPU
# (package concrete: 15.3 s -> 13.1 s at GOGC=200; checker 25.6 s ->
# 23.4 s from 200 to 400) for tens of MiB more heap per test binary.
TESTFLAGS := GOFLAGS="-trimpath $(GOFLAGS)" GOGC=$${GOGC:-400} GOMEMLIMIT=$${GOMEMLIMIT:-4GiB}

vet: deps
	$(TESTFLAGS) $(GO) vet ./...

# test is what CI runs: vet, then every package's tests (property tests on a
# fixed, moderate number of programs; deep runs are `make soak`). go test's
# own vet pass is off: `go vet ./...` has just run every analyzer it runs.
test: deps vet
	$(TESTFLAGS) $(GO) test -vet=off -count=1 ./...

# soak runs the property tests on many more programs (package jvm: 1,000
# generated programs exported and compiled, the differential against the
# JVM on 2,000 generated programs and every testdata program), 60 signals against the
# built CLI (cli TestSignalsSoak), every README.md command line to its end
# (cli TestReadmeCommands: the surveys and mutation runs take minutes) and
# the fault-injection streams
# (checker TestFaults*: 2,000 programs under `fixed` and 500 under
# `published`, 10 % of the solver's queries faulty), and the merge of 1,000
# shards of a 1,000,000-program stream (internal/report TestMergeAtScale).
soak: deps
	LOCKSTEP_SOAK=1 $(TESTFLAGS) $(GO) test -count=1 -timeout 2h ./...

# cluster-test starts a single-node Slurm in a temporary directory (it
# installs slurm-wlm and munge with apt-get when missing) and runs the Slurm
# scripts of deploy/slurm against it: sharded runs merged to the unsharded
# ones, a cancelled task named and resubmitted (deploy/slurm/README.md).
cluster-test: build
	deploy/slurm/cluster-test.sh

fuzz: deps
	$(GO) test -run '^$$' -fuzz FuzzParseCheck -fuzztime $(FUZZTIME) ./javalite/
	$(GO) test -run '^$$' -fuzz FuzzParseAnswer -fuzzminimizetime 1s -fuzztime $(FUZZTIME) ./engine/extern/

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

# docs regenerates every generated table of docs/ (docs/results/*.md and
# docs/LEMMAS.md), each with the command, commit, date and machine in its
# header: about an hour on 2 cores. Each target can be run alone. A check
# that finds a KB divergence or an undecided program exits 1 or 3, which is
# a result here, not a failure (the '-' prefix).
TREES := $(addprefix testdata/bench/,bst_repok.jl treemap_repok.jl bst_insert.jl bst_remove.jl bst_find.jl \
	avltree_find.jl avltree_insert.jl treemap_get.jl treemap_lastKey.jl treemap_remove.jl \
	avl_balanced.jl avl_find.jl avl_findMax.jl avl_findMin.jl avl_insertElem.jl avl_maxElement.jl \
	avl_minElement.jl dll_add.jl dll_get.jl dll_remove.jl treemap_put.jl linkedlist_inv5.jl)
ENGINES := summary:fixed,uber,pose,lazier,lazier\#

docs: docs-bench docs-bench-data docs-trees docs-unseen docs-lemmas

# The reference-only suite and the figures (about 12 minutes).
docs-bench: build
	$(BIN) bench -md -plot docs/img > docs/results/bench.md

# The 47 rows with int and bool data (about 8 minutes).
docs-bench-data: build
	$(BIN) bench -data -md > docs/results/bench-data.md

# The papers' 22 tree programs checked under every engine at k = 1 and 2
# (about 25 minutes of CPU; POSE-J last, its checks are the slowest: its
# avl_maxElement and avl_minElement take over two minutes each at k = 2).
docs-trees: build
	-$(BIN) check -engines 'summary:fixed,uber,lazier,lazier#,pose' -ks 1,2 -steps 2000 -timeout 600s $(TREES) > docs/results/trees.md

# The ten tree programs of testdata/trees, at the default bounds (a few minutes).
docs-unseen: build
	-$(BIN) check -engines '$(ENGINES)' -ks 1,2 -timeout 600s testdata/trees/*.jl > docs/results/unseen-trees.md

# The lemma matrix of every variant of every engine (about 20 minutes).
docs-lemmas: build
	-$(BIN) lemmas -engines all -n 300 -engines-n 100 -o docs/LEMMAS.md

clean:
	rm -rf bin
