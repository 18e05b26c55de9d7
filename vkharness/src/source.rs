//! Source programs: a vertex shader compiled from its own GLSL (not a
//! translation), run with a real vertex input state, uniform and storage
//! buffers in any descriptor set and push constants. The source-level
//! oracle (`shaderlift oracle`) runs the GLSL a corpus entry was compiled
//! from this way and compares what it writes with the interpreter's exports
//! of the driver's machine code.

use crate::common::{entry_name, record_draw, DrawState};
use crate::device::Harness;
use crate::program::RunResources;
use crate::{vkr, HarnessError};
use ash::vk;
use naga::{AddressSpace, ShaderStage};
use std::collections::BTreeMap;

/// A vertex attribute format by its Vulkan name (`R32G32B32A32_SFLOAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexFormat {
    raw: vk::Format,
    /// Bytes of one element.
    pub bytes: u32,
}

/// The attribute formats the harness accepts: (Vulkan name, format, bytes).
const FORMATS: &[(&str, vk::Format, u32)] = &[
    ("R32_SFLOAT", vk::Format::R32_SFLOAT, 4),
    ("R32G32_SFLOAT", vk::Format::R32G32_SFLOAT, 8),
    ("R32G32B32_SFLOAT", vk::Format::R32G32B32_SFLOAT, 12),
    ("R32G32B32A32_SFLOAT", vk::Format::R32G32B32A32_SFLOAT, 16),
    ("R32_UINT", vk::Format::R32_UINT, 4),
    ("R32G32_UINT", vk::Format::R32G32_UINT, 8),
    ("R32G32B32_UINT", vk::Format::R32G32B32_UINT, 12),
    ("R32G32B32A32_UINT", vk::Format::R32G32B32A32_UINT, 16),
    ("R32_SINT", vk::Format::R32_SINT, 4),
    ("R32G32_SINT", vk::Format::R32G32_SINT, 8),
    ("R32G32B32_SINT", vk::Format::R32G32B32_SINT, 12),
    ("R32G32B32A32_SINT", vk::Format::R32G32B32A32_SINT, 16),
    ("R16G16_SFLOAT", vk::Format::R16G16_SFLOAT, 4),
    ("R16G16B16A16_SFLOAT", vk::Format::R16G16B16A16_SFLOAT, 8),
    ("R16G16B16A16_SINT", vk::Format::R16G16B16A16_SINT, 8),
    ("R16G16B16A16_UINT", vk::Format::R16G16B16A16_UINT, 8),
    ("R8G8B8A8_UNORM", vk::Format::R8G8B8A8_UNORM, 4),
    ("R8G8B8A8_SNORM", vk::Format::R8G8B8A8_SNORM, 4),
    ("R8G8B8A8_UINT", vk::Format::R8G8B8A8_UINT, 4),
    ("R8G8B8A8_SINT", vk::Format::R8G8B8A8_SINT, 4),
    (
        "A2B10G10R10_SNORM_PACK32",
        vk::Format::A2B10G10R10_SNORM_PACK32,
        4,
    ),
    (
        "A2B10G10R10_UNORM_PACK32",
        vk::Format::A2B10G10R10_UNORM_PACK32,
        4,
    ),
];

impl VertexFormat {
    /// The format of this Vulkan name (without `VK_FORMAT_`), if the harness
    /// knows it.
    pub fn from_name(name: &str) -> Option<VertexFormat> {
        FORMATS
            .iter()
            .find(|(n, ..)| *n == name)
            .map(|&(_, raw, bytes)| VertexFormat { raw, bytes })
    }

    /// The Vulkan name.
    pub fn name(&self) -> &'static str {
        FORMATS
            .iter()
            .find(|(_, f, _)| *f == self.raw)
            .map(|(n, ..)| *n)
            .unwrap_or("?")
    }
}

/// One vertex-buffer binding of the vertex input state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexBindingDesc {
    /// The binding number.
    pub binding: u32,
    /// Bytes from one record to the next.
    pub stride: u32,
    /// Advance per instance (else per vertex).
    pub per_instance: bool,
}

/// One vertex attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexAttributeDesc {
    /// The shader input location.
    pub location: u32,
    /// The vertex-buffer binding it reads.
    pub binding: u32,
    /// Its format.
    pub format: VertexFormat,
    /// Byte offset in the record.
    pub offset: u32,
}

/// What a descriptor binding holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DescriptorKind {
    /// A uniform buffer.
    Uniform,
    /// A storage buffer.
    Storage,
}

/// One descriptor binding of a source program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DescriptorDesc {
    /// The descriptor set.
    pub set: u32,
    /// The binding in that set.
    pub binding: u32,
    /// What it holds.
    pub kind: DescriptorKind,
}

/// The interface of a source program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceInterface {
    /// The vertex entry point's name.
    pub entry_point: String,
    /// The vertex-buffer bindings.
    pub vertex_bindings: Vec<VertexBindingDesc>,
    /// The vertex attributes.
    pub vertex_attributes: Vec<VertexAttributeDesc>,
    /// Every buffer descriptor the module may use (at most
    /// [`MAX_SETS`] sets).
    pub descriptors: Vec<DescriptorDesc>,
    /// The push-constant range (offset 0), in bytes; 0 for none.
    pub push_constant_bytes: u32,
}

/// The most descriptor sets a source program may use.
pub const MAX_SETS: u32 = 8;

/// The bytes of one vertex buffer of a run.
#[derive(Debug, Clone, Copy)]
pub struct VertexBuffer<'a> {
    /// The binding number.
    pub binding: u32,
    /// Its bytes (bound at offset 0).
    pub bytes: &'a [u8],
}

/// One descriptor's buffer of a run.
#[derive(Debug, Clone, Copy)]
pub struct DescriptorBuffer<'a> {
    /// Set and binding.
    pub set: u32,
    /// The binding in the set.
    pub binding: u32,
    /// The first bytes; the rest up to `size` are zero.
    pub bytes: &'a [u8],
    /// The buffer size in bytes (at least `bytes.len()`).
    pub size: u64,
    /// Copy it back after the run.
    pub read_back: bool,
}

/// The descriptor buffers a run read back, by (set, binding).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceOutput {
    buffers: BTreeMap<(u32, u32), Vec<u8>>,
}

impl SourceOutput {
    /// The bytes of the buffer at `set`/`binding`, if it was read back.
    pub fn buffer(&self, set: u32, binding: u32) -> Option<&[u8]> {
        self.buffers.get(&(set, binding)).map(Vec::as_slice)
    }
}

/// A compiled source program: its pipeline, layouts and interface.
pub struct SourceProgram<'h> {
    h: &'h Harness,
    pipeline: vk::Pipeline,
    layout: vk::PipelineLayout,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    interface: SourceInterface,
}

/// Check a source module: SPIR-V ≤ 1.3, capabilities, naga parse and
/// validation, a vertex entry point, buffers only at declared descriptors
/// of the declared kind, a push block within range, and every input
/// location fed by an attribute.
fn check_source_module(
    words: &[u32],
    interface: &SourceInterface,
    push_bytes: u32,
    capabilities: &[u32],
) -> Result<(), HarnessError> {
    let bad = |s: String| Err(HarnessError::Shader(s));
    crate::check::check_header_and_capabilities(words, capabilities)?;
    let module = crate::check::parse_and_validate(words)?;
    let Some(ep) = module
        .entry_points
        .iter()
        .find(|ep| ep.stage == ShaderStage::Vertex && ep.name == interface.entry_point)
    else {
        return bad(format!(
            "no vertex entry point named `{}`",
            interface.entry_point
        ));
    };
    let has = |set: u32, binding: u32, kind: DescriptorKind| {
        interface
            .descriptors
            .iter()
            .any(|d| d.set == set && d.binding == binding && d.kind == kind)
    };
    for (_, var) in module.global_variables.iter() {
        let name = var.name.as_deref().unwrap_or("(unnamed)");
        let kind = match var.space {
            AddressSpace::Storage { .. } => DescriptorKind::Storage,
            AddressSpace::Uniform => DescriptorKind::Uniform,
            AddressSpace::Immediate => {
                let size = module.types[var.ty].inner.size(module.to_ctx());
                if size > push_bytes {
                    return bad(format!(
                        "push-constant block `{name}` is {size} bytes; the interface has {push_bytes}"
                    ));
                }
                continue;
            }
            AddressSpace::Private | AddressSpace::Function => continue,
            other => {
                return bad(format!(
                    "global `{name}` in address space {other:?}: only uniform and storage buffers and push constants can be bound"
                ))
            }
        };
        match &var.binding {
            Some(rb) if has(rb.group, rb.binding, kind) => {}
            Some(rb) => {
                return bad(format!(
                    "{kind:?} buffer `{name}` at set {} binding {} is not in the interface",
                    rb.group, rb.binding
                ))
            }
            None => return bad(format!("buffer `{name}` has no binding")),
        }
    }
    let fed = |loc: u32| {
        interface
            .vertex_attributes
            .iter()
            .any(|a| a.location == loc)
    };
    for arg in &ep.function.arguments {
        let mut locations = Vec::new();
        match &arg.binding {
            Some(naga::Binding::Location { location, .. }) => locations.push(*location),
            Some(_) => {}
            None => {
                if let naga::TypeInner::Struct { members, .. } = &module.types[arg.ty].inner {
                    for m in members {
                        if let Some(naga::Binding::Location { location, .. }) = &m.binding {
                            locations.push(*location);
                        }
                    }
                }
            }
        }
        for loc in locations {
            if !fed(loc) {
                return bad(format!(
                    "vertex input location {loc} has no attribute in the vertex input state"
                ));
            }
        }
    }
    Ok(())
}

impl Harness {
    /// Compile `spirv` (a vertex shader compiled from source) into a
    /// program with `interface`: a pipeline with that vertex input state,
    /// one descriptor-set layout per set `0..=max set` (buffers at the
    /// declared bindings, empty sets between them) and the push range.
    pub fn source_program(
        &self,
        spirv: &[u32],
        interface: &SourceInterface,
    ) -> Result<SourceProgram<'_>, HarnessError> {
        self.check_poison()?;
        let input = |s: String| Err(HarnessError::Input(s));
        let push_bytes = self.push_range(interface.push_constant_bytes)?;
        let mut seen = std::collections::BTreeSet::new();
        for d in &interface.descriptors {
            if d.set >= MAX_SETS {
                return input(format!("descriptor set {} (at most {MAX_SETS})", d.set));
            }
            if !seen.insert((d.set, d.binding)) {
                return input(format!("set {} binding {} given twice", d.set, d.binding));
            }
        }
        let per_stage = interface.descriptors.len() as u64;
        if per_stage > u64::from(self.limits.max_storage_buffers) {
            return input(format!("{per_stage} buffer descriptors: too many"));
        }
        let mut vb = std::collections::BTreeSet::new();
        for b in &interface.vertex_bindings {
            if !vb.insert(b.binding) || b.binding >= 16 || b.stride > 2048 {
                return input(format!(
                    "vertex binding {} (stride {}): repeated, >= 16 or stride > 2048",
                    b.binding, b.stride
                ));
            }
        }
        let mut locs = std::collections::BTreeSet::new();
        for a in &interface.vertex_attributes {
            if !vb.contains(&a.binding) || !locs.insert(a.location) || a.location >= 16 {
                return input(format!(
                    "attribute at location {} (binding {}): unknown binding, repeated or >= 16",
                    a.location, a.binding
                ));
            }
            if a.offset > 2047 {
                return input(format!("attribute offset {} > 2047", a.offset));
            }
            // SAFETY: `pd` is the harness's physical device; a format query
            // has no other precondition.
            let props = unsafe {
                self.instance
                    .get_physical_device_format_properties(self.physical, a.format.raw)
            };
            if !props
                .buffer_features
                .contains(vk::FormatFeatureFlags::VERTEX_BUFFER)
            {
                return Err(HarnessError::Unsupported {
                    device: self.device_info().name.clone(),
                    what: format!("vertex format {}", a.format.name()),
                });
            }
        }
        let entry = entry_name(&interface.entry_point)?;
        check_source_module(spirv, interface, push_bytes, &self.capabilities)?;

        let mut program = SourceProgram {
            h: self,
            pipeline: vk::Pipeline::null(),
            layout: vk::PipelineLayout::null(),
            set_layouts: Vec::new(),
            interface: interface.clone(),
        };
        let sets = interface
            .descriptors
            .iter()
            .map(|d| d.set + 1)
            .max()
            .unwrap_or(0);
        for set in 0..sets {
            let decls: Vec<vk::DescriptorSetLayoutBinding> = interface
                .descriptors
                .iter()
                .filter(|d| d.set == set)
                .map(|d| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(d.binding)
                        .descriptor_type(descriptor_type(d.kind))
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::VERTEX)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&decls);
            // SAFETY: distinct binding numbers (checked above) of buffer
            // types, within the per-stage limit.
            let l = vkr("vkCreateDescriptorSetLayout", unsafe {
                self.device.create_descriptor_set_layout(&info, None)
            })?;
            program.set_layouts.push(l);
        }
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::VERTEX)
            .offset(0)
            .size(push_bytes)];
        let mut pinfo = vk::PipelineLayoutCreateInfo::default().set_layouts(&program.set_layouts);
        if push_bytes > 0 {
            pinfo = pinfo.push_constant_ranges(&ranges);
        }
        // SAFETY: the set layouts are live; the push range is a nonzero
        // multiple of 4 within maxPushConstantsSize.
        program.layout = vkr("vkCreatePipelineLayout", unsafe {
            self.device.create_pipeline_layout(&pinfo, None)
        })?;

        let vbindings: Vec<vk::VertexInputBindingDescription> = interface
            .vertex_bindings
            .iter()
            .map(|b| vk::VertexInputBindingDescription {
                binding: b.binding,
                stride: b.stride,
                input_rate: if b.per_instance {
                    vk::VertexInputRate::INSTANCE
                } else {
                    vk::VertexInputRate::VERTEX
                },
            })
            .collect();
        let vattrs: Vec<vk::VertexInputAttributeDescription> = interface
            .vertex_attributes
            .iter()
            .map(|a| vk::VertexInputAttributeDescription {
                location: a.location,
                binding: a.binding,
                format: a.format.raw,
                offset: a.offset,
            })
            .collect();
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
            .vertex_binding_descriptions(&vbindings)
            .vertex_attribute_descriptions(&vattrs);
        program.pipeline = self.vertex_pipeline(spirv, &entry, &vertex_input, program.layout)?;
        Ok(program)
    }
}

fn descriptor_type(k: DescriptorKind) -> vk::DescriptorType {
    match k {
        DescriptorKind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorKind::Storage => vk::DescriptorType::STORAGE_BUFFER,
    }
}

impl Drop for SourceProgram<'_> {
    fn drop(&mut self) {
        if self.h.check_poison().is_err() {
            return; // the device may still use them: leak
        }
        // SAFETY: runs wait for their fence, so nothing pending uses the
        // pipeline or its layouts; null handles are allowed.
        unsafe {
            self.h.device.destroy_pipeline(self.pipeline, None);
            self.h.device.destroy_pipeline_layout(self.layout, None);
            for &l in &self.set_layouts {
                self.h.device.destroy_descriptor_set_layout(l, None);
            }
        }
    }
}

impl SourceProgram<'_> {
    /// Run one draw with these vertex buffers (exactly one per binding of
    /// the vertex input state), descriptor buffers (exactly one per
    /// descriptor of the interface) and push constants, and return the
    /// descriptor buffers marked `read_back`.
    pub fn run(
        &self,
        draw: &crate::DrawCall,
        vertex: &[VertexBuffer<'_>],
        descriptors: &[DescriptorBuffer<'_>],
        push: &[u8],
    ) -> Result<SourceOutput, HarnessError> {
        let h = self.h;
        h.check_poison()?;
        let input = |s: String| Err(HarnessError::Input(s));
        for b in &self.interface.vertex_bindings {
            if vertex.iter().filter(|v| v.binding == b.binding).count() != 1 {
                return input(format!("vertex binding {} needs one buffer", b.binding));
            }
        }
        if vertex.len() != self.interface.vertex_bindings.len() {
            return input("a vertex buffer for a binding the state does not have".into());
        }
        for d in &self.interface.descriptors {
            if descriptors
                .iter()
                .filter(|b| b.set == d.set && b.binding == d.binding)
                .count()
                != 1
            {
                return input(format!(
                    "set {} binding {} needs one buffer",
                    d.set, d.binding
                ));
            }
        }
        if descriptors.len() != self.interface.descriptors.len() {
            return input("a buffer for a descriptor the program does not have".into());
        }
        for b in descriptors {
            if b.bytes.len() as u64 > b.size
                || b.size > u64::from(h.limits.max_storage_buffer_range)
            {
                return input(format!(
                    "set {} binding {}: {} bytes for a {}-byte buffer (device range {})",
                    b.set,
                    b.binding,
                    b.bytes.len(),
                    b.size,
                    h.limits.max_storage_buffer_range
                ));
            }
        }
        for v in vertex {
            if v.bytes.len() as u64 > u64::from(h.limits.max_storage_buffer_range) {
                return input(format!("vertex binding {}: too many bytes", v.binding));
            }
        }
        let push_bytes = self
            .interface
            .push_constant_bytes
            .next_multiple_of(4)
            .min(h.limits.max_push_constants_size);
        if push.len() as u64 > u64::from(push_bytes) {
            return input(format!(
                "{} bytes of push constants; the program has {push_bytes}",
                push.len()
            ));
        }

        let mut res = RunResources::new(h, vertex.len() + descriptors.len());
        for v in vertex {
            res.add_buffer_for(
                v.bytes,
                v.bytes.len() as u64,
                vk::BufferUsageFlags::VERTEX_BUFFER,
            )?;
        }
        let kind_of = |b: &DescriptorBuffer<'_>| {
            self.interface
                .descriptors
                .iter()
                .find(|d| d.set == b.set && d.binding == b.binding)
                .map(|d| d.kind)
                .unwrap_or(DescriptorKind::Storage)
        };
        for b in descriptors {
            let usage = match kind_of(b) {
                DescriptorKind::Uniform => vk::BufferUsageFlags::UNIFORM_BUFFER,
                DescriptorKind::Storage => vk::BufferUsageFlags::STORAGE_BUFFER,
            };
            res.add_buffer_for(b.bytes, b.size, usage)?;
        }
        let n_uniform = descriptors
            .iter()
            .filter(|b| kind_of(b) == DescriptorKind::Uniform)
            .count() as u32;
        let n_storage = descriptors.len() as u32 - n_uniform;
        let sizes = [
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::UNIFORM_BUFFER)
                .descriptor_count(n_uniform.max(1)),
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(n_storage.max(1)),
        ];
        let sets = res.allocate_sets(
            (self.set_layouts.len() as u32).max(1),
            &sizes,
            &self.set_layouts,
        )?;
        let first_desc = vertex.len();
        res.write_descriptors(
            first_desc,
            descriptors
                .iter()
                .map(|b| (sets[b.set as usize], b.binding, descriptor_type(kind_of(b)))),
        );
        let mut pushed = push.to_vec();
        pushed.resize(push_bytes as usize, 0);
        let vbufs: Vec<(u32, vk::Buffer)> = vertex
            .iter()
            .zip(&res.buffers[..first_desc])
            .map(|(v, b)| (v.binding, b.0))
            .collect();
        let state = DrawState {
            extent: (1, 1),
            pipeline: self.pipeline,
            layout: self.layout,
            sets: &sets,
            vertex_buffers: &vbufs,
            push_stages: vk::ShaderStageFlags::VERTEX,
            push: &pushed,
        };
        let copies = res.submit_and_read(
            vk::PipelineStageFlags::VERTEX_SHADER,
            vertex
                .iter()
                .map(|_| false)
                .chain(descriptors.iter().map(|b| b.read_back)),
            |dev, cmd| record_draw(h, dev, cmd, &state, draw),
        )?;
        let mut out = SourceOutput::default();
        for (b, copy) in descriptors
            .iter()
            .zip(&mut copies.into_iter().skip(first_desc))
        {
            if let Some(bytes) = copy {
                out.buffers.insert((b.set, b.binding), bytes);
            }
        }
        Ok(out)
    }
}
