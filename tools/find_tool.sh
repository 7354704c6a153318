# Sourced by the learner tools. find_tool NAME: the path of NAME, from the
# variable of its upper-case name if set (CUOBJDUMP=..., NCU=...), else PATH,
# else $CUDA_BIN (the real directory of nvcc, which may not be on PATH);
# prints nothing and returns 1 when none of them has it.
find_tool() {
    local name=$1 var
    var=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
    if [ -n "${!var:-}" ]; then
        [ -x "${!var}" ] && { echo "${!var}"; return 0; }
        return 1
    fi
    command -v "$name" 2>/dev/null && return 0
    if [ -n "${CUDA_BIN:-}" ] && [ -x "$CUDA_BIN/$name" ]; then
        echo "$CUDA_BIN/$name"
        return 0
    fi
    return 1
}
