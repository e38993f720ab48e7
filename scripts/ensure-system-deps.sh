#!/usr/bin/env bash
# The suite drives a real Chromium (browser test) and a real redis-server (shared rate budget).
# On a Debian machine where we are root (these dev machines, CI), install what is missing so that
# `npm install && npm test` does everything; elsewhere, say what to install and let the tests fail
# with their own clear message.
set -u
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${need[*]} (Debian packages) for the browser and Redis tests…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null && exit 0
fi
echo "Missing for the full suite: ${need[*]}. Install them (Debian/Ubuntu: apt-get install -y ${need[*]})." >&2
exit 0
