//! The ELF capture forms: shaderlift's own single-file form (an AMDGPU
//! ELF with the code in `.text` and the metadata JSON in
//! `.shaderlift.meta`), and plain AMDGPU code objects as `llvm-mc` makes
//! them.
//!
//! ELF constants used here (checked against `llvm-readelf-19 -h` on objects
//! made by `llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=...`):
//! `e_machine` EM_AMDGPU = 224, OS/ABI AMDGPU HSA = 64, and the low byte of
//! `e_flags` is EF_AMDGPU_MACH: gfx1010 = 0x33, gfx1013 = 0x42,
//! gfx1030 = 0x36.

use crate::error::CaptureError;
use crate::meta::Meta;
use isa::Target;
use object::elf;
use object::read::elf::{ElfFile64, FileHeader};
use object::write::elf::{FileHeader as WFileHeader, SectionHeader as WSectionHeader, Writer};
use object::{Endianness, LittleEndian, Object, ObjectSection, SectionFlags};
use std::path::Path;

/// Name of the section holding the metadata JSON.
pub const META_SECTION: &str = ".shaderlift.meta";

/// `ELFOSABI_AMDGPU_HSA`.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// The ABI version `llvm-mc-19` writes for HSA objects (code object v5).
pub const ELFABIVERSION_AMDGPU_HSA_V5: u8 = 3;
/// Mask of the `EF_AMDGPU_MACH` field of `e_flags`.
pub const EF_AMDGPU_MACH: u32 = 0xff;

/// The `EF_AMDGPU_MACH` value of a target.
pub fn mach_of(target: Target) -> u32 {
    match target {
        Target::Gfx1010 => 0x33,
        Target::Gfx1013 => 0x42,
        Target::Gfx1030 => 0x36,
    }
}

/// The target of an `EF_AMDGPU_MACH` value, if it is one this crate decodes.
pub fn target_of_mach(mach: u32) -> Option<Target> {
    Target::ALL.into_iter().find(|&t| mach_of(t) == mach)
}

/// LLVM's name for an `EF_AMDGPU_MACH` value in the gfx10 range (for error
/// messages).
pub fn mach_name(mach: u32) -> &'static str {
    match mach {
        0 => "none",
        0x33 => "gfx1010",
        0x34 => "gfx1011",
        0x35 => "gfx1012",
        0x42 => "gfx1013",
        0x36 => "gfx1030",
        0x37 => "gfx1031",
        0x38 => "gfx1032",
        0x39 => "gfx1033",
        0x3e => "gfx1034",
        0x3d => "gfx1035",
        0x45 => "gfx1036",
        _ => "unknown",
    }
}

/// What an AMDGPU ELF file holds.
pub(crate) struct ElfContents {
    pub code: Vec<u8>,
    /// The parsed `.shaderlift.meta`, if the file has one.
    pub meta: Option<Meta>,
    pub e_flags: u32,
}

/// True if `data` starts with the ELF magic.
pub(crate) fn is_elf(data: &[u8]) -> bool {
    data.starts_with(b"\x7fELF")
}

/// Read an AMDGPU ELF file (either form). Never panics on any input.
pub(crate) fn read(path: &Path, data: &[u8]) -> Result<ElfContents, CaptureError> {
    let bad = |message: String| CaptureError::BadElf {
        path: path.to_path_buf(),
        message,
    };
    let not_amdgpu = |message: String| CaptureError::NotAmdgpu {
        path: path.to_path_buf(),
        message,
    };
    if data.len() < 64 {
        return Err(bad(format!(
            "file is {} bytes, shorter than the 64-byte ELF64 header",
            data.len()
        )));
    }
    match data[4] {
        elf::ELFCLASS64 => {}
        elf::ELFCLASS32 => return Err(not_amdgpu("ELF32 file; AMDGPU code is ELF64".into())),
        c => return Err(bad(format!("offset 0x4: unknown ELF class byte {c:#04x}"))),
    }
    match data[5] {
        elf::ELFDATA2LSB => {}
        elf::ELFDATA2MSB => {
            return Err(not_amdgpu(
                "big-endian ELF file; AMDGPU code is little-endian".into(),
            ))
        }
        d => {
            return Err(bad(format!(
                "offset 0x5: unknown ELF data-encoding byte {d:#04x}"
            )))
        }
    }
    let file = ElfFile64::<LittleEndian>::parse(data).map_err(|e| bad(e.to_string()))?;
    let header = file.elf_header();
    let machine = header.e_machine(LittleEndian);
    if machine != elf::EM_AMDGPU {
        return Err(not_amdgpu(format!(
            "e_machine is {machine}, expected EM_AMDGPU ({})",
            elf::EM_AMDGPU
        )));
    }
    let e_flags = header.e_flags(LittleEndian);

    let section_bytes = |name: &str| -> Result<Option<&[u8]>, CaptureError> {
        let Some(section) = file.section_by_name(name) else {
            return Ok(None);
        };
        if let SectionFlags::Elf { sh_flags } = section.flags() {
            if sh_flags & u64::from(elf::SHF_COMPRESSED) != 0 {
                return Err(bad(format!(
                    "section {name} is compressed; this is not supported"
                )));
            }
        }
        section
            .data()
            .map(Some)
            .map_err(|e| bad(format!("section {name}: {e}")))
    };

    let code = match section_bytes(".text")? {
        Some(c) => c.to_vec(),
        None => {
            return Err(not_amdgpu(
                "it has no .text section (the shader code goes there)".into(),
            ))
        }
    };
    let meta = match section_bytes(META_SECTION)? {
        Some(json) => Some(
            serde_json::from_slice::<Meta>(json)
                .map_err(|e| CaptureError::json(path, format!("section {META_SECTION}"), &e))?,
        ),
        None => None,
    };
    Ok(ElfContents {
        code,
        meta,
        e_flags,
    })
}

/// Build the single-file ELF form: `.text` = `code`, `.shaderlift.meta` =
/// `meta` as JSON, `e_machine` EM_AMDGPU, `e_flags` the target's
/// EF_AMDGPU_MACH, so that `llvm-objdump-19 -d` disassembles it.
pub(crate) fn write(code: &[u8], meta: &Meta) -> Result<Vec<u8>, CaptureError> {
    let json = meta.to_json();
    let mut out = Vec::with_capacity(code.len() + json.len() + 512);
    let mut w = Writer::new(Endianness::Little, true, &mut out);

    w.reserve_file_header();
    let text_name = w.add_section_name(b".text");
    let meta_name = w.add_section_name(META_SECTION.as_bytes());
    w.reserve_null_section_index();
    w.reserve_section_index();
    w.reserve_section_index();
    w.reserve_shstrtab_section_index();
    let text_offset = w.reserve(code.len(), 16);
    let meta_offset = w.reserve(json.len(), 1);
    w.reserve_shstrtab();
    w.reserve_section_headers();

    w.write_file_header(&WFileHeader {
        os_abi: ELFOSABI_AMDGPU_HSA,
        abi_version: ELFABIVERSION_AMDGPU_HSA_V5,
        e_type: elf::ET_REL,
        e_machine: elf::EM_AMDGPU,
        e_entry: 0,
        e_flags: mach_of(meta.target),
    })
    .map_err(|e| CaptureError::Write {
        path: "<memory>".into(),
        message: e.to_string(),
    })?;
    w.write_align(16);
    w.write(code);
    w.write(json.as_bytes());
    w.write_shstrtab();

    w.write_null_section_header();
    w.write_section_header(&WSectionHeader {
        name: Some(text_name),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: u64::from(elf::SHF_ALLOC | elf::SHF_EXECINSTR),
        sh_addr: 0,
        sh_offset: text_offset as u64,
        sh_size: code.len() as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: 16,
        sh_entsize: 0,
    });
    w.write_section_header(&WSectionHeader {
        name: Some(meta_name),
        sh_type: elf::SHT_PROGBITS,
        sh_flags: 0,
        sh_addr: 0,
        sh_offset: meta_offset as u64,
        sh_size: json.len() as u64,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: 1,
        sh_entsize: 0,
    });
    w.write_shstrtab_section_header();
    debug_assert_eq!(w.reserved_len(), w.len());
    Ok(out)
}
