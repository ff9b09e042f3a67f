#!/bin/sh
# Makes Debian's Chromium available for PlaygroundPageTest. On CI (CI=true, as root, with apt-get) a missing Chromium
# is installed; elsewhere the build only says how to install it, and the test is skipped.
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  exit 0
fi
if [ "$CI" = "true" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[pagantic-api] installing Debian's chromium for the playground page test"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit $?
fi
echo "[pagantic-api] Chromium is not installed: the playground page test will be skipped (apt-get install chromium)"
