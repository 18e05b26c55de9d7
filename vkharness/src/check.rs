//! The gate before the driver: a SPIR-V module must parse and validate with
//! naga, and its resources must match the pipeline layout the harness makes.

use crate::HarnessError;
use naga::{AddressSpace, ShaderStage};

/// The highest SPIR-V version a Vulkan 1.1 device accepts.
const MAX_SPIRV_VERSION: u32 = 0x0001_0300;

/// Check `words` as a vertex program with entry point `entry`, storage
/// buffers only at `bindings` of set 0 and at most `push_bytes` of push
/// constants.
pub(crate) fn check_module(
    words: &[u32],
    entry: &str,
    bindings: &[u32],
    push_bytes: u32,
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
    if !module
        .entry_points
        .iter()
        .any(|ep| ep.stage == ShaderStage::Vertex && ep.name == entry)
    {
        return bad(format!("no vertex entry point named `{entry}`"));
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
            other => {
                return bad(format!(
                    "global `{name}` in address space {other:?}: only storage buffers and push constants can be bound"
                ))
            }
        }
    }
    Ok(())
}
