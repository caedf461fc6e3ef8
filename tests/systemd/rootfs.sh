#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# The systemd suite's fixture: the Debian 12 root file system its containers boot, made by mmdebstrap once per
# package list and reused after (tests/systemd/lib.sh says where it is cached and how it is keyed).
#
#   tests/systemd/rootfs.sh DEB_DIR      DEB_DIR holds the idlegpu_*.deb that package_check built
#
# Exit status 0 when the rootfs is there, 77 (skipped, with the reason) where it cannot be made here, 1 on failure.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

debs=("${1:?usage: rootfs.sh DEB_DIR}"/idlegpu_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || sysd_fail "expected one idlegpu_*.deb in $1 (package_check makes it), found: ${debs[*]}"
sysd_check_host
sysd_rootfs_make "${debs[0]}"
