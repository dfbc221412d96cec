#!/bin/sh
# The container image's entrypoint (Containerfile), for a plain container and for the Home Assistant add-on.
#
#   /data/options.json present (the add-on): node dist/src/config/addon-entry.js turns the options form and
#     /config/outfit-display.yaml into /data/outfit-display.yaml (exit 2 on a bad form: the daemon never starts);
#   otherwise (a plain container): /data/outfit-display.yaml is the config you mounted.
# Then the daemon runs as this shell's successor (exec): it receives SIGTERM itself and exits 0 after stopping.
#
# Started as root (the Supervisor, or docker/podman run without --user), it first gives /data to the user outfit
# and drops to it with no capabilities; nothing after that runs as root. OUTFIT_DATA_DIR moves /data (for tests).
set -eu

data="${OUTFIT_DATA_DIR:-/data}"
app=/app
config="$data/outfit-display.yaml"

fail() {
  # One JSON line like the daemon's own (pino), so a log collector sees it as an error with its code.
  printf '{"level":"fatal","time":"%s","app":"outfit-display","part":"container","code":"E_CONFIG","msg":"E_CONFIG: %s"}\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "$1" >&2
  exit 2
}

if [ "$(id -u)" = 0 ]; then
  [ -d "$data" ] || fail "$data is not a folder: mount a volume or a folder there"
  # The Supervisor makes /data root's, and writes options.json there at each start.
  chown -R outfit:outfit "$data"
  exec setpriv --reuid=outfit --regid=outfit --init-groups --no-new-privs --inh-caps=-all --bounding-set=-all \
    -- /bin/sh "$0" "$@"
fi

[ -w "$data" ] || fail "$data is not writable by user $(id -u): give that user the folder (chown), or run as root and let the image do it"

if [ -f "$data/options.json" ]; then
  node "$app/dist/src/config/addon-entry.js" \
    --options "$data/options.json" --out "$config" --key-file "$data/api-key" \
    --output-dir "$data/frames" --state-dir "$data"
fi

[ -f "$config" ] || fail "no config: mount a folder at $data that holds outfit-display.yaml (docs/guides/container.md), or an options.json from Home Assistant"

# The same memory settings as the systemd unit (systemd/outfit-display.service): a Pi-class host.
exec node --max-old-space-size=96 --max-semi-space-size=2 --optimize-for-size --bytecode-old-age=2 --no-maglev --no-opt "$app/dist/cli.js" run --config "$config"
