#!/bin/bash
# The guest side of stress.exp:
#   stress-guest.sh TAPC_RUN MODULE.KO WORKLOAD RUN...
# starts a load on every CPU (dd copying one byte per read() and write(),
# and a getpid() loop: CPU-bound and a system call every few microseconds),
# runs the module once per RUN while the load goes on, then stops the
# load.  A RUN is T:SECS (tapc-run -T SECS), INT:SECS (SIGINT to tapc-run
# after SECS seconds) or EXIT:MS (the script calls exit() after MS
# milliseconds).  For each run it then prints
#   === RUN
#   rc STATUS / ms WALL-TIME / loaded 0|1 (was the module still there)
#   the module's stdout, its "hot line" lines only counted ("hot-lines N")
#   --- stderr, then tapc-run's stderr
# and at the end "load alive N of M" (load processes still running when
# it was stopped) and the kernel log lines that show a problem, prefixed
# "klog: ".  Under the load every new process is slow to start (seconds
# under emulation), so the runs start as few as they can: bash builtins,
# fifos made beforehand, the reports printed after the load is stopped.
set -u
run=$1 ko=$2 wl=$3
shift 3
mod=$(basename "$ko" .ko)
scratch=$(mktemp -d /dev/shm/tapc-stress.XXXXXX) || exit 90
klog_before=$(dmesg | wc -l)
n=0
for r in "$@"; do
	n=$((n + 1))
	mkfifo "$scratch/fifo.$n" || exit 91
done

load=()
for ((cpu = 0; cpu < $(nproc); cpu++)); do
	taskset -c "$cpu" dd if=/dev/zero of=/dev/null bs=1 2>/dev/null &
	load+=($!)
	taskset -c "$cpu" "$wl" getpid 4000000000 &
	load+=($!)
done

now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

one_run() {
	local i=$1 kind=${2%%:*} arg=${2#*:} fifo=$scratch/fifo.$1 pid filter start rc
	# Lines of the hot probe are only counted: hundreds of megabytes.
	awk 'length($0) == 59 && /^hot line [0-9]+ [.]+$/ { n++; next }
	     { print } END { printf "hot-lines %d\n", n }' <"$fifo" >"$scratch/stdout.$i" &
	filter=$!
	start=$(now_ms)
	case $kind in
	T) "$run" -T "$arg" "$ko" >"$fifo" 2>"$scratch/stderr.$i" ;;
	EXIT) "$run" "$ko" exit_ms="$arg" >"$fifo" 2>"$scratch/stderr.$i" ;;
	INT)
		"$run" "$ko" >"$fifo" 2>"$scratch/stderr.$i" &
		pid=$!
		sleep "$arg"
		kill -s INT "$pid"
		wait "$pid" ;;
	*) echo "bad run $2" >&2; exit 92 ;;
	esac
	rc=$?
	echo "rc $rc" >"$scratch/head.$i"
	echo "ms $(($(now_ms) - start))" >>"$scratch/head.$i"
	wait "$filter"
	if [ -d "/sys/module/$mod" ]; then
		echo "loaded 1" >>"$scratch/head.$i"
		rmmod "$mod"
	else
		echo "loaded 0" >>"$scratch/head.$i"
	fi
}

i=0
for r in "$@"; do
	i=$((i + 1))
	one_run "$i" "$r"
done

alive=0
for p in "${load[@]}"; do
	kill -0 "$p" 2>/dev/null && alive=$((alive + 1))
	kill "$p" 2>/dev/null
done
wait

i=0
for r in "$@"; do
	i=$((i + 1))
	echo "=== $r"
	cat "$scratch/head.$i" "$scratch/stdout.$i"
	echo "--- stderr"
	cat "$scratch/stderr.$i"
done
echo "load alive $alive of ${#load[@]}"
rm -rf "$scratch"
dmesg | tail -n +$((klog_before + 1)) |
	grep -E 'BUG|Oops|WARNING|general protection|RIP:|Call Trace|stall|lockup|refcount' |
	sed 's/^/klog: /'
[ -d "/sys/module/$mod" ] && echo "lsmod: $mod still loaded"
exit 0
