//! Guest memory as the interpreter reads it, and the workgroup's LDS.

/// Guest GPU memory: drawbind's trait, so the oracle reads exactly the
/// memory the bind rules read. Addresses are 48-bit GPU virtual addresses
/// (the interpreter truncates the 64-bit pointers a shader forms to 48
/// bits before asking, as drawbind does).
pub use drawbind::GuestMemory;

/// Mask of a 48-bit address.
pub const ADDR_MASK: u64 = (1 << 48) - 1;

/// Read `out.len()` bytes at `addr`, dword by dword; false when any byte is
/// unmapped.
pub(crate) fn read_bytes(mem: &dyn GuestMemory, addr: u64, out: &mut [u8]) -> bool {
    let mut i = 0usize;
    while i < out.len() {
        let a = (addr + i as u64) & ADDR_MASK;
        let aligned = a & !3;
        let Some(w) = mem.read_u32(aligned) else {
            return false;
        };
        let b = w.to_le_bytes();
        let mut k = (a - aligned) as usize;
        while k < 4 && i < out.len() {
            out[i] = b[k];
            k += 1;
            i += 1;
        }
    }
    true
}

/// Size of a workgroup's local data share: 64 KiB.
pub const LDS_SIZE: usize = 64 * 1024;

/// A workgroup's local data share with per-byte definedness. Accesses past
/// the end read 0 and do not write (the hardware's out-of-range rule).
#[derive(Clone, Debug)]
pub struct Lds {
    bytes: Vec<u8>,
    def: Vec<u64>,
}

impl Default for Lds {
    fn default() -> Self {
        Lds::new()
    }
}

impl Lds {
    /// 64 KiB, every byte undefined.
    pub fn new() -> Lds {
        Lds {
            bytes: vec![0; LDS_SIZE],
            def: vec![0; LDS_SIZE / 64],
        }
    }

    /// Forget every byte (undefined again).
    pub fn clear(&mut self) {
        self.bytes.iter_mut().for_each(|b| *b = 0);
        self.def.iter_mut().for_each(|d| *d = 0);
    }

    /// Read `n` ≤ 16 bytes at `addr`: the little-endian value and the mask
    /// of defined bytes (bit `i` for byte `i`). Out of range: a defined 0.
    pub fn read(&self, addr: u32, n: usize) -> (u128, u16) {
        let a = addr as usize;
        let all = ((1u32 << n) - 1) as u16;
        if a + n > LDS_SIZE {
            return (0, all);
        }
        let mut v = 0u128;
        let mut def = 0u16;
        for i in 0..n {
            v |= (self.bytes[a + i] as u128) << (8 * i);
            let k = a + i;
            if self.def[k / 64] & (1 << (k % 64)) != 0 {
                def |= 1 << i;
            }
        }
        (v, def)
    }

    /// Write the low `n` ≤ 16 bytes of `v` at `addr`; bit `i` of `def` says
    /// byte `i` is defined. Out of range: dropped.
    pub fn write(&mut self, addr: u32, n: usize, v: u128, def: u16) {
        let a = addr as usize;
        if a + n > LDS_SIZE {
            return;
        }
        for i in 0..n {
            let k = a + i;
            self.bytes[k] = (v >> (8 * i)) as u8;
            if def & (1 << i) != 0 {
                self.def[k / 64] |= 1 << (k % 64);
            } else {
                self.def[k / 64] &= !(1 << (k % 64));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lds_bytes_start_undefined_and_out_of_range_reads_are_zero() {
        let mut l = Lds::new();
        assert_eq!(l.read(16, 4), (0, 0));
        l.write(16, 4, 0x1122_3344, 0xf);
        assert_eq!(l.read(16, 4), (0x1122_3344, 0xf));
        assert_eq!(l.read(17, 4), (0x0011_2233, 0b0111), "byte 20 is undefined");
        l.write(LDS_SIZE as u32 - 2, 4, 0xffff_ffff, 0xf);
        assert_eq!(l.read(LDS_SIZE as u32 - 2, 4), (0, 0xf));
    }
}
