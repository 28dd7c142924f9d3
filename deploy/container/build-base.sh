#!/bin/sh
# Build the base image IMAGE (default localhost/cribbage-base:bookworm) from Debian's own
# packages with debootstrap and import it into podman: for machines with no container registry.
# Debian bookworm, minbase, plus python3 and python3-venv (Python 3.11), so it stands in for a
# python:3.11-slim-bookworm image. Nothing is done when IMAGE already exists (delete it with
# `podman rmi IMAGE` to rebuild). Set DEBIAN_MIRROR to use another Debian mirror than
# debootstrap's default; DEBOOTSTRAP_CACHE (default /var/cache/cribbage-debootstrap) keeps the
# downloaded .deb files for the next build.
set -eu
IMAGE=${1:-localhost/cribbage-base:bookworm}
if podman image exists "$IMAGE"; then
    echo "base image $IMAGE exists: not rebuilt"
    exit 0
fi
CACHE=${DEBOOTSTRAP_CACHE:-/var/cache/cribbage-debootstrap}
mkdir -p "$CACHE"
ROOT=$(mktemp -d /var/tmp/cribbage-base.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT INT TERM
debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
    --cache-dir="$CACHE" bookworm "$ROOT" ${DEBIAN_MIRROR:-} >"$ROOT.log" 2>&1 || {
    tail -n 30 "$ROOT.log" >&2
    rm -f "$ROOT.log"
    exit 1
}
rm -f "$ROOT.log"
# What a slim image leaves out: downloaded packages, package lists and caches, logs, the
# host's resolver, documentation but the licences, manual pages and translations.
rm -rf "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/* \
    "$ROOT"/var/cache/apt/*.bin "$ROOT"/var/log/*.log "$ROOT"/tmp/* "$ROOT"/etc/resolv.conf \
    "$ROOT"/usr/share/man/* "$ROOT"/usr/share/info/* "$ROOT"/usr/share/locale/*
find "$ROOT"/usr/share/doc -mindepth 1 ! -type d ! -name copyright -delete
find "$ROOT"/usr/share/doc -mindepth 1 -type d -empty -delete
# and what keeps apt from putting them back when a Dockerfile installs more (as the slim
# Debian images do)
cat >"$ROOT"/etc/dpkg/dpkg.cfg.d/slim <<'CONF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
CONF
printf 'APT::Install-Recommends "false";\n' >"$ROOT"/etc/apt/apt.conf.d/99slim
tar --numeric-owner -C "$ROOT" -c . | podman import --quiet \
    --change 'CMD ["/bin/bash"]' --change 'ENV LANG=C.UTF-8' \
    --message "Debian bookworm minbase with python3 (debootstrap)" - "$IMAGE" >/dev/null
echo "base image $IMAGE built"
