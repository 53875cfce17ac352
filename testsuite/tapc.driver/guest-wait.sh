# Sourced by the guest sides of flight.exp (flight-guest.sh,
# flight-mem-guest.sh).
#
# bounded_wait WHAT CMD...: until CMD succeeds, or a message naming WHAT
# and status 1 after 3000 tries (a bound, not a timing: each step waits
# for what the script or the relay does).
bounded_wait() {
	what=$1
	shift
	tries=0
	until "$@"; do
		tries=$((tries + 1))
		if [ "$tries" -gt 3000 ]; then
			echo "$(basename "$0" .sh): $what" >&2
			return 1
		fi
		sleep 0.05
	done
}
