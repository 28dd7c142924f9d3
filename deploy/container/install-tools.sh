#!/bin/sh
# Install what `make container-test` needs from Debian's packages when it is missing: podman,
# the runc runtime, and debootstrap (the base image). As root, with apt-get; elsewhere say what
# to install.
set -eu
missing=""
for package in podman runc debootstrap; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "make container-test needs:$missing (Debian: apt-get install -y$missing, as root)" >&2
    exit 1
fi
echo "installing$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
