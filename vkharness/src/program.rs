//! Vertex programs (one pipeline each) and their runs.

use crate::check::check_module;
use crate::device::{Harness, Layout};
use crate::{vkr, HarnessError};
use ash::vk;
use std::ffi::CString;

/// How long a run may take before the device is abandoned.
pub(crate) const RUN_TIMEOUT_SECONDS: u64 = 120;

/// The resource interface of a vertex program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interface {
    /// The vertex entry point's name (usually `main`).
    pub entry_point: String,
    /// The storage-buffer bindings of descriptor set 0, distinct.
    pub bindings: Vec<u32>,
    /// The push-constant range (offset 0), in bytes; 0 for none. Rounded up
    /// to a multiple of 4.
    pub push_constant_bytes: u32,
}

/// One storage buffer of a run.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The binding number in set 0.
    pub binding: u32,
    /// The buffer's first bytes; the rest up to `size` are zero.
    pub bytes: &'a [u8],
    /// The buffer size in bytes (at least `bytes.len()`). The device
    /// buffer is this rounded up to a multiple of 4, and at least 4 bytes
    /// (Vulkan has no empty buffers).
    pub size: u64,
    /// Copy the buffer back after the run.
    pub read_back: bool,
}

impl<'a> Binding<'a> {
    /// A buffer holding exactly `bytes`, not read back.
    pub fn input(binding: u32, bytes: &'a [u8]) -> Binding<'a> {
        Binding {
            binding,
            bytes,
            size: bytes.len() as u64,
            read_back: false,
        }
    }

    /// A zeroed buffer of `size` bytes, read back.
    pub fn output(binding: u32, size: u64) -> Binding<'static> {
        Binding {
            binding,
            bytes: &[],
            size,
            read_back: true,
        }
    }
}

/// The draw: `vkCmdDraw`'s arguments. `gl_VertexIndex` runs from
/// `first_vertex` and `gl_InstanceIndex` from `first_instance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawCall {
    /// Vertices per instance.
    pub vertex_count: u32,
    /// Instances.
    pub instance_count: u32,
    /// The first vertex index.
    pub first_vertex: u32,
    /// The first instance index.
    pub first_instance: u32,
}

/// The buffers a run read back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RunOutput {
    pub(crate) buffers: Vec<(u32, Vec<u8>)>,
}

impl RunOutput {
    /// The bytes of the buffer at `binding`, if it was read back. Its
    /// length is the size asked for (not the rounded device size).
    pub fn buffer(&self, binding: u32) -> Option<&[u8]> {
        self.buffers
            .iter()
            .find(|(b, _)| *b == binding)
            .map(|(_, v)| v.as_slice())
    }
}

/// A compiled vertex program: its pipeline and interface. Runs any number
/// of draws; borrows the harness, so it cannot outlive the device.
pub struct VertexProgram<'h> {
    h: &'h Harness,
    pipeline: vk::Pipeline,
    layout: Layout,
    bindings: Vec<u32>,
    push_bytes: u32,
}

impl Harness {
    /// Compile `spirv` (a vertex shader) into a program with `interface`.
    ///
    /// The module must parse and validate with naga, declare a vertex entry
    /// point named `interface.entry_point`, and bind nothing but storage
    /// buffers at `interface.bindings` of set 0 and a push-constant block
    /// no larger than `interface.push_constant_bytes`.
    pub fn program(
        &self,
        spirv: &[u32],
        interface: &Interface,
    ) -> Result<VertexProgram<'_>, HarnessError> {
        self.check_poison()?;
        let mut bindings = interface.bindings.clone();
        bindings.sort_unstable();
        bindings.dedup();
        if bindings.len() != interface.bindings.len() {
            return Err(HarnessError::Input(format!(
                "repeated binding numbers in {:?}",
                interface.bindings
            )));
        }
        if bindings.len() as u64 > u64::from(self.limits.max_storage_buffers) {
            return Err(HarnessError::Input(format!(
                "{} storage buffers; the device allows {} per stage",
                bindings.len(),
                self.limits.max_storage_buffers
            )));
        }
        let push_bytes = interface
            .push_constant_bytes
            .checked_next_multiple_of(4)
            .filter(|&p| p <= self.limits.max_push_constants_size)
            .ok_or_else(|| {
                HarnessError::Input(format!(
                    "{} bytes of push constants; the device allows {}",
                    interface.push_constant_bytes, self.limits.max_push_constants_size
                ))
            })?;
        let entry = CString::new(interface.entry_point.as_str()).map_err(|_| {
            HarnessError::Input(format!(
                "entry point name {:?} contains NUL",
                interface.entry_point
            ))
        })?;
        check_module(
            spirv,
            &interface.entry_point,
            naga::ShaderStage::Vertex,
            &bindings,
            push_bytes,
            &self.capabilities,
        )?;
        let layout = self.layout(&bindings, push_bytes)?;

        let minfo = vk::ShaderModuleCreateInfo::default().code(spirv);
        // SAFETY: `spirv` is a SPIR-V 1.0..=1.3 module that naga parsed and
        // validated, whose resources match `layout`.
        let module = vkr("vkCreateShaderModule", unsafe {
            self.device.create_shader_module(&minfo, None)
        })?;
        let stages = [vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(module)
            .name(&entry)];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::POINT_LIST);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .rasterizer_discard_enable(true)
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0);
        let info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&assembly)
            .rasterization_state(&raster)
            .layout(layout.pipeline)
            .render_pass(self.render_pass)
            .subpass(0);
        // SAFETY: every pointed-to state lives across the call; with
        // rasterizer discard the viewport, multisample, depth and blend
        // states are ignored and may be absent; `module` holds the entry
        // point (checked above); layout and render pass are live.
        let created = unsafe {
            self.device
                .create_graphics_pipelines(self.pipeline_cache, &[info], None)
        };
        // SAFETY: the pipeline (if any) no longer needs the module.
        unsafe { self.device.destroy_shader_module(module, None) };
        let pipeline = match created {
            Ok(p) => p[0],
            Err((p, result)) => {
                for p in p {
                    // SAFETY: a pipeline of a failed batch call is null or
                    // unused; destroying null is allowed.
                    unsafe { self.device.destroy_pipeline(p, None) };
                }
                return Err(HarnessError::Vulkan {
                    call: "vkCreateGraphicsPipelines",
                    result,
                });
            }
        };
        Ok(VertexProgram {
            h: self,
            pipeline,
            layout,
            bindings,
            push_bytes,
        })
    }
}

impl Drop for VertexProgram<'_> {
    fn drop(&mut self) {
        if self.h.check_poison().is_err() {
            return; // the device may still use it: leak
        }
        // SAFETY: runs wait for their fence before returning, so no command
        // buffer using this pipeline is pending.
        unsafe { self.h.device.destroy_pipeline(self.pipeline, None) };
    }
}

/// The device objects of one run, freed on drop (also on error paths).
pub(crate) struct RunResources<'h> {
    pub(crate) h: &'h Harness,
    pub(crate) pool: vk::DescriptorPool,
    /// Buffer, memory, mapped pointer, size asked for.
    pub(crate) buffers: Vec<(vk::Buffer, vk::DeviceMemory, *mut u8, u64)>,
}

impl Drop for RunResources<'_> {
    fn drop(&mut self) {
        // SAFETY: nothing pending uses these objects: a run drops them only
        // after its fence signalled, or before it submitted anything (a
        // timed-out run forgets them instead). Freeing mapped memory unmaps
        // it; destroying null handles is allowed.
        unsafe {
            self.h.device.destroy_descriptor_pool(self.pool, None);
            for &(b, m, _, _) in &self.buffers {
                self.h.device.destroy_buffer(b, None);
                self.h.device.free_memory(m, None);
            }
        }
    }
}

impl RunResources<'_> {
    /// Make a host-coherent storage buffer of `size` bytes holding `bytes`
    /// then zeros.
    pub(crate) fn add_buffer(&mut self, bytes: &[u8], size: u64) -> Result<(), HarnessError> {
        self.add_buffer_for(bytes, size, vk::BufferUsageFlags::STORAGE_BUFFER)
    }

    /// Make a host-coherent buffer of `size` bytes for `usage` holding
    /// `bytes` then zeros.
    pub(crate) fn add_buffer_for(
        &mut self,
        bytes: &[u8],
        size: u64,
        usage: vk::BufferUsageFlags,
    ) -> Result<(), HarnessError> {
        let dev = &self.h.device;
        let alloc_size = size.max(4).next_multiple_of(4);
        let info = vk::BufferCreateInfo::default()
            .size(alloc_size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: nonzero size, valid usage.
        let buffer = vkr("vkCreateBuffer", unsafe { dev.create_buffer(&info, None) })?;
        self.buffers
            .push((buffer, vk::DeviceMemory::null(), std::ptr::null_mut(), size));
        // SAFETY: `buffer` is live.
        let req = unsafe { dev.get_buffer_memory_requirements(buffer) };
        let Some(&mtype) = self
            .h
            .host_types
            .iter()
            .find(|&&t| req.memory_type_bits & (1 << t) != 0)
        else {
            return Err(HarnessError::Unsupported {
                device: self.h.device_info().name.clone(),
                what: "no host-visible coherent memory type for a storage buffer".into(),
            });
        };
        let ainfo = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(mtype);
        // SAFETY: a memory type the device reported, the size it asked for.
        let memory = vkr("vkAllocateMemory", unsafe {
            dev.allocate_memory(&ainfo, None)
        })?;
        let last = self.buffers.len() - 1;
        self.buffers[last].1 = memory;
        // SAFETY: unbound buffer, fresh memory of a compatible type and
        // sufficient size, offset 0.
        vkr("vkBindBufferMemory", unsafe {
            dev.bind_buffer_memory(buffer, memory, 0)
        })?;
        // SAFETY: host-visible memory, not mapped yet.
        let ptr = vkr("vkMapMemory", unsafe {
            dev.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
        })? as *mut u8;
        self.buffers[last].2 = ptr;
        // `bytes.len() <= size <= alloc_size <= req.size` (the caller checks
        // the first).
        let len = bytes.len();
        // SAFETY: the mapping covers `req.size >= alloc_size` bytes, no
        // device work uses the memory yet, and `bytes` does not overlap it.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, len);
            std::ptr::write_bytes(ptr.add(len), 0, (alloc_size as usize) - len);
        }
        Ok(())
    }
}

impl VertexProgram<'_> {
    /// The storage-buffer bindings, sorted.
    pub fn bindings(&self) -> &[u32] {
        &self.bindings
    }

    /// Run one draw with these buffers (exactly one per binding of the
    /// interface) and push constants (at most the interface's size; the
    /// rest of the range is zero), and return the buffers marked
    /// `read_back`.
    pub fn run(
        &self,
        draw: &DrawCall,
        buffers: &[Binding<'_>],
        push: &[u8],
    ) -> Result<RunOutput, HarnessError> {
        run_pipeline(
            &Pipeline {
                h: self.h,
                pipeline: self.pipeline,
                layout: self.layout,
                bindings: &self.bindings,
                push_bytes: self.push_bytes,
                extent: (1, 1),
            },
            draw,
            buffers,
            push,
        )
    }
}

/// What [`run_pipeline`] runs: a graphics pipeline of the harness's render
/// pass with its layout and interface.
pub(crate) struct Pipeline<'a, 'h> {
    pub(crate) h: &'h Harness,
    pub(crate) pipeline: vk::Pipeline,
    pub(crate) layout: Layout,
    pub(crate) bindings: &'a [u32],
    pub(crate) push_bytes: u32,
    /// The render area (from the origin).
    pub(crate) extent: (u32, u32),
}

/// Run one draw of `p` with these buffers and push constants.
pub(crate) fn run_pipeline(
    p: &Pipeline<'_, '_>,
    draw: &DrawCall,
    buffers: &[Binding<'_>],
    push: &[u8],
) -> Result<RunOutput, HarnessError> {
    {
        let h = p.h;
        h.check_poison()?;
        for b in buffers {
            if !p.bindings.contains(&b.binding) {
                return Err(HarnessError::Input(format!(
                    "buffer for binding {}, which the program does not have ({:?})",
                    b.binding, p.bindings
                )));
            }
            if (b.bytes.len() as u64) > b.size {
                return Err(HarnessError::Input(format!(
                    "binding {}: {} bytes given for a {}-byte buffer",
                    b.binding,
                    b.bytes.len(),
                    b.size
                )));
            }
            if b.size > u64::from(h.limits.max_storage_buffer_range) {
                return Err(HarnessError::Input(format!(
                    "binding {}: {} bytes; the device's storage-buffer range is {}",
                    b.binding, b.size, h.limits.max_storage_buffer_range
                )));
            }
        }
        for &n in p.bindings {
            let given = buffers.iter().filter(|b| b.binding == n).count();
            if given != 1 {
                return Err(HarnessError::Input(format!(
                    "binding {n} given {given} buffers; a run needs exactly one"
                )));
            }
        }
        if push.len() as u64 > u64::from(p.push_bytes) {
            return Err(HarnessError::Input(format!(
                "{} bytes of push constants; the program has {}",
                push.len(),
                p.push_bytes
            )));
        }

        let mut res = RunResources {
            h,
            pool: vk::DescriptorPool::null(),
            buffers: Vec::with_capacity(buffers.len()),
        };
        for b in buffers {
            res.add_buffer(b.bytes, b.size)?;
        }
        let dev = &h.device;
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count((buffers.len() as u32).max(1))];
        let pinfo = vk::DescriptorPoolCreateInfo::default()
            .max_sets(1)
            .pool_sizes(&sizes);
        // SAFETY: valid create info.
        res.pool = vkr("vkCreateDescriptorPool", unsafe {
            dev.create_descriptor_pool(&pinfo, None)
        })?;
        let set_layouts = [p.layout.set];
        let ainfo = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(res.pool)
            .set_layouts(&set_layouts);
        // SAFETY: a live pool with room for this one set.
        let set = vkr("vkAllocateDescriptorSets", unsafe {
            dev.allocate_descriptor_sets(&ainfo)
        })?[0];
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = res
            .buffers
            .iter()
            .map(|&(buffer, ..)| {
                [vk::DescriptorBufferInfo::default()
                    .buffer(buffer)
                    .offset(0)
                    .range(vk::WHOLE_SIZE)]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = buffers
            .iter()
            .zip(&infos)
            .map(|(b, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(b.binding)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: every write targets a storage-buffer binding of the set's
        // layout with a live buffer within maxStorageBufferRange.
        unsafe { dev.update_descriptor_sets(&writes, &[]) };

        let mut pushed = push.to_vec();
        pushed.resize(p.push_bytes as usize, 0);

        let sub = h.submitter();
        let cmd = sub.cmd;
        // SAFETY: the command buffer is not pending: the previous run waited
        // for its fence, and the submitter lock is held.
        vkr("vkResetCommandBuffer", unsafe {
            dev.reset_command_buffer(cmd, vk::CommandBufferResetFlags::empty())
        })?;
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: an initial-state command buffer.
        vkr("vkBeginCommandBuffer", unsafe {
            dev.begin_command_buffer(cmd, &begin)
        })?;
        let rp_begin = vk::RenderPassBeginInfo::default()
            .render_pass(h.render_pass)
            .framebuffer(h.framebuffer)
            .render_area(vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: p.extent.0,
                    height: p.extent.1,
                },
            });
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: recording state; the pipeline, layout, set, render pass
        // and framebuffer are live and compatible; the push range matches
        // the layout's; the barrier is outside the render pass.
        unsafe {
            dev.cmd_begin_render_pass(cmd, &rp_begin, vk::SubpassContents::INLINE);
            dev.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, p.pipeline);
            dev.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::GRAPHICS,
                p.layout.pipeline,
                0,
                &[set],
                &[],
            );
            if p.push_bytes > 0 {
                dev.cmd_push_constants(
                    cmd,
                    p.layout.pipeline,
                    crate::device::LAYOUT_STAGES,
                    0,
                    &pushed,
                );
            }
            dev.cmd_draw(
                cmd,
                draw.vertex_count,
                draw.instance_count,
                draw.first_vertex,
                draw.first_instance,
            );
            dev.cmd_end_render_pass(cmd);
            dev.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
        }
        // SAFETY: recording state.
        vkr("vkEndCommandBuffer", unsafe { dev.end_command_buffer(cmd) })?;
        let cmds = [cmd];
        let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
        // SAFETY: an executable command buffer, an unsignalled fence, the
        // queue externally synchronised by the submitter lock. Host writes
        // to the coherent buffers happened before this call, which makes
        // them visible to the device.
        vkr("vkQueueSubmit", unsafe {
            dev.queue_submit(sub.queue, &submit, sub.fence)
        })?;
        // SAFETY: a fence of this device.
        let waited =
            unsafe { dev.wait_for_fences(&[sub.fence], true, RUN_TIMEOUT_SECONDS * 1_000_000_000) };
        match waited {
            Ok(()) => {}
            Err(result) => {
                // The device may still be running the draw: keep everything
                // it might touch alive forever and refuse further work.
                h.poison();
                std::mem::forget(res);
                return Err(if result == vk::Result::TIMEOUT {
                    HarnessError::Timeout {
                        seconds: RUN_TIMEOUT_SECONDS,
                    }
                } else {
                    HarnessError::Vulkan {
                        call: "vkWaitForFences",
                        result,
                    }
                });
            }
        }
        // SAFETY: the fence signalled and is not in use.
        vkr("vkResetFences", unsafe { dev.reset_fences(&[sub.fence]) })?;
        drop(sub);

        let mut out = RunOutput::default();
        for (b, &(_, _, ptr, size)) in buffers.iter().zip(&res.buffers) {
            if b.read_back {
                // SAFETY: the draw finished (fence) and its writes were made
                // visible to host reads (barrier); the mapping covers at
                // least `size` bytes and nothing writes them now.
                let bytes = unsafe { std::slice::from_raw_parts(ptr, size as usize) };
                out.buffers.push((b.binding, bytes.to_vec()));
            }
        }
        Ok(out)
    }
}
