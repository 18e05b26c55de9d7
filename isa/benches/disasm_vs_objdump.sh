#!/usr/bin/env bash
# Whole-process comparison: `shaderlift disasm` vs `llvm-objdump-19 -d` on the
# same 1 MiB blob of valid gfx1030 code (every instruction of the LLVM MC-test
# fixture, repeated, as in benches/decode.rs). Prints the median wall time of
# each over N runs, measured interleaved in one run, and their ratio.
#
#   bash isa/benches/disasm_vs_objdump.sh [N]      (default N = 7)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/blob.bin" <<'PY'
import sys
out = bytearray()
insts = []
for line in open("isa/tests/fixtures/llvm-mc-gfx1030.tsv"):
    if line.startswith("#"):
        continue
    hexs, ln, text = line.rstrip("\n").split("\t", 2)
    if text.startswith(".long") or text == "<crash>":
        continue
    insts.append(bytes.fromhex(hexs)[: int(ln)])
while len(out) < 1 << 20:
    for i in insts:
        out += i
        if len(out) >= 1 << 20:
            break
open(sys.argv[1], "wb").write(out)
PY
printf '.text\n.incbin "%s"\n' "$work/blob.bin" > "$work/blob.s"
llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -filetype=obj "$work/blob.s" -o "$work/blob.o"
cargo build --release -q -p shaderlift
sl=target/release/shaderlift

time_us() { # command... -> wall microseconds (bash's clock: no fork around the command)
  local s e
  s=${EPOCHREALTIME/[.,]/}; "$@" > /dev/null; e=${EPOCHREALTIME/[.,]/}
  echo $(( e - s ))
}
ours=(); theirs=()
for _ in $(seq "$n"); do
  ours+=("$(time_us "$sl" disasm --raw --wave 32 "$work/blob.bin")")
  theirs+=("$(time_us llvm-objdump-19 -d --no-show-raw-insn --mcpu=gfx1030 "$work/blob.o")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mo=$(median "${ours[@]}"); mt=$(median "${theirs[@]}")
echo "blob: $(stat -c %s "$work/blob.bin") bytes, $n runs each"
awk -v a="$mo" 'BEGIN { printf "shaderlift disasm:   median %.2f ms\n", a / 1000 }'
awk -v a="$mt" 'BEGIN { printf "llvm-objdump-19 -d:  median %.2f ms\n", a / 1000 }'
awk -v a="$mt" -v b="$mo" 'BEGIN { if (b < 1) b = 1; printf "ratio: %.1fx\n", a / b }'
