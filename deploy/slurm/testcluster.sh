#!/usr/bin/env bash
# A single-node Slurm in one directory, for `make cluster-test`:
#
#   deploy/slurm/testcluster.sh start DIR   # munged, slurmctld, slurmd; prints the env to use
#   deploy/slurm/testcluster.sh stop DIR    # stops exactly those, by their pid files
#
# Everything the daemons write (munge key and socket, slurm.conf, state,
# spool, pid and log files) is under DIR; nothing under /etc or /run is
# touched, so it runs beside a real installation and leaves nothing behind
# but DIR. The node is this host with CPUs=2. Clients find the cluster
# through SLURM_CONF=DIR/slurm.conf (the munge socket is named in it).
# Installing the packages (slurm-wlm, munge) is the caller's step.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
	echo "usage: $0 start|stop DIR" >&2
	exit 2
fi

# stop_pidfile FILE: TERM the process a pid file names, then KILL it if it
# is still there after 10 s; a pid file whose process is gone is removed.
stop_pidfile() {
	local f=$1 pid
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$f"
}

case $cmd in
stop)
	# The jobs first, while the controller can still end them (their
	# steps are slurmd's children: stopping slurmd alone would leave
	# them), then slurmd, the controller, and munge, which both use.
	if [ -s "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
		export SLURM_CONF=$dir/slurm.conf
		jobs=$(squeue -h -o %A 2>/dev/null || true)
		if [ -n "$jobs" ]; then
			# shellcheck disable=SC2086
			scancel $jobs 2>/dev/null || true
			for _ in $(seq 60); do
				[ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
				sleep 0.5
			done
		fi
	fi
	stop_pidfile "$dir/slurmd.pid"
	stop_pidfile "$dir/slurmctld.pid"
	stop_pidfile "$dir/munged.pid"
	exit 0
	;;
start) ;;
*)
	echo "usage: $0 start|stop DIR" >&2
	exit 2
	;;
esac

for b in munged mungekey slurmctld slurmd sbatch; do
	if ! command -v "$b" >/dev/null; then
		echo "$0: $b is not installed (apt-get install slurm-wlm munge)" >&2
		exit 2
	fi
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"

# munge: its own key, socket, pid, log and seed files.
mungekey --create --keyfile="$dir/munge/munge.key" --force >/dev/null
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
	--pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munged.seed"

host=$(hostname -s)
# Memory the node offers: most of the machine's, so that --mem requests
# of the job scripts fit.
mem=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
# Ports: the defaults plus an offset unlikely to meet a real installation.
ctldport=${LOCKSTEP_SLURMCTLD_PORT:-26817}
dport=${LOCKSTEP_SLURMD_PORT:-26818}
for p in "$ctldport" "$dport"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		echo "$0: port $p is in use (another Slurm?); set LOCKSTEP_SLURMCTLD_PORT and LOCKSTEP_SLURMD_PORT" >&2
		stop_pidfile "$dir/munged.pid"
		exit 1
	fi
done

cat >"$dir/slurm.conf" <<EOF
ClusterName=lockstep-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctldport
SlurmdPort=$dport
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
# Keep finished jobs' records (ExitCode, State) an hour for scontrol.
MinJobAge=3600
KillWait=5
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

export SLURM_CONF=$dir/slurm.conf
slurmctld -c -f "$dir/slurm.conf"
slurmd -f "$dir/slurm.conf"

# Wait until the node is idle (at most 60 s).
for _ in $(seq 120); do
	state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
	if [ "$state" = idle ]; then
		echo "SLURM_CONF=$dir/slurm.conf"
		exit 0
	fi
	sleep 0.5
done
echo "$0: the node did not become idle in 60 s (sinfo: ${state:-nothing}); logs in $dir" >&2
exit 1
