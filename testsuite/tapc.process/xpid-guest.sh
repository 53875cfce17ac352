#!/bin/sh
# The guest side of xpid.exp: start the workload (a process with 3 more
# threads that wait for DIR/go), then tapc-run -x on it with MODULE, whose
# script prints "ready" once process.begin and 3 process.thread.begin
# reported the process and threads that already ran; then let the threads
# end, and the process (process.end stops the script).  tapc-run's output
# is DIR/out, its status DIR/status.
#
# usage: sh xpid-guest.sh TAPC_RUN MODULE WORKLOAD DIR
set -u
run=$1 ko=$2 wl=$3 dir=$4

"$wl" threads-wait 3 "$dir/go" &
pid=$!
"$run" -x "$pid" -o "$dir/out" "$ko" 2>"$dir/err" &
runpid=$!
# a bound, not a timing: the script says when it is ready
tries=0
until grep -q '^ready$' "$dir/out" 2>/dev/null; do
	tries=$((tries + 1))
	if [ "$tries" -gt 3000 ] || ! kill -0 "$runpid" 2>/dev/null; then
		echo "xpid-guest: the script never became ready" >&2
		break
	fi
	sleep 0.1
done
touch "$dir/go"
wait "$pid"
wait "$runpid"
echo $? >"$dir/status"
