#!/usr/bin/env bash
# Capture every missing or stale CUDA record on a CUDA machine, packed into one archive.
# Needs Python 3 and torch (with Triton) only: no virtual environment, no MkDocs.
#   bash scripts/capture_gpu.sh [ARCHIVE]      (default: cuda-records.tar.gz; FORCE=1 re-captures all)
# Fails (status 2) without a CUDA device. Then, on the build machine: make unpack ARCHIVE=... (never tar xzf: it
# writes whatever an archive holds wherever its names point; unpack checks every member first).
set -euo pipefail
cd "$(dirname "$0")/.."
archive="${1:-cuda-records.tar.gz}"
force=()
if [[ -n "${FORCE:-}" ]]; then force=(--force); fi
PYTHONPATH=scripts exec python3 -m phase25 run --device cuda --require-device cuda -j "${JOBS:-8}" "${force[@]}" \
  --archive "$archive"
