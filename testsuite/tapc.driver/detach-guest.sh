#!/bin/sh
# The guest side of flight.exp's SIGQUIT case (staprun's Ctrl-\): run
# TAPC_RUN on MODULE.ko in the background (where sh starts it with SIGQUIT
# ignored), wait for its script's "tick N" lines to reach 3, send it
# SIGQUIT, and check that it exits leaving the module running; then attach
# with TAPC_RUN -A -T 1, which relays the rest and removes the module.
# Prints what flight.exp checks: the detaching run's status, its stderr,
# whether the module was still loaded, the attaching run's status, whether
# its first tick follows the last one read before detaching, whether the
# ticks go on without a gap to "end", last, and "loaded" if the module
# is still there at the end.
#
# usage: sh detach-guest.sh TAPC_RUN MODULE DIR   (DIR holds MODULE.ko)
set -u
tapc_run=$1 mod=$2 dir=$3

. "$(dirname "$0")/guest-wait.sh"

three_ticks() {
	grep -q '^tick 3$' "$dir/out1" 2>/dev/null
}

"$tapc_run" "$dir/$mod.ko" >"$dir/out1" 2>"$dir/err1" &
pid=$!
bounded_wait "no third tick" three_ticks || { kill "$pid"; exit 1; }
exited() {
	! [ -d "/proc/$pid" ] || grep -q '^State:[[:space:]]*Z' "/proc/$pid/status"
}

kill -QUIT "$pid"
if ! bounded_wait "tapc-run is still there after SIGQUIT" exited; then
	kill -TERM "$pid"
fi
wait "$pid"
echo "detach rc $?"
sed 's/^/detach stderr: /' "$dir/err1"
if grep -q "^$mod " /proc/modules; then
	echo "loaded after detach"
fi
"$tapc_run" -A -T 1 "$mod" >"$dir/out2" 2>"$dir/err2"
echo "attach rc $?"
sed 's/^/attach stderr: /' "$dir/err2"
last=$(awk '$1 == "tick" { n = $2 } END { print n + 0 }' "$dir/out1")
awk -v last="$last" '
	$1 == "tick" && NF == 2 {
		if (n == 0 && $2 == last + 1)
			follows = 1
		else if (n > 0 && $2 != want)
			gaps++
		want = $2 + 1
		n++
		next
	}
	$0 == "end" { end_at = NR; next }
	{ other++ }
	END {
		printf "attach follows detach %s\n", follows ? "yes" : "no"
		printf "consecutive to end %s\n", (n > 1 && !gaps && end_at == NR && !other) ? "yes" : "no"
	}' "$dir/out2"
if grep -q "^$mod " /proc/modules; then
	echo loaded
fi
