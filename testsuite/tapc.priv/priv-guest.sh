#!/bin/sh
# The guest side of priv.exp: run a set-user-ID tapc-run as an ordinary
# user, in a mount namespace of its own (unshare -m) where
#   /etc/group              is DIR/group (test groups stapusr, stapsys and
#                           stapdev with the gids priv.exp chose);
#   /lib/modules/RELEASE    is a tmpfs (the real one is read-only); its
#                           systemtap/ directory holds the approved modules
#                           usr.ko and dev.ko, copied from DIR, and link.ko,
#                           a symbolic link to DIR/usr.ko.
# Each case runs `setpriv --reuid=UID --regid=UID --groups=G DIR/tapc-run
# ARG...` and leaves DIR/res/CASE.out, .err, .st (the exit status) and
# .loaded (1 if a tapc_priv_* module was still loaded after it; it is then
# removed).
#
# usage: unshare -m sh priv-guest.sh DIR UID CASEFILE
#   CASEFILE: one case a line, fields separated by tabs: CASE, GROUPS (a gid
#   list for setpriv, or "none"), then tapc-run's arguments, in which
#   @DIR@ and @APPROVED@ stand for DIR and the approved directory, and
#   @NL@ for a newline.
set -u
dir=$1 uid=$2 cases=$3
approved=/lib/modules/$(uname -r)/systemtap
tab=$(printf '\t')
nl='
'

mount --bind "$dir/group" /etc/group || exit 90
mount -t tmpfs -o mode=0755 tmpfs "${approved%/systemtap}" || exit 91
mkdir -m 0755 "$approved" || exit 92
cp "$dir/usr.ko" "$dir/dev.ko" "$approved/" || exit 93
chmod 0644 "$approved/usr.ko" "$approved/dev.ko"
ln -s "$dir/usr.ko" "$approved/link.ko"
mkdir -p "$dir/res"

# expand ARG: the argument with the case file's placeholders replaced
expand() {
	printf '%s' "$1" | sed -e "s|@DIR@|$dir|g" -e "s|@APPROVED@|$approved|g" \
		-e "s|@NL@|\\$nl|g"
}

while IFS=$tab read -r line; do
	[ -n "$line" ] || continue
	IFS=$tab
	set -f
	# shellcheck disable=SC2086 # split at tabs
	set -- $line
	set +f
	IFS=' '
	name=$1 groups=$2
	shift 2
	# the arguments, expanded, as positional parameters after "--"
	n=$#
	for a in "$@"; do
		set -- "$@" "$(expand "$a")"
	done
	shift "$n"
	if [ "$groups" = none ]; then
		gopt=--clear-groups
	else
		gopt=--groups=$groups
	fi
	setpriv --reuid="$uid" --regid="$uid" "$gopt" "$dir/tapc-run" "$@" \
		>"$dir/res/$name.out" 2>"$dir/res/$name.err" </dev/null
	echo $? >"$dir/res/$name.st"
	loaded=0
	for m in $(awk '$1 ~ /^tapc_priv_/ { print $1 }' /proc/modules); do
		loaded=1
		rmmod "$m"
	done
	echo $loaded >"$dir/res/$name.loaded"
done <"$cases"
exit 0
