#!/usr/bin/env bash
# Installs outfit-display as a systemd service, from this clone. Safe to run again (updates in place).
#
#   sudo systemd/install.sh              install or update; starts the service once an API key is in place
#   sudo systemd/install.sh --uninstall  remove the service and the program; keeps /etc/outfit-display and
#                                        /var/lib/outfit-display (your config, key and credit ledger)
#
# What goes where:
#   /opt/outfit-display/                       the program (dist, production node_modules, panel profiles)
#   /etc/systemd/system/outfit-display.service the unit
#   /etc/outfit-display/config.yaml            your config (from config/example.yaml on first install)
#   /etc/outfit-display/api-key                the API key, root-only; handed to the service as a credential
#   /etc/outfit-display/mqtt-password          optional; a drop-in adds it as a credential when present
#   /etc/outfit-display/trmnl-<mac>.token      optional, one a TRMNL device (<mac>: 12 hex digits in lower case,
#                                              no colons); a drop-in adds each as the credential trmnl-<mac>
#
# Every secret file is made root's, mode 0600: the service reads them as credentials, nobody else at all.
# For tests and packaging: OUTFIT_ROOT=/some/dir installs below that folder instead of /, and
# SYSTEMCTL=true skips talking to systemd.
set -euo pipefail

ROOT="${OUTFIT_ROOT:-}"
SYSTEMCTL="${SYSTEMCTL:-systemctl}"
PREFIX="$ROOT/opt/outfit-display"
ETC="$ROOT/etc/outfit-display"
UNIT_DIR="$ROOT/etc/systemd/system"
UNIT="$UNIT_DIR/outfit-display.service"
DROPIN="$UNIT_DIR/outfit-display.service.d"
SRC="$(cd "$(dirname "$0")/.." && pwd)"

say() { printf 'install: %s\n' "$*"; }
warn() { printf 'install: warning: %s\n' "$*" >&2; }
die() { printf 'install: %s\n' "$*" >&2; exit 1; }

# A secret file: root's alone. (Below OUTFIT_ROOT as a user, the chown is left out.)
lock_down() {
  chmod 0600 "$1"
  if [ "$(id -u)" -eq 0 ]; then chown 0:0 "$1"; fi
}

if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then die "run as root: sudo $0 $*"; fi

if [ "${1:-}" = "--uninstall" ]; then
  "$SYSTEMCTL" disable --now outfit-display.service >/dev/null 2>&1 || true
  rm -f "$UNIT"
  rm -rf "$DROPIN" "$PREFIX"
  "$SYSTEMCTL" daemon-reload >/dev/null 2>&1 || true
  say "removed the service and $PREFIX; kept $ETC and /var/lib/outfit-display"
  exit 0
fi
[ $# -eq 0 ] || die "unknown argument: $1 (use --uninstall, or nothing)"

[ -f "$SRC/dist/cli.js" ] || die "$SRC/dist/cli.js is missing: run 'bash .ci/setup && npm run build' first"
[ -d "$SRC/node_modules/canvas" ] || die "$SRC/node_modules is missing: run 'bash .ci/setup' first"

# The program: a fresh copy next to the old one, then swapped in, so a running service never sees half of it.
say "installing the program into $PREFIX"
mkdir -p "$(dirname "$PREFIX")"
stage="$PREFIX.new"
rm -rf "$stage"
mkdir -p "$stage/display"
cp -a "$SRC/dist" "$SRC/node_modules" "$SRC/config" "$SRC/package.json" "$SRC/package-lock.json" "$SRC/README.md" "$stage/"
cp -a "$SRC/display/panels" "$stage/display/"
(cd "$stage" && npm prune --omit=dev --no-audit --no-fund >/dev/null 2>&1) || die "npm prune failed in $stage"
chmod -R u=rwX,go=rX "$stage"
rm -rf "$PREFIX.old"
if [ -d "$PREFIX" ]; then mv "$PREFIX" "$PREFIX.old"; fi
mv "$stage" "$PREFIX"
rm -rf "$PREFIX.old"

# The config: created once, never overwritten.
install -d -m 0755 "$ETC"
if [ ! -f "$ETC/config.yaml" ]; then
  sed -e 's#^  key_file: .*#  \# key_file: not needed: the key comes from the systemd credential outfit-api-key#' \
      -e 's#^output_dir: .*#output_dir: /run/outfit-display/frames   \# tmpfs: frames are rewritten often#' \
      -e 's#^state_dir: .*#state_dir: /var/lib/outfit-display#' \
      "$SRC/config/example.yaml" > "$ETC/config.yaml"
  chmod 0644 "$ETC/config.yaml"
  say "wrote $ETC/config.yaml from config/example.yaml: edit it (your place, panel, budget)"
fi

# The API key: from OUTFIT_API_KEY on first install, else the owner puts it there.
if [ ! -f "$ETC/api-key" ] && [ -n "${OUTFIT_API_KEY:-}" ]; then
  (umask 077 && printf '%s\n' "$OUTFIT_API_KEY" > "$ETC/api-key")
  say "stored the API key in $ETC/api-key (root only)"
fi
[ ! -f "$ETC/api-key" ] || lock_down "$ETC/api-key"

install -d -m 0755 "$UNIT_DIR"
install -m 0644 "$SRC/systemd/outfit-display.service" "$UNIT"
# Drop-ins for the optional credentials: written for the files that exist, removed for those that do not (systemd
# refuses to start a unit whose credential file is missing).
if [ -f "$ETC/mqtt-password" ]; then
  lock_down "$ETC/mqtt-password"
  install -d -m 0755 "$DROPIN"
  printf '[Service]\nLoadCredential=mqtt-password:/etc/outfit-display/mqtt-password\n' > "$DROPIN/mqtt-password.conf"
else
  rm -f "$DROPIN/mqtt-password.conf"
fi
tokens=()
for f in "$ETC"/trmnl-*.token; do
  [ -f "$f" ] || continue
  name="$(basename "$f" .token)"
  if ! [[ "$name" =~ ^trmnl-[0-9a-f]{12}$ ]]; then
    warn "$f: not used; name a TRMNL token file trmnl-<MAC in lower case without colons>.token, e.g. trmnl-aabbccddeeff.token"
    continue
  fi
  lock_down "$f"
  tokens+=("$name")
done
if [ "${#tokens[@]}" -gt 0 ]; then
  install -d -m 0755 "$DROPIN"
  { echo '[Service]'; for name in "${tokens[@]}"; do echo "LoadCredential=$name:/etc/outfit-display/$name.token"; done; } \
    > "$DROPIN/trmnl-tokens.conf"
  say "TRMNL tokens handed to the service as credentials: ${tokens[*]}"
else
  rm -f "$DROPIN/trmnl-tokens.conf"
fi
# A panel on the header (a display with `attached:` that does not only write a capture file): the SPI and GPIO
# devices and their groups, in a drop-in (systemd/panel.conf); without one the service sees no hardware at all.
if grep -Eq '^[[:space:]]+attached:' "$ETC/config.yaml" && ! grep -Eq '^[[:space:]]+capture:' "$ETC/config.yaml"; then
  install -d -m 0755 "$DROPIN"
  install -m 0644 "$SRC/systemd/panel.conf" "$DROPIN/panel.conf"
  say "a panel is attached: the service may use /dev/spidev0.0 and the header's GPIO chip (groups spi, gpio)"
  getent group spi >/dev/null && getent group gpio >/dev/null ||
    warn "the groups spi and gpio do not exist (they do on Raspberry Pi OS): create them and give them /dev/spidev0.0 and /dev/gpiochip*, or the service will not start"
else
  rm -f "$DROPIN/panel.conf"
fi
rmdir "$DROPIN" 2>/dev/null || true

"$SYSTEMCTL" daemon-reload
"$SYSTEMCTL" enable outfit-display.service >/dev/null
if [ -f "$ETC/api-key" ]; then
  "$SYSTEMCTL" restart outfit-display.service
  say "outfit-display is running: journalctl -u outfit-display -f"
else
  say "put your API key in $ETC/api-key (sudo install -m 600 /dev/stdin $ETC/api-key), then: sudo systemctl start outfit-display"
fi
