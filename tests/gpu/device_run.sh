#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The idlegpu authors
# On a lent GPU machine (tests/gpu/device_pack.sh packs what this needs): the gpu-labelled tests, with the binaries and
# Qt libraries built here. Each test log comes back in $OUT.
set -u
here=$(cd "$(dirname "$0")" && pwd); root=$(pwd)
# The tests name the paths of the build they came from (IDLEGPU_BINARY, the test data): the same path is made here.
built_in=$(cat "$here/repo-path")
[ -e "$built_in" ] || { mkdir -p "$(dirname "$built_in")" && ln -s "$root" "$built_in"; }
cd "$here" && tar xJf pack.tar.xz
echo "glibc: $(ldd --version | head -1)"; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
ls -la /dev/nvidia*; python3 -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -1
mkdir -p "$built_in/build"
[ -e "$built_in/build/bin" ] || ln -s "$here/bin" "$built_in/build/bin"
[ -e "$built_in/build/lib" ] || ln -s "$here/lib" "$built_in/build/lib"
export LD_LIBRARY_PATH="$here/lib" QT_QPA_PLATFORM=offscreen LANG=C.UTF-8
for t in tst_gpu_nvml tst_gpu_clients tst_gpu_preemption; do
    echo "=== $t"; timeout 200 "$here/bin/$t" -v1 2>&1 | tee "$OUT/$t.log" | grep -vE '^QDEBUG|^INFO   :' | tail -40
    echo "rc=${PIPESTATUS[0]}"
done
grep -h "preempting\|stopped .* ms after" "$OUT"/*.log | head -20
