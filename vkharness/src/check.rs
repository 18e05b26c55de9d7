//! The gate before the driver: a SPIR-V module must parse and validate with
//! naga, and its resources must match the pipeline layout the harness makes.

use crate::HarnessError;
use naga::{AddressSpace, ShaderStage};

/// The highest SPIR-V version a Vulkan 1.1 device accepts.
const MAX_SPIRV_VERSION: u32 = 0x0001_0300;

/// `OpCapability`.
const OP_CAPABILITY: u32 = 17;

/// The SPIR-V capabilities a module may declare on a device: `Matrix` and
/// `Shader` always; `Float64`, `Int64`, `Int16` with the features of the
/// same names; the `GroupNonUniform*` families the device supports in the
/// stage the module is for (`subgroup_ops`); `SampledImageArrayDynamicIndexing`
/// when the harness enabled the feature (`descriptor_arrays`).
pub(crate) fn allowed_capabilities(
    features: &ash::vk::PhysicalDeviceFeatures,
    subgroup_ops: ash::vk::SubgroupFeatureFlags,
    descriptor_arrays: bool,
) -> Vec<u32> {
    use ash::vk::{SubgroupFeatureFlags as S, TRUE};
    use spirv::Capability as C;
    let mut caps = vec![
        C::Matrix as u32,
        C::Shader as u32,
        C::Sampled1D as u32,
        C::Image1D as u32,
        C::ImageQuery as u32,
        C::StorageImageExtendedFormats as u32,
    ];
    if descriptor_arrays {
        caps.push(C::SampledImageArrayDynamicIndexing as u32);
    }
    for (on, cap) in [
        (
            features.shader_storage_image_read_without_format == TRUE,
            C::StorageImageReadWithoutFormat,
        ),
        (
            features.shader_storage_image_write_without_format == TRUE,
            C::StorageImageWriteWithoutFormat,
        ),
        (features.shader_float64 == TRUE, C::Float64),
        (features.shader_int64 == TRUE, C::Int64),
        (features.shader_int16 == TRUE, C::Int16),
    ] {
        if on {
            caps.push(cap as u32);
        }
    }
    for (flag, cap) in [
        (S::BASIC, C::GroupNonUniform),
        (S::VOTE, C::GroupNonUniformVote),
        (S::ARITHMETIC, C::GroupNonUniformArithmetic),
        (S::BALLOT, C::GroupNonUniformBallot),
        (S::SHUFFLE, C::GroupNonUniformShuffle),
        (S::SHUFFLE_RELATIVE, C::GroupNonUniformShuffleRelative),
        (S::CLUSTERED, C::GroupNonUniformClustered),
        (S::QUAD, C::GroupNonUniformQuad),
    ] {
        if subgroup_ops.contains(flag) {
            caps.push(cap as u32);
        }
    }
    caps
}

/// Every capability the module declares must be in `allowed`.
fn check_capabilities(words: &[u32], allowed: &[u32]) -> Result<(), HarnessError> {
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return Err(HarnessError::Shader(format!(
                "word {i}: an instruction of length 0"
            )));
        }
        if words[i] & 0xffff == OP_CAPABILITY && count >= 2 && i + 1 < words.len() {
            let cap = words[i + 1];
            if !allowed.contains(&cap) {
                let name = spirv::Capability::from_u32(cap)
                    .map(|c| format!("{c:?}"))
                    .unwrap_or_else(|| format!("capability {cap}"));
                return Err(HarnessError::Shader(format!(
                    "the module declares {name}, which this device does not offer (or the harness does not enable)"
                )));
            }
        }
        i += count;
    }
    Ok(())
}

/// Check `words` as a program of `stage` (vertex, fragment or compute)
/// with entry point `entry`, storage buffers only at `bindings` of set 0, at
/// most `push_bytes` of push constants and only `capabilities`.
pub(crate) fn check_module_for(
    stage: ShaderStage,
    words: &[u32],
    entry: &str,
    bindings: &[u32],
    images: &[u32],
    push_bytes: u32,
    capabilities: &[u32],
) -> Result<(), HarnessError> {
    check_header_and_capabilities(words, capabilities)?;
    check_interface(stage, words, entry, bindings, images, push_bytes)
}

/// The header (magic, SPIR-V version at most 1.3) and the capabilities.
pub(crate) fn check_header_and_capabilities(
    words: &[u32],
    capabilities: &[u32],
) -> Result<(), HarnessError> {
    let bad = |s: String| Err(HarnessError::Shader(s));
    if words.len() < 5 || words[0] != 0x0723_0203 {
        return bad(format!(
            "not a SPIR-V module (first word {:#010x}, {} words)",
            words.first().copied().unwrap_or(0),
            words.len()
        ));
    }
    if words[1] > MAX_SPIRV_VERSION {
        return bad(format!(
            "SPIR-V version {}.{} is above 1.3 (Vulkan 1.1)",
            (words[1] >> 16) & 0xff,
            (words[1] >> 8) & 0xff
        ));
    }
    check_capabilities(words, capabilities)
}

/// `words` as a naga module that naga's validator accepts.
pub(crate) fn parse_and_validate(words: &[u32]) -> Result<naga::Module, HarnessError> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut module =
        naga::front::spv::parse_u8_slice(&bytes, &naga::front::spv::Options::default())
            .map_err(|e| HarnessError::Shader(format!("naga cannot read the module: {e}")))?;
    // A combined image sampler read through an image and a sampler
    // variable on one binding (Vulkan allows the pair) is a binding
    // collision to naga's validator: validate with each sampler in a group
    // of its own, then put the groups back for the interface check.
    let samplers: Vec<_> = module
        .global_variables
        .iter()
        .filter(|(_, g)| matches!(module.types[g.ty].inner, naga::TypeInner::Sampler { .. }))
        .map(|(h, _)| h)
        .collect();
    let moved = |module: &mut naga::Module, on: bool| {
        for &h in &samplers {
            if let Some(b) = module.global_variables[h].binding.as_mut() {
                if on {
                    b.group = b.group.wrapping_add(0x4000_0000);
                } else {
                    b.group = b.group.wrapping_sub(0x4000_0000);
                }
            }
        }
    };
    moved(&mut module, true);
    let valid = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map(|_| ())
    .map_err(|e| {
        HarnessError::Shader(format!("naga rejects the module: {}", e.emit_to_string("")))
    });
    moved(&mut module, false);
    valid?;
    Ok(module)
}

fn check_interface(
    stage: ShaderStage,
    words: &[u32],
    entry: &str,
    bindings: &[u32],
    images: &[u32],
    push_bytes: u32,
) -> Result<(), HarnessError> {
    let bad = |s: String| Err(HarnessError::Shader(s));
    if declares_sampled_image(words) {
        // naga's SPIR-V reader has no combined image samplers: such a
        // module gets the structural interface check only.
        return check_interface_raw(stage, words, entry, bindings, images, push_bytes);
    }
    let module = parse_and_validate(words)?;
    if !module
        .entry_points
        .iter()
        .any(|ep| ep.stage == stage && ep.name == entry)
    {
        let name = match stage {
            ShaderStage::Vertex => "vertex",
            ShaderStage::Fragment => "fragment",
            ShaderStage::Compute => "compute",
            _ => "other-stage",
        };
        return bad(format!("no {name} entry point named `{entry}`"));
    }
    for (_, var) in module.global_variables.iter() {
        let name = var.name.as_deref().unwrap_or("(unnamed)");
        match var.space {
            AddressSpace::Storage { .. } => match &var.binding {
                Some(rb) if rb.group == 0 && bindings.contains(&rb.binding) => {}
                Some(rb) => {
                    return bad(format!(
                        "storage buffer `{name}` at set {} binding {} is not in the interface (set 0, bindings {bindings:?})",
                        rb.group, rb.binding
                    ))
                }
                None => return bad(format!("storage buffer `{name}` has no binding")),
            },
            AddressSpace::Immediate => {
                let size = module.types[var.ty].inner.size(module.to_ctx());
                if size > push_bytes {
                    return bad(format!(
                        "push-constant block `{name}` is {size} bytes; the interface has {push_bytes}"
                    ));
                }
            }
            // Images and samplers at the image bindings of set 0.
            AddressSpace::Handle => match &var.binding {
                Some(rb) if rb.group == 0 && images.contains(&rb.binding) => {}
                _ => {
                    return bad(format!(
                        "image or sampler `{name}` is not at an image binding of set 0 ({images:?})"
                    ))
                }
            },
            AddressSpace::Private | AddressSpace::Function => {}
            // Shared memory of a compute workgroup (nothing to bind).
            AddressSpace::WorkGroup if stage == ShaderStage::Compute => {}
            other => {
                return bad(format!(
                    "global `{name}` in address space {other:?}: only storage buffers and push constants can be bound"
                ))
            }
        }
    }
    Ok(())
}

/// The instructions of a module: (opcode, operand words).
fn instructions(words: &[u32]) -> impl Iterator<Item = (u32, &[u32])> {
    let mut i = 5;
    std::iter::from_fn(move || {
        let w = *words.get(i)?;
        let n = (w >> 16) as usize;
        if n == 0 || i + n > words.len() {
            return None;
        }
        let ops = &words[i + 1..i + n];
        i += n;
        Some((w & 0xffff, ops))
    })
}

/// Does the module declare `OpTypeSampledImage` (a combined image sampler)?
fn declares_sampled_image(words: &[u32]) -> bool {
    const OP_TYPE_SAMPLED_IMAGE: u32 = 27;
    instructions(words).any(|(op, _)| op == OP_TYPE_SAMPLED_IMAGE)
}

/// The interface check of a module naga cannot read (combined image
/// samplers), from the SPIR-V words: an entry point of `stage` named
/// `entry`; every resource variable in set 0, storage buffers at
/// `bindings`, images, samplers and combined image samplers at `images`;
/// a push-constant block whose members (scalars, vectors, arrays of them
/// with a stride) end within `push_bytes`; nothing else bindable.
fn check_interface_raw(
    stage: ShaderStage,
    words: &[u32],
    entry: &str,
    bindings: &[u32],
    images: &[u32],
    push_bytes: u32,
) -> Result<(), HarnessError> {
    use std::collections::HashMap;
    let bad = |s: String| Err(HarnessError::Shader(s));
    let model = match stage {
        ShaderStage::Vertex => 0,
        ShaderStage::Fragment => 4,
        ShaderStage::Compute => 5,
        _ => return bad("unsupported stage".into()),
    };
    let mut found = false;
    let mut set: HashMap<u32, u32> = HashMap::new();
    let mut binding: HashMap<u32, u32> = HashMap::new();
    let mut pointers: HashMap<u32, u32> = HashMap::new(); // id -> pointee
    let mut vars: Vec<(u32, u32, u32)> = Vec::new(); // (id, type, class)
    let mut sizes: HashMap<u32, u32> = HashMap::new(); // scalar/vector/array sizes
    let mut offsets: HashMap<(u32, u32), u32> = HashMap::new();
    let mut strides: HashMap<u32, u32> = HashMap::new();
    let mut constants: HashMap<u32, u32> = HashMap::new();
    let mut structs: HashMap<u32, Vec<u32>> = HashMap::new();
    for (op, a) in instructions(words) {
        match (op, a) {
            // OpEntryPoint model id name...
            (15, [m, _, name @ ..]) if *m == model => {
                let bytes: Vec<u8> = name.iter().flat_map(|w| w.to_le_bytes()).collect();
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                found |= bytes[..end] == *entry.as_bytes();
            }
            // OpDecorate target DescriptorSet/Binding/ArrayStride n
            (71, [t, 34, n, ..]) => {
                set.insert(*t, *n);
            }
            (71, [t, 33, n, ..]) => {
                binding.insert(*t, *n);
            }
            (71, [t, 6, n, ..]) => {
                strides.insert(*t, *n);
            }
            // OpMemberDecorate struct member Offset n
            (72, [t, m, 35, n, ..]) => {
                offsets.insert((*t, *m), *n);
            }
            // OpTypeInt / OpTypeFloat id width
            (21 | 22, [id, w, ..]) => {
                sizes.insert(*id, w / 8);
            }
            // OpTypeVector id component count
            (23, [id, c, n]) => {
                if let Some(s) = sizes.get(c) {
                    sizes.insert(*id, s * n);
                }
            }
            // OpConstant type id value
            (43, [_, id, v, ..]) => {
                constants.insert(*id, *v);
            }
            // OpTypeArray id element length
            (28, [id, e, len]) => {
                if let (Some(s), Some(n)) = (sizes.get(e), constants.get(len)) {
                    let stride = strides.get(id).copied().unwrap_or(*s);
                    sizes.insert(*id, stride * n);
                }
            }
            // OpTypeStruct id members...
            (30, [id, members @ ..]) => {
                structs.insert(*id, members.to_vec());
            }
            // OpTypePointer id class type
            (32, [id, _, t]) => {
                pointers.insert(*id, *t);
            }
            // OpVariable type id class
            (59, [t, id, class, ..]) => vars.push((*t, *id, *class)),
            _ => {}
        }
    }
    if !found {
        return bad(format!("no entry point named `{entry}` of the stage"));
    }
    for (ty, id, class) in vars {
        let place = (set.get(&id).copied(), binding.get(&id).copied());
        match class {
            // UniformConstant: images, samplers, combined image samplers.
            0 => match place {
                (Some(0), Some(b)) if images.contains(&b) => {}
                _ => {
                    return bad(format!(
                        "image or sampler %{id} at {place:?} is not at an image binding of set 0 ({images:?})"
                    ))
                }
            },
            // Uniform (BufferBlock) and StorageBuffer.
            2 | 12 => match place {
                (Some(0), Some(b)) if bindings.contains(&b) => {}
                _ => {
                    return bad(format!(
                        "storage buffer %{id} at {place:?} is not in the interface (set 0, bindings {bindings:?})"
                    ))
                }
            },
            // PushConstant: the block must end within the range.
            9 => {
                let st = pointers.get(&ty).and_then(|t| structs.get(t).map(|m| (*t, m)));
                let Some((sid, members)) = st else {
                    return bad(format!("push-constant %{id} is not a block"));
                };
                let mut end = 0u32;
                for (k, m) in members.iter().enumerate() {
                    let (Some(off), Some(size)) =
                        (offsets.get(&(sid, k as u32)), sizes.get(m))
                    else {
                        return bad(format!("push-constant %{id}: member {k} has no known size"));
                    };
                    end = end.max(off + size);
                }
                if end > push_bytes {
                    return bad(format!(
                        "push-constant block %{id} is {end} bytes; the interface has {push_bytes}"
                    ));
                }
            }
            // Input, Output, Workgroup (compute), Private, Function.
            1 | 3 | 6 | 7 => {}
            4 if stage == ShaderStage::Compute => {}
            c => return bad(format!("variable %{id} in storage class {c} cannot be bound")),
        }
    }
    Ok(())
}
