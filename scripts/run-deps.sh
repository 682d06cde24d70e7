#!/usr/bin/env bash
# What `make run` needs beyond Node: Janus for group calls (the server embeds one when
# JANUS_URLS is unset). Installed from Debian when root and missing; otherwise the server runs
# and says group calls are unavailable.
set -euo pipefail
if [[ -z "${JANUS_URLS:-}" ]] && ! command -v janus >/dev/null; then
  if [[ $(id -u) == 0 ]]; then
    echo "installing janus from Debian (group calls)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq janus >/dev/null
  else
    echo "WARNING: janus is missing and not root: group calls will be unavailable" >&2
  fi
fi
exit 0
