#!/bin/sh
# Starts the specs' Chromium: the browser named by --aether-chromium=PATH, with every
# --disable-features it was given merged into one switch. Chromium reads only the last of them,
# and Playwright passes its own list before the config's.
browser=''
features=''
for arg do
  shift
  case $arg in
    --aether-chromium=*) browser=${arg#--aether-chromium=} ;;
    --disable-features=*) features=${features:+$features,}${arg#--disable-features=} ;;
    *) set -- "$@" "$arg" ;;
  esac
done
if [ -z "$browser" ]; then
  echo 'chromium-launch.sh: no --aether-chromium=PATH given' >&2
  exit 2
fi
exec "$browser" "$@" ${features:+"--disable-features=$features"}
