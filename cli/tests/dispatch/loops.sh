#!/bin/sh
# Assemble the loop and exec fixtures (loop-*/, exec-raise-*/, wave-loop-*/, undef-*/ code.s; a -w32 directory in wave32) into their code.bin: the .text
# bytes of llvm-mc-19's object. Run from this directory (the fixtures
# .include its loop-entry.inc and loop-store.inc).
set -e
for d in loop-*/ exec-raise-*/ wave-loop-*/ undef-*/; do
  case "$d" in *-w32/) wave=+wavefrontsize32 ;; *) wave=+wavefrontsize64 ;; esac
  llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -mattr=$wave -I . -filetype=obj "$d/code.s" -o "$d/code.o"
  llvm-objcopy-19 -O binary --only-section=.text "$d/code.o" "$d/code.bin"
  rm "$d/code.o"
done
