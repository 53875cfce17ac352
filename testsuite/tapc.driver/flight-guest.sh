#!/bin/sh
# The guest side of flight.exp: drive a flight-recorder tapc-run (tapc -F)
# that already runs in the background as PID, writing FILE (FILE.0 with
# -S: BASE is the name the first file has): wait for its first line,
# SIGUSR2 for each next file (waiting each time for a line in it), then
# SIGTERM, and wait until the relay has ended.  Prints the files that
# are left, "loaded" if the module is still loaded, "end found" if a file
# holds the end probe's line, and the last line of the last file, for
# flight.exp to check.
#
# usage: sh flight-guest.sh PID MODULE DIR BASE NEXT...
# (NEXT: the names the files after SIGUSR2 get, in order)
set -u
pid=$1 mod=$2 dir=$3 first=$4
shift 4

. "$(dirname "$0")/guest-wait.sh"

has_output() {
	[ -s "$dir/$1" ]
}

# gone, or a zombie: the guest's init may be slow to reap an orphan
relay_ended() {
	! [ -r "/proc/$pid/stat" ] || grep -q '^[0-9]* (.*) Z ' "/proc/$pid/stat" 2>/dev/null
}

bounded_wait "nothing written to $first" has_output "$first" || exit 1
last=$first
for next in "$@"; do
	kill -USR2 "$pid" || exit 1
	bounded_wait "nothing written to $next" has_output "$next" || exit 1
	last=$next
done
kill -TERM "$pid" || exit 1
bounded_wait "the relay did not end" relay_ended || exit 1
(cd "$dir" && ls | grep '^fr\.out' | tr '\n' ' ')
echo
if grep -q "^$mod " /proc/modules; then
	echo loaded
fi
if cat "$dir"/fr.out* | grep -q '^end$'; then
	echo "end found"
fi
tail -n 1 "$dir/$last"
