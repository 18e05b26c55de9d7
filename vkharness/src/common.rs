//! Steps every program kind shares: interface checks, shader modules,
//! pipeline results, descriptor sets, and the submit-wait-read-back of a
//! run.

use crate::device::Harness;
use crate::program::{Binding, Interface, RunResources, RUN_TIMEOUT_SECONDS};
use crate::{vkr, HarnessError};
use ash::vk;
use std::ffi::CString;

/// A storage-buffer interface after its checks: distinct bindings (sorted),
/// the push range rounded up to a multiple of 4, the entry point's name.
pub(crate) struct CheckedInterface {
    pub(crate) bindings: Vec<u32>,
    pub(crate) push_bytes: u32,
    pub(crate) entry: CString,
}

impl Harness {
    /// Check `interface`'s bindings (distinct, within the per-stage
    /// storage-buffer limit), push range and entry-point name.
    pub(crate) fn check_interface(
        &self,
        interface: &Interface,
    ) -> Result<CheckedInterface, HarnessError> {
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
        Ok(CheckedInterface {
            bindings,
            push_bytes,
            entry,
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
    /// buffers (one each, in order).
    pub(crate) fn storage_set(
        &mut self,
        set_layout: vk::DescriptorSetLayout,
        buffers: &[Binding<'_>],
    ) -> Result<vk::DescriptorSet, HarnessError> {
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count((buffers.len() as u32).max(1))];
        let set = self.allocate_sets(1, &sizes, &[set_layout])?[0];
        self.write_descriptors(
            0,
            buffers
                .iter()
                .map(|b| (set, b.binding, vk::DescriptorType::STORAGE_BUFFER)),
        );
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

/// The render-pass begin info of the harness's attachment-less render pass
/// over `extent` (from the origin).
pub(crate) fn render_pass_begin(
    h: &Harness,
    extent: (u32, u32),
) -> vk::RenderPassBeginInfo<'static> {
    vk::RenderPassBeginInfo::default()
        .render_pass(h.render_pass)
        .framebuffer(h.framebuffer)
        .render_area(vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D {
                width: extent.0,
                height: extent.1,
            },
        })
}
