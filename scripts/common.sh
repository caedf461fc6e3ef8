# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# Shared by scripts/run and scripts/test: install what is missing (Debian 12 packages only), then build.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$repo/build"

# What each package is for:
#   cmake ninja-build g++ pkgconf   the build
#   qt6-base-dev libgl-dev          Qt 6 Core, Widgets, Test (Qt6Gui's CMake files want the GL headers)
#   qt6-tools-dev qt6-l10n-tools    lupdate/lrelease for translations/
#   qt6-tools-dev-tools             (linguist tools' CMake helpers)
#   psmisc                          fuser, the predecessor's method, for bench/ and tests that compare with it
#   xvfb trayer xdotool imagemagick the end-to-end tray test: a virtual display, a real XEmbed tray, clicks,
#                                   a screenshot
#   x11-utils                       the same test: xdpyinfo (is the display up?), xwininfo (the window tree, to
#                                   find the icon docked inside trayer's panel)
#   desktop-file-utils appstream    checks of the desktop entry and metainfo
#   dbus-daemon                     the private buses on which the presence tests fake logind and the desktops
#                                   (Qt D-Bus itself is in qt6-base-dev)
#   dpkg-dev                        dpkg-shlibdeps: the Debian package's Depends, computed from the libraries
#                                   the binaries link (cpack, scripts/package and the package test)
#   lintian                         Debian's package checker, run on the built .deb by the package test
#                                   (tests/package_check.sh fails on its errors)
#   clang libclang-rt-14-dev        the libFuzzer targets of tests/fuzz (scripts/fuzz): clang++ and its
#                                   fuzzer, address and undefined-behaviour sanitizer runtimes
#   clang-format                    scripts/check-format (run by scripts/test): git clang-format checks the lines
#                                   a branch changes against .clang-format. 75 kB: clang already brings the
#                                   libraries it needs
#   ccache                          compiler cache: a second build of the same sources (another clone, a
#                                   fresh build folder, the fuzzers' build after a change) recompiles only what
#                                   changed; a build on 2 cores takes minutes without it
#   slurmctld slurmd slurm-client   the slurm tests (tests/slurm): a real single-host cluster under a temporary
#   munge                           folder (Slurm 22.05, munged). They use their own munge socket and ports
#                                   (16917-16918), so the munge and slurmd services Debian may start on install
#                                   (slurmd only once /etc/slurm/slurm.conf exists) are left alone: the tests do not
#                                   need them
#   iproute2                        the lab suite (tests/slurm/lab.sh): `ip netns` and veth pairs for its three
#                                   workstations, each in a network namespace of its own
#   procps                          the lab suite: pgrep finds the Slurm commands a killed idlegpu might leave
#   python3-prometheus-client       the metrics test (tst_it_metrics): Prometheus's own text parser reads the
#                                   [metrics] textfile as node_exporter would
#   prometheus                      the lab view test (tests/metrics, ctest -L metrics): the real Prometheus and
#   prometheus-node-exporter        promtool check the shipped alert rules and dashboard queries over node_exporter's
#                                   textfile collector. The test starts its own instances on free loopback ports
#                                   under a temporary folder: the services Debian starts on install (ports 9090 and
#                                   9100) are left alone, the test never talks to them
#   systemd                         systemd-analyze: the package test checks both units with systemd's own parser
#                                   (verify) and the system unit's sandbox (security --offline); on a machine that
#                                   boots with another init it only adds the tools
#   polkitd libxml2-utils           the package test validates the shipped polkit actions against polkitd's
#   libdbus-1-dev                   policyconfig-1.dtd, and the D-Bus interface's XML against introspect.dtd (only
#                                   libdbus-1-dev ships it), with xmllint
#   systemd-container mmdebstrap    the systemd suite (tests/systemd, ctest -L systemd): systemd-nspawn boots a
#                                   Debian 12 container with systemd as PID 1, made once by mmdebstrap from the
#                                   archive apt uses and cached in /var/cache/idlegpu-tests ($IDLEGPU_ROOTFS_CACHE)
packages=(cmake ninja-build g++ pkgconf qt6-base-dev libgl-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
          psmisc xvfb trayer xdotool imagemagick x11-utils desktop-file-utils appstream dbus-daemon
          dpkg-dev lintian clang libclang-rt-14-dev clang-format ccache slurmctld slurmd slurm-client munge
          python3-prometheus-client iproute2 procps prometheus prometheus-node-exporter systemd
          polkitd libxml2-utils libdbus-1-dev systemd-container mmdebstrap)

# The real desktops of the desktop suite (tests/desktop, ctest -L desktop), for scripts/test only: scripts/run
# does not need them. About 420 MB to download, 1.25 GB on disk, 8 minutes of apt on 2 cores (5 of them KDE's).
#   gnome-shell gnome-shell-extension-appindicator  GNOME Shell 43 on X11 and Wayland with its tray (the
#                                   AppIndicator extension: a StatusNotifierWatcher and host, XEmbed on X11)
#   gjs                             GNOME Shell's notification server (the shell only recommends it: without it
#                                   nobody owns org.freedesktop.Notifications in a GNOME session)
#   qt6-wayland xwayland            idlegpu as a native Wayland client of GNOME Shell, and through Xwayland
#   plasma-workspace plasma-desktop KDE Plasma 5.27: plasmashell and its panel, ksmserver (the idle time),
#   kwin-x11 kded5 kactivitymanagerd kwin, kded5's StatusNotifierWatcher, the activity manager plasmashell wants
#   xfce4-panel xfwm4 xfconf        XFCE 4.18: the panel's systray plugin (StatusNotifierWatcher, host and XEmbed
#   xfce4-notifyd                   tray), its window manager and settings daemon, its notification server
desktop_test_packages=(gnome-shell gnome-shell-extension-appindicator gjs qt6-wayland xwayland
                       plasma-workspace plasma-desktop kwin-x11 kded5 kactivitymanagerd
                       xfce4-panel xfwm4 xfconf xfce4-notifyd)

# install_missing [EXTRA_PACKAGE...]: the packages above and the extra ones given, those not installed yet.
install_missing() {
    local missing=()
    for p in "${packages[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing missing Debian packages: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ccache for every compiler the builds use (g++ here, clang in scripts/fuzz). Paths count relative to the clone and
# not its folder, so that a clone elsewhere finds what another compiled. The sloppiness is what ccache needs to cache
# files compiled with a precompiled header (its manual): it is part of the launcher, so that a later
# `cmake --build build` has it too.
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1
compiler_cache=()
if command -v ccache >/dev/null; then
    launcher="env;CCACHE_SLOPPINESS=pch_defines,time_macros;ccache"
    compiler_cache=(-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
fi

build_idlegpu() {
    cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${compiler_cache[@]}" >/dev/null
    cmake --build "$build" -j "$(nproc)"
}
