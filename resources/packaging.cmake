# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# The Debian package: `cpack -G DEB` in the build folder (or scripts/package) writes idlegpu_<version>_<arch>.deb.
# It installs to /usr whatever CMAKE_INSTALL_PREFIX the build was configured with. Nothing in it touches a
# user's home: removing the package leaves ~/.config/idlegpu (and gpu_mon's file, and autostart entries) alone.

# IDLEGPU_HOMEPAGE and IDLEGPU_MAINTAINER are set in the top-level CMakeLists.txt, before resources/ uses them.
# The files Debian wants in /usr/share/doc/idlegpu (copyright in the machine-readable format, changelog.gz) are
# installed by resources/CMakeLists.txt with the others; tests/package_check.sh runs lintian on the result.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME idlegpu)
set(CPACK_PACKAGE_VENDOR "idlegpu")
set(CPACK_PACKAGE_CONTACT "${IDLEGPU_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "idlegpu runs idle workloads (a miner, a BOINC or Folding@home client, any batch\n"
    "command) on the NVIDIA GPUs of a deep-learning workstation while nobody else\n"
    "uses them, and stops them the moment TensorFlow, PyTorch or any other program\n"
    "opens the GPU, so that the user's own job gets the whole card. It watches the\n"
    "device nodes with inotify and preempts within milliseconds. It runs in the\n"
    "system tray or headless under systemd or supervisord, and reads gpu_mon's\n"
    "configuration files unchanged.")
# Install with DESTDIR and the prefix /usr, so that install-time code sees the real prefix in
# CMAKE_INSTALL_PREFIX: the systemd unit names the installed binary (resources/CMakeLists.txt).
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${IDLEGPU_HOMEPAGE}")
# The library dependencies (libqt6widgets6, libqt6core6, libc6, ...) with versions, from dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# polkitd decides who may pause the system service's workloads and change its configuration (the actions in
# /usr/share/polkit-1/actions/io.github.idlegpu.policy). A Recommends, not a Depends: without it the service still
# runs and every user may still read its state; only the acts a client asks of it are refused.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS polkitd)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
