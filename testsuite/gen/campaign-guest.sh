#!/bin/bash
# campaign-guest.sh TAPC-RUN MODULE.ko SECS DIR: run one module of the
# safety campaign (run-campaign) where modules load, in the test VM or on
# a host that can load them, while two workers (one per CPU of the guest)
# make the kernel events its probes wait for: reads and writes, its procfs
# files, system calls, new processes and execs; a third, for a script
# (DIR/s.stp) that probes jbd2's tracepoints, loads and removes jbd2.
#
# tapc-run gets -T SECS; if it has not ended SECS + 30 s later it is
# interrupted, then killed (a hang).  The module's output is cut to its
# last 64 KiB in DIR/out, its error stream goes to DIR/err.  Prints
#   rc N        tapc-run's exit status (124: it hung)
#   loaded N    how many tapc_* modules are still loaded afterwards
set -u
tapc_run=$1 ko=$2 secs=$3 dir=$4
mod=$(basename "$ko" .ko)
procfs=/proc/systemtap/$mod

work() {
	while [ ! -e "$dir/stop" ]; do
		cat /proc/self/stat /proc/version >/dev/null 2>&1
		for f in "$procfs"/*; do
			[ -e "$f" ] || continue
			cat "$f" >/dev/null 2>&1
			echo "hostile $RANDOM" 2>/dev/null >"$f"
		done
		ls / >/dev/null 2>&1
		/bin/true
	done
}

# A module with tracepoints (jbd2) loaded and removed over and over: the
# probes on its tracepoints come and go while the script runs.
modules() {
	while [ ! -e "$dir/stop" ]; do
		modprobe jbd2 2>/dev/null
		rmmod jbd2 2>/dev/null
	done
}

rm -f "$dir/stop"
work &
w1=$!
work &
w2=$!
# (only for a script that probes it: the loop takes a CPU of the guest)
w3=
if grep -q 'jbd2' "$dir/s.stp" 2>/dev/null; then
	modules &
	w3=$!
fi
timeout -s INT -k 10 $((secs + 30)) "$tapc_run" -T "$secs" "$ko" 2>"$dir/err" |
	tail -c 65536 >"$dir/out"
rc=${PIPESTATUS[0]}
touch "$dir/stop"
# shellcheck disable=SC2086 # w3 is empty or one pid
wait "$w1" "$w2" $w3
echo "rc $rc"
echo "loaded $(grep -c '^tapc_' /proc/modules)"
