//! Compute programs: a GLCompute SPIR-V module in a compute pipeline, run
//! by one `vkCmdDispatch` over storage buffers and push constants, with the
//! buffers read back. The layout, buffer and submission rules are the
//! vertex programs' ([`crate::program`]).

use crate::common::{check_run_buffers, StorageProgram};
use crate::device::{Harness, LAYOUT_STAGES};
use crate::program::{Binding, Interface, RunOutput, RunResources};
use crate::HarnessError;
use ash::vk;

/// A compute shader ready to dispatch (made by [`Harness::compute_program`]).
pub struct ComputeProgram<'h> {
    p: StorageProgram<'h>,
}

impl Harness {
    /// Compile `spirv` (a compute shader) into a program with `interface`:
    /// the same checks as [`Harness::program`], for a GLCompute entry point.
    pub fn compute_program(
        &self,
        spirv: &[u32],
        interface: &Interface,
    ) -> Result<ComputeProgram<'_>, HarnessError> {
        self.compute_program_with_images(spirv, interface, &[])
    }

    /// [`Harness::compute_program`] with image bindings (combined image
    /// samplers and storage images of set 0, see [`crate::ImageSlot`]).
    pub fn compute_program_with_images(
        &self,
        spirv: &[u32],
        interface: &Interface,
        images: &[crate::ImageSlot],
    ) -> Result<ComputeProgram<'_>, HarnessError> {
        self.check_poison()?;
        let checked =
            self.check_program(interface, images, &[(naga::ShaderStage::Compute, spirv)])?;
        let module = self.shader_module(spirv)?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&checked.entry);
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(checked.layout.pipeline);
        // SAFETY: the stage info points at live data; `module` holds the
        // compute entry point (checked above); the layout is live.
        let created = unsafe {
            self.device
                .create_compute_pipelines(self.pipeline_cache, &[info], None)
        };
        let pipeline = self.finish_pipeline(&[module], created, "vkCreateComputePipelines")?;
        Ok(ComputeProgram {
            p: StorageProgram::new(self, pipeline, checked),
        })
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
        self.dispatch_with_images(groups, buffers, &[], push)
    }

    /// [`ComputeProgram::dispatch`] with one image per image binding of the
    /// program; read-back images are in the output
    /// ([`RunOutput::image`]).
    pub fn dispatch_with_images(
        &self,
        groups: [u32; 3],
        buffers: &[Binding<'_>],
        images: &[crate::ImageInput<'_>],
        push: &[u8],
    ) -> Result<RunOutput, HarnessError> {
        let h = self.p.h;
        h.check_poison()?;
        if groups.iter().any(|&g| g > MAX_GROUPS) {
            return Err(HarnessError::Input(format!(
                "{groups:?} workgroups; at most {MAX_GROUPS} per dimension"
            )));
        }
        check_run_buffers(h, &self.p.bindings, self.p.push_bytes, buffers, push)?;
        crate::image::check_run_images(&self.p.images, images)?;
        let mut res = RunResources::new(h, buffers.len());
        for b in buffers {
            res.add_buffer(b.bytes, b.size)?;
        }
        res.add_images(&self.p.images, images)?;
        let set = res.storage_set(self.p.layout.set, buffers)?;
        let mut pushed = push.to_vec();
        pushed.resize(self.p.push_bytes as usize, 0);
        let copies = res.image_copies();
        let flags = res.read_back_flags(buffers.iter().map(|b| b.read_back));
        let image_rb = res.image_read_backs();
        let out = res.submit_and_read(
            vk::PipelineStageFlags::COMPUTE_SHADER,
            flags.into_iter(),
            |dev, cmd| {
                crate::image::record_uploads(&copies, dev, cmd);
                // SAFETY: recording state; pipeline, layout and set are live
                // and compatible; the push range matches the layout's.
                unsafe {
                    dev.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.p.pipeline);
                    dev.cmd_bind_descriptor_sets(
                        cmd,
                        vk::PipelineBindPoint::COMPUTE,
                        self.p.layout.pipeline,
                        0,
                        &[set],
                        &[],
                    );
                    if self.p.push_bytes > 0 {
                        dev.cmd_push_constants(
                            cmd,
                            self.p.layout.pipeline,
                            LAYOUT_STAGES,
                            0,
                            &pushed,
                        );
                    }
                    dev.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
                }
                crate::image::record_read_backs(&copies, dev, cmd);
            },
        )?;
        Ok(RunOutput::from_run(buffers, out, &image_rb))
    }
}
