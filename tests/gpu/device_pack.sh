#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# Packs what the `gpu` tests need on a lent GPU machine that has no Qt (the device tool's bare machine): the stripped
# binaries of build/ and the libraries they load besides the C library, in .devcarry/pack.tar.xz (about 22 MB;
# the device tool carries at most 64 MiB). Then, from the repository's root:
#   device run --carry .devcarry 'bash .devcarry/device_run.sh'
# .devcarry/ is for this machine only: add it to .git/info/exclude.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
carry=$repo/.devcarry
rm -rf "$carry" && mkdir -p "$carry/bin" "$carry/lib"
cp "$repo/tests/gpu/device_run.sh" "$carry/"
echo "$repo" > "$carry/repo-path"
for program in idlegpu idlegpu-reaper tst_gpu_clients tst_gpu_nvml tst_gpu_preemption test_holdopen; do
    strip -o "$carry/bin/$program" "$repo/build/bin/$program"
done
ln -s idlegpu "$carry/bin/idlegpu-slurm-health"
ln -s idlegpu "$carry/bin/idlegpu-slurm-prolog"
for program in "$carry"/bin/idlegpu "$carry"/bin/tst_gpu_*; do ldd "$program"; done | awk '/=>/ { print $3 }' | sort -u |
    grep -vE '/(libc|libm|libpthread|libdl|librt)\.so|ld-linux' | xargs -I{} cp -L {} "$carry/lib/"
cp "$repo"/build/lib/*.so "$carry/lib/"
(cd "$carry" && tar cJf pack.tar.xz bin lib && rm -rf bin lib)
ls -l "$carry/pack.tar.xz"
