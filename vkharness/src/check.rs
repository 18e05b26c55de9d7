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
/// vertex stage.
pub(crate) fn allowed_capabilities(
    features: &ash::vk::PhysicalDeviceFeatures,
    subgroup_vertex_ops: ash::vk::SubgroupFeatureFlags,
) -> Vec<u32> {
    use ash::vk::{SubgroupFeatureFlags as S, TRUE};
    use spirv::Capability as C;
    let mut caps = vec![C::Matrix as u32, C::Shader as u32];
    for (on, cap) in [
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
        if subgroup_vertex_ops.contains(flag) {
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
    push_bytes: u32,
    capabilities: &[u32],
) -> Result<(), HarnessError> {
    check_header_and_capabilities(words, capabilities)?;
    check_interface(stage, words, entry, bindings, push_bytes)
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
    let module = naga::front::spv::parse_u8_slice(&bytes, &naga::front::spv::Options::default())
        .map_err(|e| HarnessError::Shader(format!("naga cannot read the module: {e}")))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| {
        HarnessError::Shader(format!("naga rejects the module: {}", e.emit_to_string("")))
    })?;
    Ok(module)
}

fn check_interface(
    stage: ShaderStage,
    words: &[u32],
    entry: &str,
    bindings: &[u32],
    push_bytes: u32,
) -> Result<(), HarnessError> {
    let bad = |s: String| Err(HarnessError::Shader(s));
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
