#!/usr/bin/env bash
# Make sure the system Chromium the browser tests drive is installed (Debian's package; the tests
# never download a browser). Installs it with apt-get when missing; fails loudly if it cannot.
set -u
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
echo "Chromium not found at $CHROMIUM; installing Debian's chromium package..." >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! $SUDO apt-get install -y chromium >/tmp/forge-chromium-install.log 2>&1; then
  $SUDO apt-get update >>/tmp/forge-chromium-install.log 2>&1
  $SUDO apt-get install -y chromium >>/tmp/forge-chromium-install.log 2>&1
fi
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
echo "ERROR: could not install Chromium (see /tmp/forge-chromium-install.log)." >&2
echo "Install it with: apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)" >&2
exit 1
