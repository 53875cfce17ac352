# arming.stp's target: WORKLOAD is tapc-workload.
workload=$1
list=/sys/kernel/debug/kprobes/list

# wait_for STATE: until the kprobe on __x64_sys_chdir is STATE (disabled
# or enabled), for at most 10 s.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		if grep -q '__x64_sys_chdir+0x0.*DISABLED' $list; then
			s=disabled
		else
			s=enabled
		fi
		[ $s = "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "still not $1: $(grep __x64_sys_chdir $list)"
	return 1
}

wait_for disabled && echo "disarmed while on = 0"
"$workload" getpid 100
cd /
wait_for enabled && echo "armed once on = 1"
"$workload" getpid 1000
cd /tmp
wait_for disabled && echo "disarmed again once on = 0"
"$workload" getpid 100
