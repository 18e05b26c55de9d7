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

use crate::common::StorageProgram;
use crate::device::Harness;
use crate::program::run_pipeline;
use crate::{Binding, DrawCall, HarnessError, Interface, RunOutput};
use ash::vk;

/// The largest render area of a fragment program, in pixels per side.
pub const MAX_EXTENT: u32 = 256;

/// A compiled fragment program (vertex + fragment stage).
pub struct FragmentProgram<'h> {
    p: StorageProgram<'h>,
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
        self.fragment_program_with_images(vertex, fragment, interface, &[], width, height)
    }

    /// [`Harness::fragment_program`] with image bindings (combined image
    /// samplers and storage images of set 0, see [`crate::ImageSlot`]).
    pub fn fragment_program_with_images(
        &self,
        vertex: &[u32],
        fragment: &[u32],
        interface: &Interface,
        images: &[crate::ImageSlot],
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
        let checked = self.check_program(
            interface,
            images,
            &[
                (naga::ShaderStage::Vertex, vertex),
                (naga::ShaderStage::Fragment, fragment),
            ],
        )?;
        let vertex_module = self.shader_module(vertex)?;
        let fragment_module = match self.shader_module(fragment) {
            Ok(m) => m,
            Err(e) => {
                // SAFETY: made above, used by nothing.
                unsafe { self.device.destroy_shader_module(vertex_module, None) };
                return Err(e);
            }
        };
        let modules = [vertex_module, fragment_module];
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(modules[0])
                .name(&checked.entry),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(modules[1])
                .name(&checked.entry),
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
            .layout(checked.layout.pipeline)
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
        let pipeline = self.finish_pipeline(&modules, created, "vkCreateGraphicsPipelines")?;
        Ok(FragmentProgram {
            p: StorageProgram::new(self, pipeline, checked),
            extent: (width, height),
        })
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
            &self.p,
            self.extent,
            &DrawCall {
                vertex_count,
                instance_count: 1,
                first_vertex: 0,
                first_instance: 0,
            },
            buffers,
            &[],
            push,
        )
    }

    /// [`FragmentProgram::run`] with one image per image binding of the
    /// program; read-back images are in the output
    /// ([`RunOutput::image`]).
    pub fn run_with_images(
        &self,
        vertex_count: u32,
        buffers: &[Binding<'_>],
        images: &[crate::ImageInput<'_>],
        push: &[u8],
    ) -> Result<RunOutput, HarnessError> {
        run_pipeline(
            &self.p,
            self.extent,
            &DrawCall {
                vertex_count,
                instance_count: 1,
                first_vertex: 0,
                first_instance: 0,
            },
            buffers,
            images,
            push,
        )
    }
}
