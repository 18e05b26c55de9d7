//! Compute programs: a GLCompute SPIR-V module in a compute pipeline, run
//! by one `vkCmdDispatch` over storage buffers and push constants, with the
//! buffers read back. The layout, buffer and submission rules are the
//! vertex programs' ([`crate::program`]).

use crate::check::check_module_for;
use crate::device::{Harness, Layout, LAYOUT_STAGES};
use crate::program::{Binding, Interface, RunOutput, RunResources, RUN_TIMEOUT_SECONDS};
use crate::{vkr, HarnessError};
use ash::vk;
use std::ffi::CString;

/// A compute shader ready to dispatch (made by [`Harness::compute_program`]).
pub struct ComputeProgram<'h> {
    h: &'h Harness,
    pipeline: vk::Pipeline,
    layout: Layout,
    bindings: Vec<u32>,
    push_bytes: u32,
}

impl Harness {
    /// Compile `spirv` (a compute shader) into a program with `interface`:
    /// the same checks as [`Harness::program`], for a GLCompute entry point.
    pub fn compute_program(
        &self,
        spirv: &[u32],
        interface: &Interface,
    ) -> Result<ComputeProgram<'_>, HarnessError> {
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
        check_module_for(
            naga::ShaderStage::Compute,
            spirv,
            &interface.entry_point,
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
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry);
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(layout.pipeline);
        // SAFETY: the stage info points at live data; `module` holds the
        // compute entry point (checked above); the layout is live.
        let created = unsafe {
            self.device
                .create_compute_pipelines(self.pipeline_cache, &[info], None)
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
                    call: "vkCreateComputePipelines",
                    result,
                });
            }
        };
        Ok(ComputeProgram {
            h: self,
            pipeline,
            layout,
            bindings,
            push_bytes,
        })
    }
}

impl Drop for ComputeProgram<'_> {
    fn drop(&mut self) {
        if self.h.check_poison().is_err() {
            return; // the device may still use it: leak
        }
        // SAFETY: runs wait for their fence before returning, so no command
        // buffer using this pipeline is pending.
        unsafe { self.h.device.destroy_pipeline(self.pipeline, None) };
    }
}

/// The most workgroups one dispatch may have per dimension (Vulkan's
/// guaranteed minimum of maxComputeWorkGroupCount).
pub const MAX_GROUPS: u32 = 65535;

impl ComputeProgram<'_> {
    /// Dispatch `groups` workgroups with these buffers (exactly one per
    /// binding) and push constants, and return the buffers marked
    /// `read_back` after the dispatch.
    pub fn dispatch(
        &self,
        groups: [u32; 3],
        buffers: &[Binding<'_>],
        push: &[u8],
    ) -> Result<RunOutput, HarnessError> {
        let h = self.h;
        h.check_poison()?;
        if groups.iter().any(|&g| g > MAX_GROUPS) {
            return Err(HarnessError::Input(format!(
                "{groups:?} workgroups; at most {MAX_GROUPS} per dimension"
            )));
        }
        for b in buffers {
            if !self.bindings.contains(&b.binding) {
                return Err(HarnessError::Input(format!(
                    "buffer for binding {}, which the program does not have ({:?})",
                    b.binding, self.bindings
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
        for &n in &self.bindings {
            let given = buffers.iter().filter(|b| b.binding == n).count();
            if given != 1 {
                return Err(HarnessError::Input(format!(
                    "binding {n} given {given} buffers; a run needs exactly one"
                )));
            }
        }
        if push.len() as u64 > u64::from(self.push_bytes) {
            return Err(HarnessError::Input(format!(
                "{} bytes of push constants; the program has {}",
                push.len(),
                self.push_bytes
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
        let set_layouts = [self.layout.set];
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
        pushed.resize(self.push_bytes as usize, 0);

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
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: recording state; pipeline, layout and set are live and
        // compatible; the push range matches the layout's.
        unsafe {
            dev.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            dev.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::COMPUTE,
                self.layout.pipeline,
                0,
                &[set],
                &[],
            );
            if self.push_bytes > 0 {
                dev.cmd_push_constants(cmd, self.layout.pipeline, LAYOUT_STAGES, 0, &pushed);
            }
            dev.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
            dev.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
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
        // queue externally synchronised by the submitter lock; host writes
        // to the coherent buffers happened before this call.
        vkr("vkQueueSubmit", unsafe {
            dev.queue_submit(sub.queue, &submit, sub.fence)
        })?;
        // SAFETY: a fence of this device.
        let waited =
            unsafe { dev.wait_for_fences(&[sub.fence], true, RUN_TIMEOUT_SECONDS * 1_000_000_000) };
        if let Err(result) = waited {
            // The device may still run the dispatch: keep everything it
            // might touch alive forever and refuse further work.
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
        // SAFETY: the fence signalled and is not in use.
        vkr("vkResetFences", unsafe { dev.reset_fences(&[sub.fence]) })?;
        drop(sub);
        let mut out = RunOutput::default();
        for (b, &(_, _, ptr, size)) in buffers.iter().zip(&res.buffers) {
            if b.read_back {
                // SAFETY: the dispatch finished (fence) and its writes were
                // made visible to host reads (barrier); the mapping covers
                // at least `size` bytes and nothing writes them now.
                let bytes = unsafe { std::slice::from_raw_parts(ptr, size as usize) };
                out.buffers.push((b.binding, bytes.to_vec()));
            }
        }
        Ok(out)
    }
}
