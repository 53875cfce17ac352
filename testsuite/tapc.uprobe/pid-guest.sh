#!/bin/sh
# The guest side of pid.exp: start PROG (pid-prog), which runs until
# DIR/stop exists, and say its process id in DIR/pid (written whole, by
# a rename); the job lasts as long as PROG.
#
# usage: sh pid-guest.sh PROG DIR
set -u
prog=$1 dir=$2

"$prog" "$dir/stop" &
echo $! >"$dir/pid.tmp" && mv "$dir/pid.tmp" "$dir/pid"
wait
