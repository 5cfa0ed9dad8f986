#!/usr/bin/env bash
# Submit a sharded `lockstep check -gen` to Slurm: a job array with one
# shard per task (shard.sbatch) and a merge job that runs after every task
# has ended, whatever its state (merge.sbatch, --dependency=afterany).
# See deploy/slurm/README.md.
#
#   deploy/slurm/submit.sh -n N -shards S [options] [--] [check flags]
#   deploy/slurm/submit.sh -resume DIR -array LIST [-time T] [-mem M]   # run lost shards again, then merge
#
# Options (the rest of the command line goes to `lockstep check -gen`):
#   -dir DIR        the run's directory on a file system every node sees
#                   (default: ./lockstep-run-DATE-TIME)
#   -time T         time limit of each task, in sbatch's --time form (default 2:00:00)
#   -mem M          memory of each task, in sbatch's --mem form (default 4G)
#   -cpus C         CPUs of each task, and check's -workers (default 2)
#   -merge-time T   time limit of the merge job (default 0:30:00)
#   -lockstep BIN   the lockstep binary (default: lockstep on PATH, else bin/lockstep)
#   -sbatch OPTS    more sbatch options for both jobs, e.g. '--partition=long --account=lab'
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage() {
	sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
die() {
	echo "submit.sh: $*" >&2
	exit 2
}

time_set="" mem_set=""
n="" shards="" dir="" time_limit=2:00:00 mem=4G cpus=2 merge_time=0:30:00 lockstep="" extra="" resume="" array=""
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=${2:?-n needs N}; shift 2 ;;
	-shards) shards=${2:?-shards needs S}; shift 2 ;;
	-dir) dir=${2:?-dir needs DIR}; shift 2 ;;
	-time) time_limit=${2:?-time needs a limit}; time_set=1; shift 2 ;;
	-mem) mem=${2:?-mem needs an amount}; mem_set=1; shift 2 ;;
	-cpus) cpus=${2:?-cpus needs C}; shift 2 ;;
	-merge-time) merge_time=${2:?-merge-time needs a limit}; shift 2 ;;
	-lockstep) lockstep=${2:?-lockstep needs a path}; shift 2 ;;
	-sbatch) extra=${2?-sbatch needs options}; shift 2 ;;
	-resume) resume=${2:?-resume needs DIR}; shift 2 ;;
	-array) array=${2:?-array needs a list}; shift 2 ;;
	-h | -help | --help) usage ;;
	--) shift; break ;;
	*) break ;;
	esac
done

# submit_merge DEPENDENCY: queue the merge after the given array job.
submit_merge() {
	# shellcheck disable=SC2086 # SBATCH_EXTRA is a list of options
	sbatch --parsable --job-name=lockstep-merge --dependency="afterany:$1" --time="$MERGE_TIME" \
		--mem=2G --cpus-per-task=1 --output="$DIR/logs/merge-%j.out" $SBATCH_EXTRA \
		"$DEPLOY/merge.sbatch" "$DIR"
}

if [ -n "$resume" ]; then
	[ -n "$array" ] || die "-resume needs -array LIST (the indices the merge printed)"
	[ $# -eq 0 ] || die "-resume takes no check flags: the run's are in $resume/run.env"
	[ -f "$resume/run.env" ] || die "$resume/run.env: not the directory of a submitted run"
	# shellcheck source=/dev/null
	. "$resume/run.env"
	# A shard that ran out of time will again: -time and -mem given here
	# are this submission's (the shards are the run's whatever the limits).
	[ -z "$time_set" ] || TIME_LIMIT=$time_limit
	[ -z "$mem_set" ] || MEM=$mem
	jid=$(eval "$(shard_sbatch "$array" --parsable)")
	mid=$(submit_merge "$jid")
	echo "array job $jid (shards $array of $SHARDS), merge job $mid"
	echo "result: $DIR/merged.json, exit status in $DIR/merge.exit, log $DIR/logs/merge-$mid.out"
	exit 0
fi

[ -n "$n" ] && [ -n "$shards" ] || die "give -n N and -shards S (-h for help)"
case $n$shards in *[!0-9]*) die "-n and -shards are positive integers" ;; esac
[ "$shards" -ge 1 ] && [ "$n" -ge 1 ] || die "-n and -shards are positive integers"
[ "$shards" -le "$n" ] || die "-shards $shards is more than the $n programs"
for f in "$@"; do
	case $f in
	-shard | -shard=* | -json | -json=* | -save | -save=* | -gen | -gen=* | -n | -n=*)
		die "$f is set by submit.sh (one shard per task, -json, -save into the shard's directory)" ;;
	esac
done

if [ -z "$lockstep" ]; then
	lockstep=$(command -v lockstep || true)
	[ -n "$lockstep" ] || lockstep=$here/../../bin/lockstep
fi
[ -x "$lockstep" ] || die "$lockstep: no lockstep binary (build it: make build, or give -lockstep BIN)"
lockstep=$(cd "$(dirname "$lockstep")" && pwd)/$(basename "$lockstep")
[ -n "$dir" ] || dir=lockstep-run-$(date +%Y%m%d-%H%M%S)
[ ! -e "$dir/run.env" ] || die "$dir holds a run already (-resume $dir -array LIST runs lost shards again)"
mkdir -p "$dir/logs"
dir=$(cd "$dir" && pwd)

# run.env is the run: the tasks, the merge and a resumption read it, so a
# shard run again is the shard that was lost, flag for flag.
{
	printf 'DIR=%q\nDEPLOY=%q\nLOCKSTEP=%q\nN=%q\nSHARDS=%q\nCPUS=%q\n' "$dir" "$here" "$lockstep" "$n" "$shards" "$cpus"
	printf 'TIME_LIMIT=%q\nMEM=%q\nMERGE_TIME=%q\nSBATCH_EXTRA=%q\n' "$time_limit" "$mem" "$merge_time" "$extra"
	printf 'CHECK_ARGS=('
	printf '%q ' -workers "$cpus" "$@"
	printf ')\n'
	cat <<'EOF'
# shard_sbatch LIST [OPTION]: the sbatch command line that runs shards
# LIST of the run (OPTION, e.g. --parsable, goes before the script).
shard_sbatch() {
	printf 'sbatch --array=%s --job-name=lockstep-shard --time=%s --mem=%s --cpus-per-task=%s --output=%q %s%s%q %q' \
		"$1" "$TIME_LIMIT" "$MEM" "$CPUS" "$DIR/logs/shard-%a.out" "${SBATCH_EXTRA:+$SBATCH_EXTRA }" "${2:+$2 }" "$DEPLOY/shard.sbatch" "$DIR"
}
EOF
} >"$dir/run.env"
# shellcheck source=/dev/null
. "$dir/run.env"

# A bad flag is a usage error now, not in every task after a queue wait:
# one program, with a 1 ns limit unless -timeout is given, runs the flag
# checks in a moment (its verdict is ignored; only exit 2, a usage error,
# stops the submission).
set +e
"$LOCKSTEP" check -gen -n 1 -json -timeout 1ns -shrink-time 1ms -save "$dir/logs/flags-check" "${CHECK_ARGS[@]}" \
	>/dev/null 2>"$dir/logs/flags.err"
code=$?
set -e
if [ "$code" -eq 2 ]; then
	cat "$dir/logs/flags.err" >&2
	rm -rf "$dir/run.env" "$dir/logs/flags.err" "$dir/logs/flags-check"
	rmdir "$dir/logs" "$dir" 2>/dev/null || true
	die "the check flags are refused (above); nothing submitted"
fi

jid=$(eval "$(shard_sbatch "0-$((shards - 1))" --parsable)")
mid=$(submit_merge "$jid")
echo "array job $jid ($shards shards of $n programs), merge job $mid"
echo "result: $dir/merged.json, exit status in $dir/merge.exit, log $dir/logs/merge-$mid.out"
