#!/usr/bin/env bash
# Installs the Debian packages the tests need (Chromium, coturn, a Korean font, redis-server and
# HAProxy for the cluster tests, Janus for group calls, ffmpeg for voice messages), makes sure
# MariaDB runs and RabbitMQ serves Web-STOMP.
# Without root it only reports what is missing: the tests then say so loudly (and fail in CI).
set -euo pipefail
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v turnserver >/dev/null || missing+=(coturn)
# Korean glyphs for Chromium: without them screenshots show empty boxes.
[[ -d /usr/share/fonts/truetype/nanum ]] || missing+=(fonts-nanum)
# The cluster tests start their own redis-server and put Debian's HAProxy in front of nodes.
command -v redis-server >/dev/null || missing+=(redis-server)
command -v haproxy >/dev/null || missing+=(haproxy)
# Group calls go through the Janus WebRTC Server (its VideoRoom plugin).
command -v janus >/dev/null || missing+=(janus)
# Voice messages: the server reads an upload's duration and waveform with ffmpeg.
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
if ((${#missing[@]})); then
  if [[ $(id -u) == 0 ]]; then
    echo "installing from Debian: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "WARNING: missing ${missing[*]} and not root: the tests that need them will say so" >&2
  fi
fi
# MariaDB is started before sessions on these machines; start it again if it has stopped.
if ! mariadb -h 127.0.0.1 -u root -e 'select 1' >/dev/null 2>&1; then
  if [[ $(id -u) == 0 && -x /usr/sbin/mariadbd ]]; then
    echo "starting MariaDB"
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
    for _ in $(seq 1 30); do mariadb -h 127.0.0.1 -u root -e 'select 1' >/dev/null 2>&1 && break; sleep 1; done
  fi
fi
# RabbitMQ's Web-STOMP is the baseline that `harness load --broker` and `make bench` compare
# our STOMP core with.
if [[ $(id -u) == 0 ]] && command -v rabbitmq-plugins >/dev/null; then
  rabbitmq-plugins -q enable rabbitmq_web_stomp >/dev/null 2>&1 || echo "WARNING: could not enable rabbitmq_web_stomp" >&2
fi
exit 0
