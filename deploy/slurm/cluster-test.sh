#!/usr/bin/env bash
# make cluster-test: a single-node Slurm in a temporary directory
# (testcluster.sh), then the sharded runs of deploy/cluster_test.go against
# it (submit.sh, shard.sbatch, merge.sbatch, a cancelled task and its
# resubmission). The daemons it started are stopped by their pid files on
# every way out, and the directory removed (LOCKSTEP_KEEP=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	echo "installing slurm-wlm and munge"
	SUDO=
	[ "$(id -u)" -ne 0 ] && SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-slurm.XXXXXX")
testpid=
cleanup() {
	code=$?
	trap - EXIT INT TERM HUP
	# The test first (its own process group: go test, the test binary and
	# what it runs), then the jobs and the daemons.
	if [ -n "$testpid" ] && kill -0 "$testpid" 2>/dev/null; then
		kill -TERM -- "-$testpid" 2>/dev/null || true
		wait "$testpid" 2>/dev/null || true
	fi
	deploy/slurm/testcluster.sh stop "$tmp/slurm" || true
	if [ -n "${LOCKSTEP_KEEP:-}" ]; then
		echo "kept $tmp"
	else
		rm -rf "$tmp"
	fi
	exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

start=$(date +%s)
deploy/slurm/testcluster.sh start "$tmp/slurm"
export SLURM_CONF=$tmp/slurm/slurm.conf
sinfo
# In the background, in a process group of its own (set -m), so that a
# signal to this script runs the trap at once rather than after the test.
set -m
LOCKSTEP_CLUSTER=1 LOCKSTEP_CLUSTER_DIR=$tmp go test -count=1 -v -timeout 30m -run 'TestCluster' ./deploy/ &
testpid=$!
wait "$testpid"
testpid=
echo "cluster-test: passed in $(($(date +%s) - start)) s"
