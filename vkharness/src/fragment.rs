//! Fragment programs: a vertex and a fragment stage drawing triangles into
//! the harness's attachment-less render pass, so the fragment shader's only
//! visible effect is what it stores into storage buffers.
//!
//! The pipeline: no vertex input (the vertex shader fetches its data from a
//! storage buffer by `gl_VertexIndex`), triangle lists, no culling, fill,
//! one sample, a `width` × `height` viewport and scissor at the origin (at
//! most [`MAX_EXTENT`] square), no depth, stencil or blending (there are no
//! attachments, so the fragment outputs go nowhere). The device must offer
//! `fragmentStoresAndAtomics`.

use crate::check::check_module;
use crate::device::{Harness, Layout};
use crate::program::{run_pipeline, Pipeline};
use crate::{Binding, DrawCall, HarnessError, Interface, RunOutput};
use ash::vk;
use std::ffi::CString;

/// The largest render area of a fragment program, in pixels per side.
pub const MAX_EXTENT: u32 = 256;

/// A compiled fragment program (vertex + fragment stage).
pub struct FragmentProgram<'h> {
    h: &'h Harness,
    pipeline: vk::Pipeline,
    layout: Layout,
    bindings: Vec<u32>,
    push_bytes: u32,
    extent: (u32, u32),
}

impl Harness {
    /// Compile a vertex module and a fragment module into one program over
    /// a `width` × `height` render area. Both must parse and validate with
    /// naga and have an entry point `interface.entry_point` of their stage;
    /// together they bind storage buffers of set 0 at `interface.bindings`
    /// only and at most `interface.push_constant_bytes` of push constants.
    pub fn fragment_program(
        &self,
        vertex: &[u32],
        fragment: &[u32],
        interface: &Interface,
        width: u32,
        height: u32,
    ) -> Result<FragmentProgram<'_>, HarnessError> {
        self.check_poison()?;
        if !self.fragment_stores {
            return Err(HarnessError::Unsupported {
                device: self.device_info().name.clone(),
                what: "no fragmentStoresAndAtomics".into(),
            });
        }
        if width == 0 || height == 0 || width > MAX_EXTENT || height > MAX_EXTENT {
            return Err(HarnessError::Input(format!(
                "render area {width}x{height}: 1..={MAX_EXTENT} per side"
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
            vertex,
            &interface.entry_point,
            naga::ShaderStage::Vertex,
            &bindings,
            push_bytes,
            &self.capabilities,
        )?;
        check_module(
            fragment,
            &interface.entry_point,
            naga::ShaderStage::Fragment,
            &bindings,
            push_bytes,
            &self.capabilities,
        )?;
        let layout = self.layout(&bindings, push_bytes)?;
        let mut modules = Vec::with_capacity(2);
        for code in [vertex, fragment] {
            let minfo = vk::ShaderModuleCreateInfo::default().code(code);
            // SAFETY: a SPIR-V 1.0..=1.3 module that naga parsed and
            // validated, whose resources match `layout`.
            match unsafe { self.device.create_shader_module(&minfo, None) } {
                Ok(m) => modules.push(m),
                Err(result) => {
                    for m in modules {
                        // SAFETY: made above, used by nothing.
                        unsafe { self.device.destroy_shader_module(m, None) };
                    }
                    return Err(HarnessError::Vulkan {
                        call: "vkCreateShaderModule",
                        result,
                    });
                }
            }
        }
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(modules[0])
                .name(&entry),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(modules[1])
                .name(&entry),
        ];
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        let assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let viewports = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissors = [vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent: vk::Extent2D { width, height },
        }];
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewports)
            .scissors(&scissors);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .layout(layout.pipeline)
            .render_pass(self.render_pass)
            .subpass(0);
        // SAFETY: every pointed-to state lives across the call; the subpass
        // has no attachments, so depth-stencil and colour-blend states may
        // be absent; the modules hold the entry points (checked above);
        // layout and render pass are live.
        let created = unsafe {
            self.device
                .create_graphics_pipelines(self.pipeline_cache, &[info], None)
        };
        for m in modules {
            // SAFETY: the pipeline (if any) no longer needs the module.
            unsafe { self.device.destroy_shader_module(m, None) };
        }
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
        Ok(FragmentProgram {
            h: self,
            pipeline,
            layout,
            bindings,
            push_bytes,
            extent: (width, height),
        })
    }
}

impl Drop for FragmentProgram<'_> {
    fn drop(&mut self) {
        if self.h.check_poison().is_err() {
            return; // the device may still use it: leak
        }
        // SAFETY: runs wait for their fence before returning, so no command
        // buffer using this pipeline is pending.
        unsafe { self.h.device.destroy_pipeline(self.pipeline, None) };
    }
}

impl FragmentProgram<'_> {
    /// Draw `vertex_count` vertices (one instance, from vertex 0) with
    /// these buffers (exactly one per binding) and push constants, and
    /// return the buffers marked `read_back`.
    pub fn run(
        &self,
        vertex_count: u32,
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
                extent: self.extent,
            },
            &DrawCall {
                vertex_count,
                instance_count: 1,
                first_vertex: 0,
                first_instance: 0,
            },
            buffers,
            push,
        )
    }
}
