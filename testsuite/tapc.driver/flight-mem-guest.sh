#!/bin/sh
# The guest side of flight.exp's in-memory case: the module MODULE was
# loaded by tapc -F (tapc-run -L) and left running; its script prints
# "line N 000..." lines (214 bytes each) up to LAST and then calls exit().
# Once its state is "exiting", attach with TAPC_RUN -A, which reads what
# the module kept, stops it (the end probe prints "end") and removes it.
# Prints what flight.exp checks: whether the first line read is whole and
# later than line 1 (the oldest were overwritten), whether the lines that
# follow it are consecutive up to LAST, whether "end" came last, tapc-run's
# status and stderr, and "loaded" if the module is still there.
#
# usage: sh flight-mem-guest.sh TAPC_RUN MODULE LAST DIR
set -u
tapc_run=$1 mod=$2 last=$3 dir=$4
ctl=/proc/tapc-$mod/ctl

. "$(dirname "$0")/guest-wait.sh"

exiting() {
	grep -q '^exiting ' "$ctl" 2>/dev/null
}

if ! [ -d "/proc/tapc-$mod" ]; then
	echo "flight-mem-guest: module $mod is not running" >&2
	exit 1
fi
bounded_wait "the script did not reach exit()" exiting || exit 1
"$tapc_run" -A "$mod" >"$dir/out" 2>"$dir/err"
echo "rc $?"
awk -v last="$last" '
	/^line / {
		whole = length($0) == 214 && $0 ~ /^line [0-9]+ 0+$/
		if (n == 0) {
			first = $2 + 0
			first_whole = whole
		} else if ($2 + 0 != want || !whole) {
			gaps++
		}
		want = $2 + 1
		n++
		next
	}
	$0 == "end" { end_at = NR; next }
	{ other++ }
	END {
		printf "first whole %s\n", first_whole ? "yes" : "no"
		printf "first after line 1 %s\n", (first > 1 ? "yes" : "no")
		printf "consecutive to last %s\n", !gaps && want - 1 == last ? "yes" : "no"
		printf "end last %s\n", end_at == NR && !other ? "yes" : "no"
	}' "$dir/out"
sed 's/^/stderr: /' "$dir/err"
if grep -q "^$mod " /proc/modules; then
	echo loaded
fi
