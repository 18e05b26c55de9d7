#!/bin/sh
# Assemble the loop and undefined-register fixtures (loop-*/code.s, undef-*/code.s) into their code.bin: the .text
# bytes of llvm-mc-19's object. Run from this directory (the fixtures
# .include its loop-entry.inc and loop-store.inc).
set -e
for d in loop-*/ undef-*/; do
  llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -mattr=+wavefrontsize64 -I . -filetype=obj "$d/code.s" -o "$d/code.o"
  llvm-objcopy-19 -O binary --only-section=.text "$d/code.o" "$d/code.bin"
  rm "$d/code.o"
done
