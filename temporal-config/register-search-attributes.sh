#!/usr/bin/env bash
# Registers the custom search attributes of temporal-config/search-attributes.txt (one Name=Type a
# line; # starts a comment) in the service's Temporal namespace, so operators can filter workflows
# in Temporal UI by organization, run type and owning record.
#
# Run by the one-shot `temporal-setup` service of docker-compose.yml (image temporalio/admin-tools,
# which has the `temporal` CLI). Works by hand against any server too:
#   TEMPORAL_ADDRESS=127.0.0.1:7233 TEMPORAL_NAMESPACE=default bash temporal-config/register-search-attributes.sh
#
# Idempotent: an attribute that already exists with the same type is left alone ("already exists"
# counts as success); one that exists with a different type is an error, since workflows would
# then carry values the server cannot index as intended.
set -euo pipefail

address="${TEMPORAL_ADDRESS:-temporal:7233}"
namespace="${TEMPORAL_NAMESPACE:-default}"
file="${SEARCH_ATTRIBUTES_FILE:-$(dirname "$0")/search-attributes.txt}"
timeout_seconds="${WAIT_TIMEOUT_SECONDS:-300}"

log() { echo "[register-search-attributes] $*" >&2; }

if [[ ! -r "$file" ]]; then
  log "cannot read $file"
  exit 1
fi

# The server reports healthy before temporalio/auto-setup has created the namespace (it does so in
# the background once the frontend answers), so wait until the namespace can be described.
deadline=$((SECONDS + timeout_seconds))
until temporal operator namespace describe --namespace "$namespace" --address "$address" >/dev/null 2>&1; do
  if ((SECONDS >= deadline)); then
    log "namespace '$namespace' is not available at $address after ${timeout_seconds}s"
    temporal operator namespace describe --namespace "$namespace" --address "$address" || true
    exit 1
  fi
  log "waiting for namespace '$namespace' at $address ..."
  sleep 3
done

count=0
while IFS= read -r raw || [[ -n "$raw" ]]; do
  line="${raw%%#*}"                        # drop comments
  line="${line//[[:space:]]/}"             # and whitespace
  [[ -z "$line" ]] && continue
  if [[ "$line" != *=* ]]; then
    log "malformed line in $file (expected Name=Type): $raw"
    exit 1
  fi
  name="${line%%=*}"
  type="${line#*=}"
  if [[ -z "$name" || -z "$type" ]]; then
    log "malformed line in $file (expected Name=Type): $raw"
    exit 1
  fi

  # The CLI refuses an existing attribute of another type ("... already exists and has different
  # type ..."); with SQL visibility the server accepts an existing one of the same type as a no-op,
  # and older servers answer "already exists": both are fine.
  if output=$(temporal operator search-attribute create \
      --namespace "$namespace" --address "$address" \
      --name "$name" --type "$type" 2>&1); then
    log "$name ($type): registered"
  elif grep -qi 'different type' <<<"$output"; then
    log "$name: exists with another type than $type in namespace '$namespace':"
    log "$output"
    exit 1
  elif grep -qi 'already exists' <<<"$output"; then
    log "$name ($type): already registered"
  else
    log "$name ($type): registration failed:"
    log "$output"
    exit 1
  fi
  count=$((count + 1))
done <"$file"

if ((count == 0)); then
  log "no search attributes found in $file"
  exit 1
fi

log "done: $count search attribute(s) in namespace '$namespace'"
temporal operator search-attribute list --namespace "$namespace" --address "$address" || true
