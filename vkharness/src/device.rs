//! The Vulkan instance, device and queue, made once.

use crate::{vkr, HarnessError};
use ash::vk;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Which physical device to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeviceChoice {
    /// The first CPU device (lavapipe); an error if there is none.
    #[default]
    Default,
    /// The device at this index of the loader's enumeration (see
    /// [`list_devices`]).
    Index(usize),
}

/// A physical device as the loader reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Index in the loader's enumeration (`--device N`).
    pub index: usize,
    /// `deviceName`, like `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// The device type, like `CPU` or `DISCRETE_GPU`.
    pub device_type: String,
    /// Vulkan API version as `major.minor.patch`.
    pub api_version: String,
    /// True for a CPU device (the default choice).
    pub is_cpu: bool,
}

/// Limits of the chosen device that the harness checks against.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub max_push_constants_size: u32,
    pub max_storage_buffers: u32,
    pub max_storage_buffer_range: u32,
}

/// The queue and the one command buffer runs record into; runs are
/// serialised through this.
pub(crate) struct Submitter {
    pub queue: vk::Queue,
    pub pool: vk::CommandPool,
    pub cmd: vk::CommandBuffer,
    pub fence: vk::Fence,
}

/// The stages every pipeline layout (descriptor bindings and push-constant
/// range) is declared for: vertex programs, the two stages of fragment
/// programs and compute programs share the layout cache.
pub(crate) const LAYOUT_STAGES: vk::ShaderStageFlags = vk::ShaderStageFlags::from_raw(
    vk::ShaderStageFlags::VERTEX.as_raw()
        | vk::ShaderStageFlags::FRAGMENT.as_raw()
        | vk::ShaderStageFlags::COMPUTE.as_raw(),
);

/// The shape of a layout: storage-buffer bindings, image slots, push bytes.
type LayoutKey = (Vec<u32>, Vec<crate::ImageSlot>, u32);

/// A descriptor-set layout and the pipeline layout made from it.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    pub set: vk::DescriptorSetLayout,
    pub pipeline: vk::PipelineLayout,
}

/// A Vulkan device ready to run vertex programs: instance, device, queue,
/// an attachment-less render pass and framebuffer, a pipeline cache and the
/// cache of pipeline layouts.
///
/// Make one per process (see [`Harness::shared`]); it is `Send + Sync`, and
/// runs from several threads are serialised on its queue.
pub struct Harness {
    // Declared first so the library outlives every handle below.
    _entry: ash::Entry,
    pub(crate) instance: ash::Instance,
    /// The physical device.
    pub(crate) physical: vk::PhysicalDevice,
    pub(crate) device: ash::Device,
    info: DeviceInfo,
    pub(crate) limits: Limits,
    pub(crate) robust: bool,
    /// `fragmentStoresAndAtomics` is enabled (fragment programs need it).
    pub(crate) fragment_stores: bool,
    /// Sampled-image descriptor arrays with a dynamically uniform index
    /// (`shaderSampledImageArrayDynamicIndexing`, enabled).
    pub(crate) descriptor_arrays: bool,
    /// SPIR-V capabilities a module may declare (the subgroup families:
    /// those of the vertex stage).
    pub(crate) capabilities: Vec<u32>,
    /// The same for fragment modules (the fragment stage's subgroup
    /// families).
    pub(crate) fragment_capabilities: Vec<u32>,
    /// Lanes per subgroup.
    subgroup_size: u32,
    /// Memory type indices that are host-visible and host-coherent, best
    /// first (host-cached ones first).
    pub(crate) host_types: Vec<u32>,
    pub(crate) render_pass: vk::RenderPass,
    pub(crate) framebuffer: vk::Framebuffer,
    pub(crate) pipeline_cache: vk::PipelineCache,
    layouts: Mutex<HashMap<LayoutKey, Layout>>,
    submitter: Mutex<Submitter>,
    poisoned: AtomicBool,
}

fn api_string(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

fn type_name(t: vk::PhysicalDeviceType) -> String {
    match t {
        vk::PhysicalDeviceType::CPU => "CPU".into(),
        vk::PhysicalDeviceType::DISCRETE_GPU => "DISCRETE_GPU".into(),
        vk::PhysicalDeviceType::INTEGRATED_GPU => "INTEGRATED_GPU".into(),
        vk::PhysicalDeviceType::VIRTUAL_GPU => "VIRTUAL_GPU".into(),
        _ => "OTHER".into(),
    }
}

/// Load the loader and make an instance (Vulkan 1.1, no layers, no
/// extensions).
fn make_instance() -> Result<(ash::Entry, ash::Instance), HarnessError> {
    // SAFETY: loading the system Vulkan loader runs its initialisers; the
    // loader is a well-behaved shared library and nothing else in this
    // process unloads it while the returned Entry lives.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| HarnessError::NoLoader(e.to_string()))?;
    let app = vk::ApplicationInfo::default()
        .application_name(c"shaderlift")
        .api_version(vk::API_VERSION_1_1);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    // SAFETY: `info` and the `app` it points to are valid for the call; no
    // layers or extensions are requested.
    let instance = match unsafe { entry.create_instance(&info, None) } {
        Ok(i) => i,
        Err(vk::Result::ERROR_INCOMPATIBLE_DRIVER) => return Err(HarnessError::NoDevice),
        Err(result) => {
            return Err(HarnessError::Vulkan {
                call: "vkCreateInstance",
                result,
            })
        }
    };
    Ok((entry, instance))
}

/// The physical devices of an instance with their descriptions.
fn enumerate(
    instance: &ash::Instance,
) -> Result<Vec<(vk::PhysicalDevice, DeviceInfo)>, HarnessError> {
    // SAFETY: `instance` is a live instance.
    let devices = vkr("vkEnumeratePhysicalDevices", unsafe {
        instance.enumerate_physical_devices()
    })?;
    let mut out = Vec::with_capacity(devices.len());
    for (index, pd) in devices.into_iter().enumerate() {
        // SAFETY: `pd` was just enumerated from `instance`.
        let props = unsafe { instance.get_physical_device_properties(pd) };
        let name = props
            .device_name_as_c_str()
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "(unnamed)".into());
        out.push((
            pd,
            DeviceInfo {
                index,
                name,
                device_type: type_name(props.device_type),
                api_version: api_string(props.api_version),
                is_cpu: props.device_type == vk::PhysicalDeviceType::CPU,
            },
        ));
    }
    Ok(out)
}

/// Destroys the instance when creation fails half way.
struct InstanceGuard(Option<ash::Instance>);

impl Drop for InstanceGuard {
    fn drop(&mut self) {
        if let Some(i) = self.0.take() {
            // SAFETY: every child object of the instance was destroyed or
            // never made (the device guard drops first).
            unsafe { i.destroy_instance(None) };
        }
    }
}

/// Every physical device the loader reports, in `--device N` order.
pub fn list_devices() -> Result<Vec<DeviceInfo>, HarnessError> {
    let (_entry, instance) = make_instance()?;
    let guard = InstanceGuard(Some(instance));
    let list = enumerate(guard.0.as_ref().expect("set above"))?;
    Ok(list.into_iter().map(|(_, i)| i).collect())
}

/// True when `SHADERLIFT_REQUIRE_VULKAN` asks tests not to skip.
fn vulkan_required() -> bool {
    std::env::var_os("SHADERLIFT_REQUIRE_VULKAN").is_some_and(|v| !v.is_empty() && v != "0")
}

static SHARED: OnceLock<Result<Harness, HarnessError>> = OnceLock::new();

impl Harness {
    /// The process-wide harness on the default device (lavapipe), made on
    /// first use. Tests share it so the device is created once per test
    /// binary.
    pub fn shared() -> Result<&'static Harness, HarnessError> {
        SHARED
            .get_or_init(|| Harness::new(DeviceChoice::Default))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// [`Harness::shared`] for tests: `None` (after printing a note on
    /// stderr naming `test`) when this machine has no usable Vulkan device,
    /// so the test can return early; any other error panics.
    ///
    /// With the environment variable `SHADERLIFT_REQUIRE_VULKAN` set to a
    /// nonempty value other than `0` (`.ci/run` sets it), a missing device
    /// panics too, so CI cannot pass by skipping.
    pub fn shared_or_skip(test: &str) -> Option<&'static Harness> {
        match Harness::shared() {
            Ok(h) => Some(h),
            Err(e) if e.is_unavailable() && !vulkan_required() => {
                eprintln!("note: {test}: skipped, no Vulkan device: {e}");
                None
            }
            Err(e) => panic!("{test}: Vulkan harness unavailable: {e}"),
        }
    }

    /// Make a harness on the chosen device.
    pub fn new(choice: DeviceChoice) -> Result<Harness, HarnessError> {
        let (entry, instance) = make_instance()?;
        let mut iguard = InstanceGuard(Some(instance));
        let instance = iguard.0.as_ref().expect("set above");
        let devices = enumerate(instance)?;
        if devices.is_empty() {
            return Err(HarnessError::NoDevice);
        }
        let available: Vec<String> = devices
            .iter()
            .map(|(_, i)| format!("{}: {}", i.index, i.name))
            .collect();
        let (pd, info) =
            match choice {
                DeviceChoice::Default => devices
                    .iter()
                    .find(|(_, i)| i.is_cpu)
                    .cloned()
                    .ok_or_else(|| HarnessError::NoCpuDevice {
                        available: available.clone(),
                    })?,
                DeviceChoice::Index(n) => {
                    devices
                        .get(n)
                        .cloned()
                        .ok_or_else(|| HarnessError::DeviceIndex {
                            index: n,
                            count: devices.len(),
                            available: available.clone(),
                        })?
                }
            };
        let unsupported = |what: String| HarnessError::Unsupported {
            device: info.name.clone(),
            what,
        };

        // SAFETY: `pd` belongs to `instance`.
        let props = unsafe { instance.get_physical_device_properties(pd) };
        if props.api_version < vk::API_VERSION_1_1 {
            return Err(unsupported(format!(
                "Vulkan {} (1.1 is needed for SPIR-V 1.3)",
                api_string(props.api_version)
            )));
        }
        // SAFETY: as above.
        let features = unsafe { instance.get_physical_device_features(pd) };
        let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut subgroup);
        // SAFETY: a Vulkan 1.1 instance and device (checked above); the
        // chained structure is valid and writable.
        unsafe { instance.get_physical_device_properties2(pd, &mut props2) };
        // The subgroup operations the device offers in `stage` (none when
        // the stage has no subgroup operations).
        let ops_in = |stage: vk::ShaderStageFlags| {
            if subgroup.supported_stages.contains(stage) {
                subgroup.supported_operations
            } else {
                vk::SubgroupFeatureFlags::empty()
            }
        };
        let subgroup_vertex_ops = ops_in(vk::ShaderStageFlags::VERTEX);
        // Fragment modules may use what the fragment stage offers
        // (translated DPP quad permutations are subgroup shuffles); a
        // module using more is refused.
        let subgroup_fragment_ops = ops_in(vk::ShaderStageFlags::FRAGMENT);
        let subgroup_size = subgroup.subgroup_size;
        if features.vertex_pipeline_stores_and_atomics == vk::FALSE {
            return Err(unsupported("no vertexPipelineStoresAndAtomics".into()));
        }
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or_else(|| unsupported("no graphics queue".into()))? as u32;
        // SAFETY: as above.
        let mem = unsafe { instance.get_physical_device_memory_properties(pd) };
        let mut host_types: Vec<(bool, u32)> = (0..mem.memory_type_count)
            .filter_map(|i| {
                let f = mem.memory_types[i as usize].property_flags;
                let want =
                    vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
                f.contains(want)
                    .then_some((!f.contains(vk::MemoryPropertyFlags::HOST_CACHED), i))
            })
            .collect();
        host_types.sort();
        if host_types.is_empty() {
            return Err(unsupported("no host-visible coherent memory".into()));
        }

        // Sampled-image arrays read with a dynamically uniform index.
        let descriptor_arrays = features.shader_sampled_image_array_dynamic_indexing == vk::TRUE;
        let enabled = vk::PhysicalDeviceFeatures {
            vertex_pipeline_stores_and_atomics: vk::TRUE,
            fragment_stores_and_atomics: features.fragment_stores_and_atomics,
            robust_buffer_access: features.robust_buffer_access,
            shader_int64: features.shader_int64,
            shader_int16: features.shader_int16,
            shader_float64: features.shader_float64,
            shader_storage_image_read_without_format: features
                .shader_storage_image_read_without_format,
            shader_storage_image_write_without_format: features
                .shader_storage_image_write_without_format,
            shader_sampled_image_array_dynamic_indexing: features
                .shader_sampled_image_array_dynamic_indexing,
            ..Default::default()
        };
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let dinfo = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&enabled);
        // SAFETY: `pd` belongs to `instance`; the queue family exists and
        // every enabled feature was reported as supported.
        let device = vkr("vkCreateDevice", unsafe {
            instance.create_device(pd, &dinfo, None)
        })?;
        // SAFETY: queue 0 of `family` was requested at device creation.
        let queue = unsafe { device.get_device_queue(family, 0) };

        // From here on the harness owns everything; the objects not made
        // yet are null handles, which Drop passes to vkDestroy* (a no-op
        // the specification allows), so a failure part way cleans up.
        let mut h = Harness {
            _entry: entry,
            instance: iguard.0.take().expect("set above"),
            physical: pd,
            device,
            info,
            limits: Limits {
                max_push_constants_size: props.limits.max_push_constants_size,
                max_storage_buffers: props.limits.max_per_stage_descriptor_storage_buffers,
                max_storage_buffer_range: props.limits.max_storage_buffer_range,
            },
            robust: features.robust_buffer_access == vk::TRUE,
            fragment_stores: features.fragment_stores_and_atomics == vk::TRUE,
            descriptor_arrays,
            capabilities: crate::check::allowed_capabilities(
                &enabled,
                subgroup_vertex_ops,
                descriptor_arrays,
            ),
            fragment_capabilities: crate::check::allowed_capabilities(
                &enabled,
                subgroup_fragment_ops,
                descriptor_arrays,
            ),
            subgroup_size,
            host_types: host_types.into_iter().map(|(_, i)| i).collect(),
            render_pass: vk::RenderPass::null(),
            framebuffer: vk::Framebuffer::null(),
            pipeline_cache: vk::PipelineCache::null(),
            layouts: Mutex::new(HashMap::new()),
            submitter: Mutex::new(Submitter {
                queue,
                pool: vk::CommandPool::null(),
                cmd: vk::CommandBuffer::null(),
                fence: vk::Fence::null(),
            }),
            poisoned: AtomicBool::new(false),
        };
        let device = &h.device;
        let sub = h.submitter.get_mut().unwrap_or_else(|e| e.into_inner());
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid create info for a live device.
        sub.pool = vkr("vkCreateCommandPool", unsafe {
            device.create_command_pool(&pool_info, None)
        })?;
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(sub.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: `sub.pool` is a live pool of this device.
        sub.cmd = vkr("vkAllocateCommandBuffers", unsafe {
            device.allocate_command_buffers(&alloc)
        })?[0];
        // SAFETY: valid create info.
        sub.fence = vkr("vkCreateFence", unsafe {
            device.create_fence(&vk::FenceCreateInfo::default(), None)
        })?;
        let subpasses =
            [vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)];
        let rp_info = vk::RenderPassCreateInfo::default().subpasses(&subpasses);
        // SAFETY: one subpass without attachments is a valid render pass.
        h.render_pass = vkr("vkCreateRenderPass", unsafe {
            h.device.create_render_pass(&rp_info, None)
        })?;
        let fb_info = vk::FramebufferCreateInfo::default()
            .render_pass(h.render_pass)
            .width(crate::fragment::MAX_EXTENT)
            .height(crate::fragment::MAX_EXTENT)
            .layers(1);
        // SAFETY: an attachment-less framebuffer of a live render pass.
        h.framebuffer = vkr("vkCreateFramebuffer", unsafe {
            h.device.create_framebuffer(&fb_info, None)
        })?;
        // SAFETY: an empty pipeline cache.
        h.pipeline_cache = vkr("vkCreatePipelineCache", unsafe {
            h.device
                .create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)
        })?;
        Ok(h)
    }

    /// The device this harness runs on.
    pub fn device_info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Lanes per subgroup (8 on lavapipe with 256-bit vectors).
    pub fn subgroup_size(&self) -> u32 {
        self.subgroup_size
    }

    /// The largest storage buffer a binding may hold, in bytes
    /// (`maxStorageBufferRange`).
    pub fn max_storage_buffer_range(&self) -> u64 {
        u64::from(self.limits.max_storage_buffer_range)
    }

    /// The largest push-constant block, in bytes (`maxPushConstantsSize`).
    pub fn max_push_constant_bytes(&self) -> u32 {
        self.limits.max_push_constants_size
    }

    /// True when `robustBufferAccess` is on (out-of-range accesses of a
    /// wrong shader stay inside its buffers).
    pub fn robust_buffer_access(&self) -> bool {
        self.robust
    }

    /// Can a program index a sampled-image descriptor array
    /// ([`crate::ImageSlot::count`] above 1) with a dynamically uniform
    /// index (`shaderSampledImageArrayDynamicIndexing`, SPIR-V
    /// `SampledImageArrayDynamicIndexing`)? A constant index needs nothing.
    pub fn descriptor_arrays(&self) -> bool {
        self.descriptor_arrays
    }

    pub(crate) fn check_poison(&self) -> Result<(), HarnessError> {
        if self.poisoned.load(Ordering::Acquire) {
            Err(HarnessError::Poisoned)
        } else {
            Ok(())
        }
    }

    pub(crate) fn poison(&self) {
        self.poisoned.store(true, Ordering::Release);
    }

    pub(crate) fn submitter(&self) -> MutexGuard<'_, Submitter> {
        // A panic while holding the lock leaves the command buffer in some
        // state; each run resets it, so the data is still usable.
        self.submitter.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The layout for storage buffers at `bindings` (sorted, distinct) and
    /// a push-constant range of `push_bytes` (a multiple of 4; 0 for none),
    /// made once per shape.
    pub(crate) fn layout(
        &self,
        bindings: &[u32],
        images: &[crate::ImageSlot],
        push_bytes: u32,
    ) -> Result<Layout, HarnessError> {
        let mut cache = self.layouts.lock().unwrap_or_else(|e| e.into_inner());
        let key = (bindings.to_vec(), images.to_vec(), push_bytes);
        if let Some(l) = cache.get(&key) {
            return Ok(*l);
        }
        let decls: Vec<vk::DescriptorSetLayoutBinding> = bindings
            .iter()
            .map(|&b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(LAYOUT_STAGES)
            })
            .chain(images.iter().map(|i| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i.binding)
                    .descriptor_type(crate::image::descriptor_type(i.kind))
                    .descriptor_count(i.count.max(1))
                    .stage_flags(LAYOUT_STAGES)
            }))
            .collect();
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&decls);
        // SAFETY: distinct binding numbers (the caller sorts and dedups),
        // within the device's per-stage limit (checked by the caller).
        let set = vkr("vkCreateDescriptorSetLayout", unsafe {
            self.device.create_descriptor_set_layout(&info, None)
        })?;
        let sets = [set];
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(LAYOUT_STAGES)
            .offset(0)
            .size(push_bytes)];
        let mut pinfo = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
        if push_bytes > 0 {
            pinfo = pinfo.push_constant_ranges(&ranges);
        }
        // SAFETY: `set` is live; the push range is a nonzero multiple of 4
        // within maxPushConstantsSize (checked by the caller).
        let pipeline = match unsafe { self.device.create_pipeline_layout(&pinfo, None) } {
            Ok(p) => p,
            Err(result) => {
                // SAFETY: `set` was made above and is used by nothing.
                unsafe { self.device.destroy_descriptor_set_layout(set, None) };
                return Err(HarnessError::Vulkan {
                    call: "vkCreatePipelineLayout",
                    result,
                });
            }
        };
        let l = Layout { set, pipeline };
        cache.insert(key, l);
        Ok(l)
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        if self.poisoned.load(Ordering::Acquire) {
            // The device may still be executing a run that never finished;
            // destroying anything it uses is undefined, so leak it all.
            return;
        }
        let sub = self.submitter.get_mut().unwrap_or_else(|e| e.into_inner());
        // SAFETY: no run is in flight (runs wait for their fence before
        // returning, and `&mut self` excludes concurrent ones); every
        // VertexProgram borrows the harness, so all pipelines and shader
        // modules are already destroyed. Children go before the device,
        // the device before the instance.
        unsafe {
            let _ = self.device.device_wait_idle();
            for l in self
                .layouts
                .get_mut()
                .unwrap_or_else(|e| e.into_inner())
                .values()
            {
                self.device.destroy_pipeline_layout(l.pipeline, None);
                self.device.destroy_descriptor_set_layout(l.set, None);
            }
            self.device
                .destroy_pipeline_cache(self.pipeline_cache, None);
            self.device.destroy_framebuffer(self.framebuffer, None);
            self.device.destroy_render_pass(self.render_pass, None);
            self.device.destroy_fence(sub.fence, None);
            self.device.destroy_command_pool(sub.pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}
