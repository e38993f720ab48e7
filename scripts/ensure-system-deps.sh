#!/usr/bin/env bash
# The suite drives a real Chromium (browser test) and a real redis-server (shared rate budget).
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
  echo "Chromium ($(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)) and $(redis-server --version | cut -d' ' -f1-3) are installed: nothing to do."
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${SEO_VISIBILITY_NO_APT:-}" ]; then
  echo "Installing the Debian packages ${need[*]} for the browser and Redis tests: apt-get update && apt-get install -y --no-install-recommends ${need[*]}"
  echo "(this changes the machine; set SEO_VISIBILITY_NO_APT=1 to skip it and install them yourself)"
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" && exit 0
  echo "apt-get failed: the browser and Redis tests will fail below." >&2
  exit 1
fi
echo "Missing for the full suite: ${need[*]}. Install them (Debian/Ubuntu: apt-get install -y ${need[*]}); the browser and Redis tests fail without them." >&2
exit 0
