//! Vertex programs (one pipeline each) and their runs.

use crate::common::{check_run_buffers, record_draw, DrawState, StorageProgram};
use crate::device::Harness;
use crate::{vkr, HarnessError};
use ash::vk;

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
    pub(crate) images: Vec<(u32, Vec<u8>)>,
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

    /// The texels of the image at `binding`, if it was read back (rows
    /// tightly packed, layer after layer, as given).
    pub fn image(&self, binding: u32) -> Option<&[u8]> {
        self.images
            .iter()
            .find(|(b, _)| *b == binding)
            .map(|(_, v)| v.as_slice())
    }
}

/// A compiled vertex program: its pipeline and interface. Runs any number
/// of draws; borrows the harness, so it cannot outlive the device.
pub struct VertexProgram<'h> {
    p: StorageProgram<'h>,
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
        self.program_with_images(spirv, interface, &[])
    }

    /// [`Harness::program`] with image bindings (combined image samplers
    /// and storage images of set 0, see [`crate::ImageSlot`]): a vertex
    /// shader that samples textures or reads and writes storage images.
    pub fn program_with_images(
        &self,
        spirv: &[u32],
        interface: &Interface,
        images: &[crate::ImageSlot],
    ) -> Result<VertexProgram<'_>, HarnessError> {
        self.check_poison()?;
        let checked =
            self.check_program(interface, images, &[(naga::ShaderStage::Vertex, spirv)])?;

        let pipeline = self.vertex_pipeline(
            spirv,
            &checked.entry,
            &vk::PipelineVertexInputStateCreateInfo::default(),
            checked.layout.pipeline,
        )?;
        Ok(VertexProgram {
            p: StorageProgram::new(self, pipeline, checked),
        })
    }
}

/// The device objects of one run, freed on drop (also on error paths).
pub(crate) struct RunResources<'h> {
    pub(crate) h: &'h Harness,
    pub(crate) pool: vk::DescriptorPool,
    /// Buffer, memory, mapped pointer, size asked for.
    pub(crate) buffers: Vec<(vk::Buffer, vk::DeviceMemory, *mut u8, u64)>,
    /// Images (with their views and samplers).
    pub(crate) images: Vec<crate::image::RunImage>,
}

impl Drop for RunResources<'_> {
    fn drop(&mut self) {
        // SAFETY: nothing pending uses these objects: a run drops them only
        // after its fence signalled, or before it submitted anything (a
        // timed-out run forgets them instead). Freeing mapped memory unmaps
        // it; destroying null handles is allowed.
        unsafe {
            self.h.device.destroy_descriptor_pool(self.pool, None);
            for i in &self.images {
                self.h.device.destroy_sampler(i.sampler, None);
                self.h.device.destroy_image_view(i.view, None);
                self.h.device.destroy_image(i.image, None);
                self.h.device.free_memory(i.memory, None);
            }
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
        &self.p.bindings
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
        run_pipeline(&self.p, (1, 1), draw, buffers, &[], push)
    }

    /// [`VertexProgram::run`] with one image per image binding of the
    /// program ([`Harness::program_with_images`]); read-back images are in
    /// the output ([`RunOutput::image`]).
    pub fn run_with_images(
        &self,
        draw: &DrawCall,
        buffers: &[Binding<'_>],
        images: &[crate::ImageInput<'_>],
        push: &[u8],
    ) -> Result<RunOutput, HarnessError> {
        run_pipeline(&self.p, (1, 1), draw, buffers, images, push)
    }
}

/// Run one draw of `p`, a graphics pipeline of the harness's render pass,
/// over `extent` (from the origin) with these buffers and push constants.
pub(crate) fn run_pipeline(
    p: &StorageProgram<'_>,
    extent: (u32, u32),
    draw: &DrawCall,
    buffers: &[Binding<'_>],
    images: &[crate::ImageInput<'_>],
    push: &[u8],
) -> Result<RunOutput, HarnessError> {
    let h = p.h;
    h.check_poison()?;
    check_run_buffers(h, &p.bindings, p.push_bytes, buffers, push)?;
    crate::image::check_run_images(&p.images, images)?;
    let mut res = RunResources::new(h, buffers.len());
    for b in buffers {
        res.add_buffer(b.bytes, b.size)?;
    }
    res.add_images(&p.images, images)?;
    let set = res.storage_set(p.layout.set, buffers)?;
    let mut pushed = push.to_vec();
    pushed.resize(p.push_bytes as usize, 0);
    let state = DrawState {
        extent,
        pipeline: p.pipeline,
        layout: p.layout.pipeline,
        sets: &[set],
        vertex_buffers: &[],
        push_stages: crate::device::LAYOUT_STAGES,
        push: &pushed,
    };
    let copies = res.image_copies();
    let flags = res.read_back_flags(buffers.iter().map(|b| b.read_back));
    let image_rb = res.image_read_backs();
    let out = res.submit_and_read(
        vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER,
        flags.into_iter(),
        |dev, cmd| {
            crate::image::record_uploads(&copies, dev, cmd);
            record_draw(h, dev, cmd, &state, draw);
            crate::image::record_read_backs(&copies, dev, cmd);
        },
    )?;
    Ok(RunOutput::from_run(buffers, out, &image_rb))
}

impl RunOutput {
    /// The read-back copies of a run of `buffers`, by binding.
    pub(crate) fn from_copies(buffers: &[Binding<'_>], copies: Vec<Option<Vec<u8>>>) -> RunOutput {
        RunOutput {
            buffers: buffers
                .iter()
                .zip(copies)
                .filter_map(|(b, c)| Some((b.binding, c?)))
                .collect(),
            images: Vec::new(),
        }
    }

    /// The read-back copies of a run of `buffers` and of the images at
    /// these (binding, buffer index) pairs.
    pub(crate) fn from_run(
        buffers: &[Binding<'_>],
        mut copies: Vec<Option<Vec<u8>>>,
        images: &[(u32, usize)],
    ) -> RunOutput {
        let images = images
            .iter()
            .filter_map(|&(b, r)| Some((b, copies.get_mut(r)?.take()?)))
            .collect();
        copies.truncate(buffers.len());
        let mut out = RunOutput::from_copies(buffers, copies);
        out.images = images;
        out
    }
}
