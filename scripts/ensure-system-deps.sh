#!/usr/bin/env bash
# The suite drives a real Chromium (browser test), a real redis-server (shared rate budget) and a
# real PostgreSQL (the Postgres store).
# On a Debian machine where we are root (CI, disposable dev machines), install what is missing
# through apt-get, saying so and showing apt's output, so that `npm install && npm test` does
# everything; elsewhere, say what to install and let the tests fail with their own clear message.
# Set SEO_VISIBILITY_NO_APT=1 to never install anything.
set -u
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -eq 0 ]; then
  echo "Chromium ($(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)), $(redis-server --version | cut -d' ' -f1-3) and PostgreSQL are installed: nothing to do."
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${SEO_VISIBILITY_NO_APT:-}" ]; then
  # Only what is missing, none of its recommendations, and no upgrade of what is installed: the
  # suite must not turn a developer's machine into another one (systemd, udev, avahi, samba…).
  install=(apt-get install -y --no-upgrade --no-install-recommends "${need[@]}")
  echo "Installing the Debian packages ${need[*]} for the browser, Redis and PostgreSQL tests: apt-get update && ${install[*]}"
  echo "(this changes the machine; set SEO_VISIBILITY_NO_APT=1 to skip it and install them yourself)"
  apt-get update && DEBIAN_FRONTEND=noninteractive "${install[@]}" && exit 0
  echo "apt-get failed: the browser, Redis and PostgreSQL tests will fail below." >&2
  exit 1
fi
echo "Missing for the full suite: ${need[*]}. Install them (Debian/Ubuntu: apt-get install -y ${need[*]}); the browser, Redis and PostgreSQL tests fail without them." >&2
exit 0
