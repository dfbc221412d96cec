# Shell shared by the CI steps that need a fresh Debian (.ci/image-test, .ci/fresh-debian): sourced, never run.
# The caller defines say (prints a step) and die (prints the failure and exits), and runs as root.

# The mirror this machine installs Debian from: the first bookworm "main" source in its apt configuration.
debian_mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    uri=$(awk 'BEGIN { RS = ""; FS = "\n" }
      /(^|\n)Suites:[^\n]*[[:space:]]bookworm([[:space:]]|$)/ && /(^|\n)Components:[^\n]*main/ {
        for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, a, /[[:space:]]+/); print a[2]; exit }
      }' "$f")
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(sed -nE 's/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]]+bookworm[[:space:]].*main.*/\2/p' "$f" | head -n 1)
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
  die "no Debian bookworm main source in /etc/apt: cannot make a Debian bookworm root"
}

# Makes sure $1/bookworm-minbase.tar holds a Debian bookworm root file system (debootstrap --variant=minbase from
# debian_mirror), made anew when missing or older than 30 days; $2 receives debootstrap's log. One maker at a time:
# two steps (or two CI runs) sharing the cache wait for each other rather than both debootstrapping.
bookworm_rootfs_tar() {
  local cache=$1 log=$2 tar="$1/bookworm-minbase.tar" mirror lock
  mkdir -p "$cache"
  exec {lock}>"$cache/.lock"
  flock "$lock"
  if [ ! -s "$tar" ] || [ -n "$(find "$tar" -mtime +30)" ]; then
    mirror=$(debian_mirror)
    say "debootstrap --variant=minbase bookworm from $mirror (cached in $tar)"
    rm -rf "$cache/rootfs.tmp"
    debootstrap --variant=minbase bookworm "$cache/rootfs.tmp" "$mirror" >"$log" 2>&1 ||
      { tail -n 20 "$log" >&2; rm -rf "$cache/rootfs.tmp"; die "debootstrap"; }
    tar -C "$cache/rootfs.tmp" -cf "$tar.tmp" . && mv "$tar.tmp" "$tar"
    rm -rf "$cache/rootfs.tmp"
  fi
  exec {lock}>&-
}
