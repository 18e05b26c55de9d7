//! Image resources of vertex, fragment and compute programs: combined image
//! samplers and storage images in descriptor set 0, beside the storage
//! buffers.
//!
//! A program declares its image bindings ([`ImageSlot`]); a run gives one
//! [`ImageInput`] per slot: a format, a view type, an extent and the texels
//! (rows tightly packed, layer after layer, one mip level), plus a sampler
//! for a sampled slot. Each image is `OPTIMAL`-tiled device memory filled
//! by a buffer copy before the draw and kept in `GENERAL` layout (valid
//! for both descriptor kinds); an image marked `read_back` is copied back
//! after the draw in the same packing.
//!
//! Storage images used without a format in the shader need the device
//! features `shaderStorageImageReadWithoutFormat` / `…WriteWithoutFormat`:
//! the harness enables them when the device has them, and the module check
//! refuses the capabilities otherwise.

use crate::program::RunResources;
use crate::{vkr, HarnessError};
use ash::vk;

/// The kind of an image binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageSlotKind {
    /// A combined image sampler (`sampler2D`, …).
    Sampled,
    /// A storage image (`image2D`, …).
    Storage,
}

/// One image binding of a program's interface (set 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageSlot {
    /// The binding number (distinct from the storage buffers').
    pub binding: u32,
    /// Sampled or storage.
    pub kind: ImageSlotKind,
    /// Descriptors in the binding: 1, or more for a descriptor array
    /// (sampled only; indexed by a constant, or dynamically uniformly when
    /// [`crate::Harness::descriptor_arrays`]).
    pub count: u32,
}

/// The view type of an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageDim {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube (six layers per cube).
    Cube,
    /// 1D array.
    D1Array,
    /// 2D array.
    D2Array,
}

/// A sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerDesc {
    /// Magnification filter.
    pub mag: vk::Filter,
    /// Minification filter.
    pub min: vk::Filter,
    /// Mip filter.
    pub mip: vk::SamplerMipmapMode,
    /// U, V, W address modes.
    pub address: [vk::SamplerAddressMode; 3],
    /// Unnormalized coordinates.
    pub unnormalized: bool,
    /// Depth comparison.
    pub compare: Option<vk::CompareOp>,
    /// Border colour.
    pub border: vk::BorderColor,
}

impl Default for SamplerDesc {
    /// Nearest filtering, clamp to edge, normalized coordinates.
    fn default() -> Self {
        SamplerDesc {
            mag: vk::Filter::NEAREST,
            min: vk::Filter::NEAREST,
            mip: vk::SamplerMipmapMode::NEAREST,
            address: [vk::SamplerAddressMode::CLAMP_TO_EDGE; 3],
            unnormalized: false,
            compare: None,
            border: vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
        }
    }
}

/// One image of a run.
#[derive(Debug, Clone, Copy)]
pub struct ImageInput<'a> {
    /// The binding (one of the program's [`ImageSlot`]s).
    pub binding: u32,
    /// The element of the binding's descriptor array (0 for a single
    /// descriptor).
    pub element: u32,
    /// The texel format.
    pub format: vk::Format,
    /// The view type.
    pub dim: ImageDim,
    /// Width, height, and depth (3D) or layers (arrays, cubes: 6 per cube).
    pub extent: [u32; 3],
    /// The texels: rows tightly packed, then slices or layers; exactly
    /// `width × height × depth-or-layers × texel bytes`.
    pub texels: &'a [u8],
    /// The sampler of a sampled slot (none for a storage slot).
    pub sampler: Option<SamplerDesc>,
    /// Copy the texels back after the run (storage images).
    pub read_back: bool,
}

/// Bytes per texel of the formats the harness accepts.
pub fn texel_bytes(f: vk::Format) -> Option<u32> {
    use vk::Format as F;
    Some(match f {
        F::R8_UNORM | F::R8_SNORM | F::R8_UINT | F::R8_SINT | F::R8_USCALED | F::R8_SSCALED => 1,
        F::R8G8_UNORM | F::R8G8_SNORM | F::R8G8_UINT | F::R8G8_SINT => 2,
        F::R16_UNORM | F::R16_SNORM | F::R16_UINT | F::R16_SINT | F::R16_SFLOAT => 2,
        F::R8G8B8A8_UNORM | F::R8G8B8A8_SNORM | F::R8G8B8A8_UINT | F::R8G8B8A8_SINT => 4,
        F::R8G8B8A8_SRGB | F::B8G8R8A8_UNORM => 4,
        F::R16G16_UNORM | F::R16G16_SNORM | F::R16G16_UINT | F::R16G16_SINT => 4,
        F::R16G16_SFLOAT | F::R32_UINT | F::R32_SINT | F::R32_SFLOAT => 4,
        F::A2B10G10R10_UNORM_PACK32 | F::A2B10G10R10_UINT_PACK32 => 4,
        F::B10G11R11_UFLOAT_PACK32 | F::E5B9G9R9_UFLOAT_PACK32 => 4,
        F::R16G16B16A16_UNORM | F::R16G16B16A16_SNORM | F::R16G16B16A16_UINT => 8,
        F::R16G16B16A16_SINT | F::R16G16B16A16_SFLOAT => 8,
        F::R32G32_UINT | F::R32G32_SINT | F::R32G32_SFLOAT => 8,
        F::R32G32B32A32_UINT | F::R32G32B32A32_SINT | F::R32G32B32A32_SFLOAT => 16,
        F::D32_SFLOAT => 4,
        F::D16_UNORM => 2,
        _ => return None,
    })
}

/// The device objects of one run's image.
pub(crate) struct RunImage {
    pub(crate) binding: u32,
    pub(crate) element: u32,
    pub(crate) image: vk::Image,
    pub(crate) memory: vk::DeviceMemory,
    pub(crate) view: vk::ImageView,
    pub(crate) sampler: vk::Sampler,
    pub(crate) kind: ImageSlotKind,
    /// The extent and layers of the copies.
    pub(crate) extent: vk::Extent3D,
    pub(crate) layers: u32,
    pub(crate) aspect: vk::ImageAspectFlags,
    /// Index of the staging buffer in the run's buffers.
    pub(crate) staging: usize,
    /// Index of the read-back buffer, if any.
    pub(crate) read_back: Option<usize>,
}

/// Check a run's images against the program's slots: one per slot, of
/// the slot's kind (a sampler exactly for sampled slots), a known format,
/// a non-zero extent and the right number of texel bytes.
pub(crate) fn check_run_images(
    slots: &[ImageSlot],
    images: &[ImageInput<'_>],
) -> Result<(), HarnessError> {
    let bad = |s: String| Err(HarnessError::Input(s));
    for s in slots {
        let count = s.count.max(1);
        for e in 0..count {
            let n = images
                .iter()
                .filter(|i| i.binding == s.binding && i.element == e)
                .count();
            if n != 1 {
                return bad(format!(
                    "image binding {} given {n} images for element {e}; a run needs exactly one",
                    s.binding
                ));
            }
        }
        if let Some(i) = images
            .iter()
            .find(|i| i.binding == s.binding && i.element >= count)
        {
            return bad(format!(
                "image binding {} holds {count} descriptors; element {} given",
                s.binding, i.element
            ));
        }
    }
    for i in images {
        let Some(slot) = slots.iter().find(|s| s.binding == i.binding) else {
            return bad(format!(
                "image for binding {}, which the program does not have",
                i.binding
            ));
        };
        if (slot.kind == ImageSlotKind::Sampled) != i.sampler.is_some() {
            return bad(format!(
                "image binding {}: a sampled binding needs a sampler, a storage binding none",
                i.binding
            ));
        }
        let Some(bpe) = texel_bytes(i.format) else {
            return bad(format!(
                "image binding {}: format {:?} is not supported",
                i.binding, i.format
            ));
        };
        let [w, h, d] = i.extent;
        let shape_ok = match i.dim {
            ImageDim::D1 => h == 1 && d == 1,
            ImageDim::D1Array => h == 1,
            ImageDim::D2 => d == 1,
            ImageDim::Cube => w == h && d % 6 == 0,
            _ => true,
        };
        if w == 0 || h == 0 || d == 0 || !shape_ok || w > 4096 || h > 4096 || d > 256 {
            return bad(format!(
                "image binding {}: extent {:?} does not fit a {:?} image",
                i.binding, i.extent, i.dim
            ));
        }
        let want = w as u64 * h as u64 * d as u64 * bpe as u64;
        if i.texels.len() as u64 != want {
            return bad(format!(
                "image binding {}: {} texel bytes given, {want} needed",
                i.binding,
                i.texels.len()
            ));
        }
    }
    Ok(())
}

impl RunResources<'_> {
    /// Make every image of a run (checked by [`check_run_images`] against
    /// `slots`).
    pub(crate) fn add_images(
        &mut self,
        slots: &[ImageSlot],
        images: &[ImageInput<'_>],
    ) -> Result<(), HarnessError> {
        for i in images {
            let kind = slots
                .iter()
                .find(|s| s.binding == i.binding)
                .map_or(ImageSlotKind::Sampled, |s| s.kind);
            self.add_image(i, kind)?;
        }
        Ok(())
    }

    /// Make the image, view, sampler, staging and read-back buffers of
    /// `input` (checked by [`check_run_images`]).
    pub(crate) fn add_image(
        &mut self,
        input: &ImageInput<'_>,
        kind: ImageSlotKind,
    ) -> Result<(), HarnessError> {
        let h = self.h;
        let dev = &h.device;
        let [w, hgt, d] = input.extent;
        let (ty, view_ty, extent, layers) = match input.dim {
            ImageDim::D1 => (
                vk::ImageType::TYPE_1D,
                vk::ImageViewType::TYPE_1D,
                [w, 1, 1],
                1,
            ),
            ImageDim::D1Array => (
                vk::ImageType::TYPE_1D,
                vk::ImageViewType::TYPE_1D_ARRAY,
                [w, 1, 1],
                d,
            ),
            ImageDim::D2 => (
                vk::ImageType::TYPE_2D,
                vk::ImageViewType::TYPE_2D,
                [w, hgt, 1],
                1,
            ),
            ImageDim::D2Array => (
                vk::ImageType::TYPE_2D,
                vk::ImageViewType::TYPE_2D_ARRAY,
                [w, hgt, 1],
                d,
            ),
            ImageDim::Cube => (
                vk::ImageType::TYPE_2D,
                vk::ImageViewType::CUBE,
                [w, hgt, 1],
                d,
            ),
            ImageDim::D3 => (
                vk::ImageType::TYPE_3D,
                vk::ImageViewType::TYPE_3D,
                [w, hgt, d],
                1,
            ),
        };
        let depth_format = matches!(input.format, vk::Format::D32_SFLOAT | vk::Format::D16_UNORM);
        let aspect = if depth_format {
            vk::ImageAspectFlags::DEPTH
        } else {
            vk::ImageAspectFlags::COLOR
        };
        let mut usage = vk::ImageUsageFlags::SAMPLED
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::TRANSFER_SRC;
        let mut need = vk::FormatFeatureFlags::SAMPLED_IMAGE;
        if kind == ImageSlotKind::Storage {
            usage |= vk::ImageUsageFlags::STORAGE;
            need = vk::FormatFeatureFlags::STORAGE_IMAGE;
        }
        // SAFETY: a physical device of this instance.
        let props = unsafe {
            h.instance
                .get_physical_device_format_properties(h.physical, input.format)
        };
        if !props.optimal_tiling_features.contains(need) {
            return Err(HarnessError::Unsupported {
                device: h.device_info().name.clone(),
                what: format!("format {:?} has no {need:?} support", input.format),
            });
        }
        let extent = vk::Extent3D {
            width: extent[0],
            height: extent[1],
            depth: extent[2],
        };
        let flags = if input.dim == ImageDim::Cube {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        };
        let info = vk::ImageCreateInfo::default()
            .flags(flags)
            .image_type(ty)
            .format(input.format)
            .extent(extent)
            .mip_levels(1)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: the extent, layers and format were checked
        // (`check_run_images`, format features above).
        let image = vkr("vkCreateImage", unsafe { dev.create_image(&info, None) })?;
        self.images.push(RunImage {
            binding: input.binding,
            element: input.element,
            image,
            memory: vk::DeviceMemory::null(),
            view: vk::ImageView::null(),
            sampler: vk::Sampler::null(),
            kind,
            extent,
            layers,
            aspect,
            staging: 0,
            read_back: None,
        });
        let last = self.images.len() - 1;
        // SAFETY: a live image.
        let req = unsafe { dev.get_image_memory_requirements(image) };
        if req.memory_type_bits == 0 {
            return Err(HarnessError::Unsupported {
                device: h.device_info().name.clone(),
                what: "no memory type for an image".into(),
            });
        }
        let ainfo = vk::MemoryAllocateInfo::default()
            .allocation_size(req.size)
            .memory_type_index(req.memory_type_bits.trailing_zeros());
        // SAFETY: a memory type the image allows, the size it asked for.
        let memory = vkr("vkAllocateMemory", unsafe {
            dev.allocate_memory(&ainfo, None)
        })?;
        self.images[last].memory = memory;
        // SAFETY: unbound image, fresh compatible memory, offset 0.
        vkr("vkBindImageMemory", unsafe {
            dev.bind_image_memory(image, memory, 0)
        })?;
        let range = vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: layers,
        };
        let vinfo = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(view_ty)
            .format(input.format)
            .subresource_range(range);
        // SAFETY: a live image with memory; the view type fits its type and
        // layers (cube: 6·n layers of a square cube-compatible image).
        self.images[last].view = vkr("vkCreateImageView", unsafe {
            dev.create_image_view(&vinfo, None)
        })?;
        if let Some(s) = input.sampler {
            let mut sinfo = vk::SamplerCreateInfo::default()
                .mag_filter(s.mag)
                .min_filter(s.min)
                .mipmap_mode(s.mip)
                .address_mode_u(s.address[0])
                .address_mode_v(s.address[1])
                .address_mode_w(s.address[2])
                .border_color(s.border)
                .unnormalized_coordinates(s.unnormalized)
                .min_lod(0.0)
                .max_lod(if s.unnormalized { 0.0 } else { 1000.0 });
            if let Some(op) = s.compare {
                sinfo = sinfo.compare_enable(true).compare_op(op);
            }
            // SAFETY: valid create info (unnormalized samplers have
            // matching filters and lod range only when the caller asks so;
            // the validation rules are the caller's input contract).
            self.images[last].sampler = vkr("vkCreateSampler", unsafe {
                dev.create_sampler(&sinfo, None)
            })?;
        }
        let bytes = input.texels.len() as u64;
        self.add_buffer_for(input.texels, bytes, vk::BufferUsageFlags::TRANSFER_SRC)?;
        self.images[last].staging = self.buffers.len() - 1;
        if input.read_back {
            self.add_buffer_for(&[], bytes, vk::BufferUsageFlags::TRANSFER_DST)?;
            self.images[last].read_back = Some(self.buffers.len() - 1);
        }
        Ok(())
    }

    /// Descriptor writes for the run's images into `set` (each binding is a
    /// combined image sampler or storage image of the set's layout).
    pub(crate) fn write_image_descriptors(&self, set: vk::DescriptorSet) {
        let infos: Vec<[vk::DescriptorImageInfo; 1]> = self
            .images
            .iter()
            .map(|i| {
                [vk::DescriptorImageInfo::default()
                    .sampler(i.sampler)
                    .image_view(i.view)
                    .image_layout(vk::ImageLayout::GENERAL)]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = self
            .images
            .iter()
            .zip(&infos)
            .map(|(i, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(i.binding)
                    .dst_array_element(i.element)
                    .descriptor_type(descriptor_type(i.kind))
                    .image_info(info)
            })
            .collect();
        // SAFETY: each write targets a binding of the set's layout of the
        // same descriptor type (the program's slots) with a live view (and
        // sampler, for combined image samplers) in GENERAL layout at use.
        unsafe { self.h.device.update_descriptor_sets(&writes, &[]) };
    }

    /// The handles the recording of a run's image copies needs.
    pub(crate) fn image_copies(&self) -> Vec<ImageCopy> {
        self.images
            .iter()
            .map(|i| ImageCopy {
                image: i.image,
                staging: self.buffers[i.staging].0,
                read_back: i.read_back.map(|r| self.buffers[r].0),
                extent: i.extent,
                layers: i.layers,
                aspect: i.aspect,
            })
            .collect()
    }

    /// Which of the run's buffers to read back after the submission: the
    /// storage buffers' `read_back` flags (the first `flags`), then the
    /// images' read-back buffers.
    pub(crate) fn read_back_flags(&self, flags: impl Iterator<Item = bool>) -> Vec<bool> {
        let mut out: Vec<bool> = flags.collect();
        out.resize(self.buffers.len(), false);
        for i in &self.images {
            if let Some(r) = i.read_back {
                out[r] = true;
            }
        }
        out
    }

    /// (binding, buffer index) of every read-back image.
    pub(crate) fn image_read_backs(&self) -> Vec<(u32, usize)> {
        self.images
            .iter()
            .filter_map(|i| i.read_back.map(|r| (i.binding, r)))
            .collect()
    }
}

/// The handles of one image's copies.
#[derive(Clone, Copy)]
pub(crate) struct ImageCopy {
    image: vk::Image,
    staging: vk::Buffer,
    read_back: Option<vk::Buffer>,
    extent: vk::Extent3D,
    layers: u32,
    aspect: vk::ImageAspectFlags,
}

/// The descriptor type of a slot kind.
pub(crate) fn descriptor_type(k: ImageSlotKind) -> vk::DescriptorType {
    match k {
        ImageSlotKind::Sampled => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        ImageSlotKind::Storage => vk::DescriptorType::STORAGE_IMAGE,
    }
}

/// Record the uploads: every image to TRANSFER_DST, the staging copy,
/// then GENERAL for the shaders.
pub(crate) fn record_uploads(images: &[ImageCopy], dev: &ash::Device, cmd: vk::CommandBuffer) {
    for i in images {
        let range = range(i);
        let to_dst = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(i.image)
            .subresource_range(range);
        let to_general = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(vk::ImageLayout::GENERAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(i.image)
            .subresource_range(range);
        let copy = [copy_region(i)];
        // SAFETY: recording state, outside a render pass; the image and
        // staging buffer are live, the region lies inside both (the
        // texel count was checked).
        unsafe {
            dev.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_dst],
            );
            dev.cmd_copy_buffer_to_image(
                cmd,
                i.staging,
                i.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &copy,
            );
            dev.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::VERTEX_SHADER
                    | vk::PipelineStageFlags::FRAGMENT_SHADER
                    | vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_general],
            );
        }
    }
}

/// Record the copies of the read-back images into their buffers, and
/// make them visible to the host.
pub(crate) fn record_read_backs(images: &[ImageCopy], dev: &ash::Device, cmd: vk::CommandBuffer) {
    for i in images {
        let Some(rb) = i.read_back else { continue };
        let barrier = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
            .old_layout(vk::ImageLayout::GENERAL)
            .new_layout(vk::ImageLayout::GENERAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(i.image)
            .subresource_range(range(i));
        let copy = [copy_region(i)];
        let host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: recording state, outside a render pass; live image
        // and buffer, the region inside both.
        unsafe {
            dev.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::VERTEX_SHADER
                    | vk::PipelineStageFlags::FRAGMENT_SHADER
                    | vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[barrier],
            );
            dev.cmd_copy_image_to_buffer(cmd, i.image, vk::ImageLayout::GENERAL, rb, &copy);
            dev.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &host,
                &[],
                &[],
            );
        }
    }
}

fn range(i: &ImageCopy) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: i.aspect,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: i.layers,
    }
}

fn copy_region(i: &ImageCopy) -> vk::BufferImageCopy {
    vk::BufferImageCopy {
        buffer_offset: 0,
        buffer_row_length: 0,
        buffer_image_height: 0,
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: i.aspect,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: i.layers,
        },
        image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
        image_extent: i.extent,
    }
}
