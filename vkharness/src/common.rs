//! Steps every program kind shares: interface checks, shader modules,
//! pipeline results, descriptor sets, and the submit-wait-read-back of a
//! run.

use crate::check::check_module_for;
use crate::device::{Harness, Layout};
use crate::program::{Binding, DrawCall, Interface, RunResources, RUN_TIMEOUT_SECONDS};
use crate::{vkr, HarnessError};
use ash::vk;
use std::ffi::{CStr, CString};

/// A storage-buffer interface after its checks: distinct bindings (sorted),
/// the push range rounded up to a multiple of 4, the entry point's name,
/// and the pipeline layout of both.
pub(crate) struct CheckedInterface {
    pub(crate) bindings: Vec<u32>,
    pub(crate) push_bytes: u32,
    pub(crate) entry: CString,
    pub(crate) layout: Layout,
    /// Image bindings, sorted.
    pub(crate) images: Vec<crate::ImageSlot>,
}

/// The state every storage-buffer program (vertex, fragment, compute)
/// holds: its pipeline (destroyed on drop), layout and interface.
pub(crate) struct StorageProgram<'h> {
    pub(crate) h: &'h Harness,
    pub(crate) pipeline: vk::Pipeline,
    pub(crate) layout: Layout,
    /// Sorted, distinct.
    pub(crate) bindings: Vec<u32>,
    pub(crate) push_bytes: u32,
    /// Image bindings, sorted.
    pub(crate) images: Vec<crate::ImageSlot>,
}

impl<'h> StorageProgram<'h> {
    /// The program of `pipeline`, made from the checked interface `c`.
    pub(crate) fn new(h: &'h Harness, pipeline: vk::Pipeline, c: CheckedInterface) -> Self {
        StorageProgram {
            h,
            pipeline,
            layout: c.layout,
            bindings: c.bindings,
            push_bytes: c.push_bytes,
            images: c.images,
        }
    }
}

impl Drop for StorageProgram<'_> {
    fn drop(&mut self) {
        self.h.drop_pipeline(self.pipeline);
    }
}

impl Harness {
    /// Check `interface`'s bindings (distinct, within the per-stage
    /// storage-buffer limit), push range and entry-point name, then each
    /// module as a program of its stage with that interface
    /// ([`check_module_for`]), and make the pipeline layout.
    pub(crate) fn check_program(
        &self,
        interface: &Interface,
        images: &[crate::ImageSlot],
        modules: &[(naga::ShaderStage, &[u32])],
    ) -> Result<CheckedInterface, HarnessError> {
        let mut images = images.to_vec();
        images.sort_unstable();
        let image_bindings: Vec<u32> = images.iter().map(|i| i.binding).collect();
        if image_bindings.windows(2).any(|w| w[0] == w[1])
            || image_bindings
                .iter()
                .any(|b| interface.bindings.contains(b))
        {
            return Err(HarnessError::Input(format!(
                "image bindings {image_bindings:?} repeat or overlap the storage buffers' {:?}",
                interface.bindings
            )));
        }
        // A sampled-image array is core Vulkan (a module indexing it other
        // than by a constant declares a capability `check` refuses unless
        // the device has the feature).
        if let Some(i) = images
            .iter()
            .find(|i| i.count == 0 || (i.count > 1 && i.kind != crate::ImageSlotKind::Sampled))
        {
            return Err(HarnessError::Input(format!(
                "image binding {} of {} descriptors: only sampled images may be arrays",
                i.binding, i.count
            )));
        }
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
        let push_bytes = self.push_range(interface.push_constant_bytes)?;
        let entry = entry_name(&interface.entry_point)?;
        for &(stage, words) in modules {
            check_module_for(
                stage,
                words,
                &interface.entry_point,
                &bindings,
                &image_bindings,
                push_bytes,
                if stage == naga::ShaderStage::Fragment {
                    &self.fragment_capabilities
                } else {
                    &self.capabilities
                },
            )?;
        }
        let layout = self.layout(&bindings, &images, push_bytes)?;
        Ok(CheckedInterface {
            bindings,
            push_bytes,
            entry,
            layout,
            images,
        })
    }

    /// `bytes` of push constants rounded up to a multiple of 4, if the
    /// device allows that many.
    pub(crate) fn push_range(&self, bytes: u32) -> Result<u32, HarnessError> {
        bytes
            .checked_next_multiple_of(4)
            .filter(|&p| p <= self.limits.max_push_constants_size)
            .ok_or_else(|| {
                HarnessError::Input(format!(
                    "{} bytes of push constants; the device allows {}",
                    bytes, self.limits.max_push_constants_size
                ))
            })
    }

    /// A shader module of `spirv`, which the caller checked (naga parsed
    /// and validated it, a SPIR-V 1.0..=1.3 module whose resources match
    /// the layout it will be used with).
    pub(crate) fn shader_module(&self, spirv: &[u32]) -> Result<vk::ShaderModule, HarnessError> {
        let minfo = vk::ShaderModuleCreateInfo::default().code(spirv);
        // SAFETY: `spirv` is a SPIR-V 1.0..=1.3 module that naga parsed and
        // validated, whose resources match the pipeline's layout (the
        // caller's contract).
        vkr("vkCreateShaderModule", unsafe {
            self.device.create_shader_module(&minfo, None)
        })
    }

    /// Destroy `modules` (used by no pipeline being created any more) and
    /// take the one pipeline of a `vkCreate*Pipelines` call of one info,
    /// destroying whatever a failed call left.
    pub(crate) fn finish_pipeline(
        &self,
        modules: &[vk::ShaderModule],
        created: Result<Vec<vk::Pipeline>, (Vec<vk::Pipeline>, vk::Result)>,
        call: &'static str,
    ) -> Result<vk::Pipeline, HarnessError> {
        for &m in modules {
            // SAFETY: the pipeline (if any) no longer needs the module, and
            // nothing else uses it.
            unsafe { self.device.destroy_shader_module(m, None) };
        }
        match created {
            Ok(p) => Ok(p[0]),
            Err((p, result)) => {
                for p in p {
                    // SAFETY: a pipeline of a failed batch call is null or
                    // unused; destroying null is allowed.
                    unsafe { self.device.destroy_pipeline(p, None) };
                }
                Err(HarnessError::Vulkan { call, result })
            }
        }
    }

    /// A graphics pipeline of the harness's render pass running `spirv`'s
    /// vertex entry point `entry` on a point list with rasterizer discard,
    /// with this vertex input state and `layout`. The caller checked the
    /// module (as for [`Harness::shader_module`]) and the vertex input
    /// state (distinct bindings and locations in range, formats with
    /// vertex-buffer support).
    pub(crate) fn vertex_pipeline(
        &self,
        spirv: &[u32],
        entry: &CStr,
        vertex_input: &vk::PipelineVertexInputStateCreateInfo<'_>,
        layout: vk::PipelineLayout,
    ) -> Result<vk::Pipeline, HarnessError> {
        let module = self.shader_module(spirv)?;
        let stages = [vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::VERTEX)
            .module(module)
            .name(entry)];
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
            .vertex_input_state(vertex_input)
            .input_assembly_state(&assembly)
            .rasterization_state(&raster)
            .layout(layout)
            .render_pass(self.render_pass)
            .subpass(0);
        // SAFETY: every pointed-to state lives across the call; the vertex
        // input state was checked by the caller; with rasterizer discard the
        // viewport, multisample, depth and blend states are ignored and may
        // be absent; `module` holds the entry point (checked by the
        // caller); layout and render pass are live.
        let created = unsafe {
            self.device
                .create_graphics_pipelines(self.pipeline_cache, &[info], None)
        };
        self.finish_pipeline(&[module], created, "vkCreateGraphicsPipelines")
    }

    /// Destroy a program's `pipeline` when the program drops, unless the
    /// harness is poisoned (then the device may still use it: leak).
    pub(crate) fn drop_pipeline(&self, pipeline: vk::Pipeline) {
        if self.check_poison().is_err() {
            return;
        }
        // SAFETY: runs wait for their fence before returning, so no command
        // buffer using this pipeline is pending.
        unsafe { self.device.destroy_pipeline(pipeline, None) };
    }
}

/// The NUL-terminated entry-point name.
pub(crate) fn entry_name(name: &str) -> Result<CString, HarnessError> {
    CString::new(name)
        .map_err(|_| HarnessError::Input(format!("entry point name {name:?} contains NUL")))
}

/// Check the buffers and push constants of a run of a storage-buffer
/// program with `bindings` and a `push_bytes` push range: each buffer for
/// a binding of the program, fitting its size and the device's range,
/// exactly one per binding, and no more push constants than the range.
pub(crate) fn check_run_buffers(
    h: &Harness,
    bindings: &[u32],
    push_bytes: u32,
    buffers: &[Binding<'_>],
    push: &[u8],
) -> Result<(), HarnessError> {
    for b in buffers {
        if !bindings.contains(&b.binding) {
            return Err(HarnessError::Input(format!(
                "buffer for binding {}, which the program does not have ({:?})",
                b.binding, bindings
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
    for &n in bindings {
        let given = buffers.iter().filter(|b| b.binding == n).count();
        if given != 1 {
            return Err(HarnessError::Input(format!(
                "binding {n} given {given} buffers; a run needs exactly one"
            )));
        }
    }
    if push.len() as u64 > u64::from(push_bytes) {
        return Err(HarnessError::Input(format!(
            "{} bytes of push constants; the program has {}",
            push.len(),
            push_bytes
        )));
    }
    Ok(())
}

impl<'h> RunResources<'h> {
    /// The resources of a run: no pool yet, room for `buffers` buffers.
    pub(crate) fn new(h: &'h Harness, buffers: usize) -> RunResources<'h> {
        RunResources {
            h,
            pool: vk::DescriptorPool::null(),
            buffers: Vec::with_capacity(buffers),
            images: Vec::new(),
        }
    }

    /// Create the run's descriptor pool with room for `max_sets` sets of
    /// these sizes, and allocate one set of each of `layouts` from it.
    pub(crate) fn allocate_sets(
        &mut self,
        max_sets: u32,
        sizes: &[vk::DescriptorPoolSize],
        layouts: &[vk::DescriptorSetLayout],
    ) -> Result<Vec<vk::DescriptorSet>, HarnessError> {
        let dev = &self.h.device;
        let pinfo = vk::DescriptorPoolCreateInfo::default()
            .max_sets(max_sets)
            .pool_sizes(sizes);
        // SAFETY: valid create info.
        self.pool = vkr("vkCreateDescriptorPool", unsafe {
            dev.create_descriptor_pool(&pinfo, None)
        })?;
        if layouts.is_empty() {
            return Ok(Vec::new());
        }
        let ainfo = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(self.pool)
            .set_layouts(layouts);
        // SAFETY: a live pool with room for these sets.
        vkr("vkAllocateDescriptorSets", unsafe {
            dev.allocate_descriptor_sets(&ainfo)
        })
    }

    /// Point each target (set, binding, descriptor type) at the whole of
    /// the run's buffer of the same position from `first` on. The caller
    /// makes each target a binding of that type in its set's layout.
    pub(crate) fn write_descriptors(
        &self,
        first: usize,
        targets: impl Iterator<Item = (vk::DescriptorSet, u32, vk::DescriptorType)>,
    ) {
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = self.buffers[first..]
            .iter()
            .map(|&(buffer, ..)| {
                [vk::DescriptorBufferInfo::default()
                    .buffer(buffer)
                    .offset(0)
                    .range(vk::WHOLE_SIZE)]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = targets
            .zip(&infos)
            .map(|((set, binding, ty), info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(binding)
                    .descriptor_type(ty)
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: every write targets a binding of its set's layout with
        // the layout's type (the caller's contract) and a live buffer whose
        // size the run checked against the device's range.
        unsafe { self.h.device.update_descriptor_sets(&writes, &[]) };
    }

    /// Create the pool and the one set of a storage-buffer program's
    /// layout `set_layout`, and point `buffers`' bindings at the run's
    /// buffers (one each, in order) and the images' at the run's images.
    pub(crate) fn storage_set(
        &mut self,
        set_layout: vk::DescriptorSetLayout,
        buffers: &[Binding<'_>],
    ) -> Result<vk::DescriptorSet, HarnessError> {
        // Every descriptor of every image binding (an array's elements each).
        let count = |k| self.images.iter().filter(|i| i.kind == k).count().max(1) as u32;
        let sizes = [
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count((buffers.len() as u32).max(1)),
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .descriptor_count(count(crate::ImageSlotKind::Sampled)),
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_IMAGE)
                .descriptor_count(count(crate::ImageSlotKind::Storage)),
        ];
        let set = self.allocate_sets(1, &sizes, &[set_layout])?[0];
        self.write_descriptors(
            0,
            buffers
                .iter()
                .map(|b| (set, b.binding, vk::DescriptorType::STORAGE_BUFFER)),
        );
        self.write_image_descriptors(set);
        Ok(set)
    }

    /// Record a run with `record` (given the device and a recording command
    /// buffer; it must leave no render pass open), then a barrier making
    /// shader writes of `src_stage` visible to host reads; submit, wait for
    /// the fence, and return a copy of each run buffer whose `read_back`
    /// flag is set (`None` for the others). A failed wait poisons the
    /// harness and leaks the resources (the device may still use them).
    pub(crate) fn submit_and_read(
        self,
        src_stage: vk::PipelineStageFlags,
        read_back: impl Iterator<Item = bool>,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<Vec<Option<Vec<u8>>>, HarnessError> {
        let h = self.h;
        let dev = &h.device;
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
        record(dev, cmd);
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: recording state, outside any render pass (the recorder
        // ends the one it began).
        unsafe {
            dev.cmd_pipeline_barrier(
                cmd,
                src_stage,
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
        if let Err(result) = waited {
            // The device may still be running the work: keep everything it
            // might touch alive forever and refuse further work.
            h.poison();
            std::mem::forget(self);
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
        // SAFETY: the fence signalled and is not in use.
        vkr("vkResetFences", unsafe { dev.reset_fences(&[sub.fence]) })?;
        drop(sub);
        Ok(self
            .buffers
            .iter()
            .zip(read_back)
            .map(|(&(_, _, ptr, size), wanted)| {
                // SAFETY: the work finished (fence) and its writes were made
                // visible to host reads (barrier); the mapping covers at
                // least `size` bytes and nothing writes them now.
                wanted.then(|| unsafe { std::slice::from_raw_parts(ptr, size as usize) }.to_vec())
            })
            .collect())
    }
}

/// What one draw binds: a graphics pipeline of the harness's render pass
/// over `extent`, its layout, the descriptor sets from set 0, the vertex
/// buffers by binding, and the push constants (none if empty).
pub(crate) struct DrawState<'a> {
    pub(crate) extent: (u32, u32),
    pub(crate) pipeline: vk::Pipeline,
    pub(crate) layout: vk::PipelineLayout,
    pub(crate) sets: &'a [vk::DescriptorSet],
    pub(crate) vertex_buffers: &'a [(u32, vk::Buffer)],
    pub(crate) push_stages: vk::ShaderStageFlags,
    pub(crate) push: &'a [u8],
}

/// Record `draw` of `s` in a render pass of its own into `cmd` (recording).
/// The caller keeps every object of `s` live and compatible: the sets and
/// push range (its whole size) match the layout's, one vertex buffer per
/// binding of the pipeline's vertex input state.
pub(crate) fn record_draw(
    h: &Harness,
    dev: &ash::Device,
    cmd: vk::CommandBuffer,
    s: &DrawState<'_>,
    draw: &DrawCall,
) {
    let rp_begin = vk::RenderPassBeginInfo::default()
        .render_pass(h.render_pass)
        .framebuffer(h.framebuffer)
        .render_area(vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: s.extent.0,
                height: s.extent.1,
            },
        });
    // SAFETY: recording state; the pipeline, layout, sets, render pass,
    // framebuffer and vertex buffers are live and compatible and the push
    // range matches the layout's (the caller's contract); the render pass
    // ends here.
    unsafe {
        dev.cmd_begin_render_pass(cmd, &rp_begin, vk::SubpassContents::INLINE);
        dev.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, s.pipeline);
        if !s.sets.is_empty() {
            dev.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::GRAPHICS,
                s.layout,
                0,
                s.sets,
                &[],
            );
        }
        for &(binding, buf) in s.vertex_buffers {
            dev.cmd_bind_vertex_buffers(cmd, binding, &[buf], &[0]);
        }
        if !s.push.is_empty() {
            dev.cmd_push_constants(cmd, s.layout, s.push_stages, 0, s.push);
        }
        dev.cmd_draw(
            cmd,
            draw.vertex_count,
            draw.instance_count,
            draw.first_vertex,
            draw.first_instance,
        );
        dev.cmd_end_render_pass(cmd);
    }
}
