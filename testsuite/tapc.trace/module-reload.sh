#!/bin/sh
# The guest side of module_reload.stp: an ext4 file system on a ram disk
# (brd's /dev/ram7: the block tests write to /dev/ram0), mounted, written
# and synced twice, ext4 and jbd2 loaded for each round and removed after
# it, so that jbd2's tracepoints come and go while the script runs.
set -e
modprobe brd
mkfs.ext4 -q -F /dev/ram7
dir=$(mktemp -d)
for round in 1 2; do
	modprobe ext4
	mount -t ext4 /dev/ram7 "$dir"
	echo "round $round" >"$dir/file$round"
	sync
	umount "$dir"
	rmmod ext4 jbd2
done
rmdir "$dir"
