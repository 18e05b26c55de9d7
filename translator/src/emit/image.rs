//! Images: the image (and sampler) variables of each image binding, and the
//! image instructions.
//!
//! A sampled binding is a combined image sampler the module reads through
//! two variables on one binding number, an `OpTypeImage` (sampled = 1) and an
//! `OpTypeSampler` (the form naga's SPIR-V front end reads; Vulkan accepts
//! both for a combined image sampler descriptor), joined by
//! `OpSampledImage` at each use. A storage binding is an `OpTypeImage`
//! (sampled = 2) of format `Rgba32f`/`Rgba32ui`/`Rgba32i` (naga refuses
//! storage images without a format): the host view must have that format.
//!
//! Every component of one image operation comes from one host instruction:
//! the first component emitted emits it, the others extract from its
//! result ([`Emitter::image_component`]).

use super::{EmitError, Emitter};
use crate::ir::{ImageLod, ImageOpKind, Ty, Value};
use crate::manifest::{ImageDim, ImageKind, SampledType};
use rspirv::dr::Operand;
use spirv::{Capability, Decoration, Dim, ImageFormat, ImageOperands, StorageClass, Word};

/// The variables and types of one image binding.
#[derive(Clone, Copy, Debug)]
pub(super) struct ImageVars {
    /// The image variable (`UniformConstant`).
    image: Word,
    /// Its image type.
    image_ty: Word,
    /// The sampler variable and the sampled-image type (sampled bindings).
    sampler: Option<(Word, Word)>,
    /// The result's component type (f32, u32 or i32).
    comp_ty: Word,
    /// `vec4` of that.
    vec_ty: Word,
    /// A descriptor array: the pointer types of one element's image and
    /// sampler.
    array: Option<(Word, Word)>,
}

/// (SPIR-V dim, arrayed) of an image dimension.
fn spirv_dim(d: ImageDim) -> (Dim, bool) {
    match d {
        ImageDim::D1 => (Dim::Dim1D, false),
        ImageDim::D2 => (Dim::Dim2D, false),
        ImageDim::D3 => (Dim::Dim3D, false),
        // A cube is sampled face by face: six layers of a 2D array.
        ImageDim::Cube => (Dim::Dim2D, true),
        ImageDim::D1Array => (Dim::Dim1D, true),
        ImageDim::D2Array => (Dim::Dim2D, true),
        ImageDim::D2Msaa => (Dim::Dim2D, false),
        ImageDim::D2MsaaArray => (Dim::Dim2D, true),
    }
}

/// The texel offset of an `_o` dword: x, y, z are signed 6-bit fields at
/// bits 0, 8 and 16.
pub(crate) fn offset_fields(dword: u32) -> [i32; 3] {
    [0, 8, 16].map(|s| (((dword >> s) & 0x3f) as i32) << 26 >> 26)
}

impl Emitter<'_> {
    /// Declare every image binding's variables (module level).
    pub(super) fn declare_images(&mut self) -> Result<(), EmitError> {
        let slots = self.plan.images.clone();
        let mut one_d = (false, false);
        for s in &slots {
            let (comp_ty, fmt) = match s.sampled_type {
                SampledType::Float => (self.t.f32_, ImageFormat::Rgba32f),
                SampledType::Uint => (self.t.u32_, ImageFormat::Rgba32ui),
                SampledType::Sint => (self.t.i32_, ImageFormat::Rgba32i),
            };
            let vec_ty = self.b.type_vector(comp_ty, 4);
            let (dim, arrayed) = spirv_dim(s.dim);
            let ms = matches!(s.dim, ImageDim::D2Msaa | ImageDim::D2MsaaArray);
            let sampled = s.kind == ImageKind::Sampled;
            if dim == Dim::Dim1D {
                if sampled {
                    one_d.0 = true;
                } else {
                    one_d.1 = true;
                }
            }
            let image_ty = self.b.type_image(
                comp_ty,
                dim,
                u32::from(s.depth),
                u32::from(arrayed),
                u32::from(ms),
                if sampled { 1 } else { 2 },
                if sampled { ImageFormat::Unknown } else { fmt },
                None,
            );
            let uc = StorageClass::UniformConstant;
            let elem_ptrs = match s.array {
                Some(_) => {
                    let st = self.t_sampler();
                    Some((
                        self.b.type_pointer(None, uc, image_ty),
                        self.b.type_pointer(None, uc, st),
                    ))
                }
                None => None,
            };
            // A descriptor array: `elements` descriptors, each read with a
            // constant index (`array_unrolled`).
            let var_ty = |e: &mut Self, ty: Word| match s.array {
                Some(a) => {
                    let n = e.const_u32(a.elements);
                    let t = e.b.type_array(ty, n);
                    e.b.type_pointer(None, uc, t)
                }
                None => e.b.type_pointer(None, uc, ty),
            };
            let p = var_ty(self, image_ty);
            let image = self.b.variable(p, None, uc, None);
            self.bind(image, s.binding, &format!("image{}", s.binding));
            let sampler = if sampled {
                let st = self.t_sampler();
                let sp = var_ty(self, st);
                let v = self.b.variable(sp, None, uc, None);
                self.bind(v, s.binding, &format!("sampler{}", s.binding));
                Some((v, self.b.type_sampled_image(image_ty)))
            } else {
                None
            };
            self.image_vars.push(ImageVars {
                image,
                image_ty,
                sampler,
                comp_ty,
                vec_ty,
                array: elem_ptrs,
            });
        }
        // naga splits an arrayed coordinate into its spatial part and the
        // layer, and needs the spatial part's vector type declared.
        if slots.iter().any(|s| {
            matches!(
                s.dim,
                ImageDim::D2Array | ImageDim::D2MsaaArray | ImageDim::Cube
            )
        }) {
            self.b.type_vector(self.t.f32_, 2);
            self.b.type_vector(self.t.i32_, 2);
        }
        if one_d.0 {
            self.b.capability(Capability::Sampled1D);
        }
        if one_d.1 {
            self.b.capability(Capability::Image1D);
        }
        Ok(())
    }

    fn t_sampler(&mut self) -> Word {
        self.b.type_sampler()
    }

    /// A descriptor-array operation's slot: the byte offset this lane
    /// reads at divided by the slot size, and whether it is bound (a slot
    /// boundary below the slots the host bound, push word, and below the
    /// array's length).
    fn array_slot(&mut self, op: u32) -> Result<(Word, Word, u32), EmitError> {
        let i = self.f.images[op as usize];
        let (Some(a), Some(slot)) = (i.array, self.plan.images[self.image_slot(op)?].array) else {
            return Err(EmitError("a descriptor array read without an index".into()));
        };
        let (u, bl) = (self.t.u32_, self.t.bool_);
        let off = self.vals[a.index.0 as usize];
        let scale = self.const_u32(a.scale);
        let zero = self.const_u32(0);
        let k = self.b.u_div(u, None, off, scale)?;
        let rem = self.b.u_mod(u, None, off, scale)?;
        let bound = self.push_load(slot.slots)?;
        let len = self.const_u32(slot.elements);
        let lt = self.b.u_less_than(bl, None, bound, len)?;
        let count = self.b.select(u, None, lt, bound, len)?;
        let aligned = self.b.i_equal(bl, None, rem, zero)?;
        let below = self.b.u_less_than(bl, None, k, count)?;
        let ok = self.b.logical_and(bl, None, aligned, below)?;
        Ok((k, ok, slot.elements))
    }

    /// A sample or gather through a descriptor array, unrolled: element
    /// `j` for every `j` below the array's length, each reached by a
    /// constant index (core Vulkan: no descriptor-indexing feature) and
    /// sampled where the guest instruction is (the same control flow, so
    /// implicit derivatives are the quad's), each lane keeping the result
    /// of its own slot (a select chain on `slot == j`; a lane whose slot
    /// is none of them, or not bound, reads 0).
    fn array_unrolled(&mut self, op: u32, v: ImageVars) -> Result<Word, EmitError> {
        let Some((pi, ps)) = v.array else {
            return Err(EmitError("a descriptor array without its types".into()));
        };
        let (k, ok, elements) = self.array_slot(op)?;
        self.image_bound.insert(op, ok);
        let bl = self.t.bool_;
        let scalar = matches!(
            self.f.images[op as usize].kind,
            ImageOpKind::Sample {
                compare: Some(_),
                ..
            }
        );
        let rty = if scalar { v.comp_ty } else { v.vec_ty };
        let zc = self.constant(v.comp_ty, 0);
        let mut acc = if scalar {
            zc
        } else {
            self.b.constant_composite(v.vec_ty, vec![zc; 4])
        };
        for j in 0..elements {
            let at = self.const_u32(j);
            let p = self.b.access_chain(pi, None, v.image, vec![at])?;
            let img = self.b.load(v.image_ty, None, p, None, vec![])?;
            let smp = match v.sampler {
                Some((svar, _)) => {
                    let p = self.b.access_chain(ps, None, svar, vec![at])?;
                    let st = self.t_sampler();
                    Some(self.b.load(st, None, p, None, vec![])?)
                }
                None => None,
            };
            let r = self.image_op_with(op, v, img, smp)?;
            let mut mine = self.b.i_equal(bl, None, k, at)?;
            if !scalar {
                // SPIR-V 1.3: a vector select takes a vector condition.
                let bv = self.b.type_vector(bl, 4);
                mine = self.b.composite_construct(bv, None, vec![mine; 4])?;
            }
            acc = self.b.select(rty, None, mine, r, acc)?;
        }
        Ok(acc)
    }

    fn bind(&mut self, var: Word, binding: u32, name: &str) {
        self.b.decorate(
            var,
            Decoration::DescriptorSet,
            vec![Operand::LiteralBit32(0)],
        );
        self.b.decorate(
            var,
            Decoration::Binding,
            vec![Operand::LiteralBit32(binding)],
        );
        self.b.name(var, name);
    }

    /// A value as f32.
    fn f32_of(&mut self, v: Value) -> Result<Word, EmitError> {
        let w = self.vals[v.0 as usize];
        Ok(match self.f.ty(v) {
            Ty::F32 => w,
            _ => self.b.bitcast(self.t.f32_, None, w)?,
        })
    }

    /// A value as i32.
    fn i32_of(&mut self, v: Value) -> Result<Word, EmitError> {
        let w = self.vals[v.0 as usize];
        Ok(match self.f.ty(v) {
            Ty::Bool => return Err(EmitError("a lane bit as an image coordinate".into())),
            _ => self.b.bitcast(self.t.i32_, None, w)?,
        })
    }

    /// The coordinate vector (or scalar) of `n` values.
    fn coord_vec(&mut self, vals: &[Word], comp: Word) -> Result<Word, EmitError> {
        if vals.len() == 1 {
            return Ok(vals[0]);
        }
        let ty = self.b.type_vector(comp, vals.len() as u32);
        Ok(self.b.composite_construct(ty, None, vals.to_vec())?)
    }

    /// The `ConstOffset` operand of an `_o` offset for `n` spatial
    /// coordinates.
    fn const_offset(&mut self, dword: u32, n: usize) -> Word {
        let f = offset_fields(dword);
        let i = self.t.i32_;
        let parts: Vec<Word> = f[..n].iter().map(|&x| self.constant(i, x as u32)).collect();
        if n == 1 {
            return parts[0];
        }
        let ty = self.b.type_vector(i, n as u32);
        self.b.constant_composite(ty, parts)
    }

    /// Component `comp` of an image operation's result, as u32 bits.
    pub(super) fn image_component(&mut self, op: u32, comp: u8) -> Result<Word, EmitError> {
        let r = match self.image_results.get(&op) {
            Some(&r) => r,
            None => {
                let r = self.image_op(op)?;
                self.image_results.insert(op, r);
                r
            }
        };
        let i = self.f.images[op as usize];
        let slot = self.image_slot(op)?;
        let scalar = matches!(
            i.kind,
            ImageOpKind::Sample {
                compare: Some(_),
                ..
            }
        );
        let v = self.image_vars[slot];
        let c = if scalar {
            if comp == 0 {
                r
            } else {
                // A compare returns one component; dmask is 0x1.
                return Ok(self.const_u32(0));
            }
        } else {
            self.b
                .composite_extract(v.comp_ty, None, r, [u32::from(comp)])?
        };
        let c = if v.comp_ty == self.t.u32_ {
            c
        } else {
            self.b.bitcast(self.t.u32_, None, c)?
        };
        Ok(match self.image_bound.get(&op).copied() {
            Some(ok) => {
                let zero = self.const_u32(0);
                self.b.select(self.t.u32_, None, ok, c, zero)?
            }
            None => c,
        })
    }

    fn image_slot(&self, op: u32) -> Result<usize, EmitError> {
        self.plan
            .image_of_op
            .get(&op)
            .copied()
            .ok_or_else(|| EmitError(format!("image operation {op} has no binding")))
    }

    /// Emit the host instruction of a sample, gather or load.
    fn image_op(&mut self, op: u32) -> Result<Word, EmitError> {
        let v = self.image_vars[self.image_slot(op)?];
        if v.array.is_some() {
            return self.array_unrolled(op, v);
        }
        let img = self.b.load(v.image_ty, None, v.image, None, vec![])?;
        let smp = match v.sampler {
            Some((svar, _)) => {
                let st = self.t_sampler();
                Some(self.b.load(st, None, svar, None, vec![])?)
            }
            None => None,
        };
        self.image_op_with(op, v, img, smp)
    }

    /// The host instruction of a sample, gather or load on the image `img`
    /// (and sampler `smp`).
    fn image_op_with(
        &mut self,
        op: u32,
        v: ImageVars,
        img: Word,
        smp: Option<Word>,
    ) -> Result<Word, EmitError> {
        let i = self.f.images[op as usize];
        let n = i.coords as usize;
        let spatial = match i.dim {
            ImageDim::D1 | ImageDim::D1Array => 1,
            ImageDim::D3 => 3,
            _ => 2,
        };
        match i.kind {
            ImageOpKind::Load => {
                let mut c = Vec::with_capacity(n);
                for &x in &i.coord[..n] {
                    c.push(self.i32_of(x)?);
                }
                let coord = self.coord_vec(&c, self.t.i32_)?;
                Ok(self
                    .b
                    .image_read(v.vec_ty, None, img, coord, None, vec![])?)
            }
            ImageOpKind::Store => Err(EmitError("an image store read as a value".into())),
            ImageOpKind::Sample { lod, compare } | ImageOpKind::Gather { lod, compare, .. } => {
                let (Some((_, si_ty)), Some(smp)) = (v.sampler, smp) else {
                    return Err(EmitError("a sample without a sampler".into()));
                };
                let si = self.b.sampled_image(si_ty, None, img, smp)?;
                let mut c = Vec::with_capacity(n);
                for &x in &i.coord[..n] {
                    c.push(self.f32_of(x)?);
                }
                let fl = self.t.f32_;
                if i.dim == ImageDim::Cube {
                    self.cube_face_coord(&mut c)?;
                }
                let coord = self.coord_vec(&c, fl)?;
                let mut ops = ImageOperands::NONE;
                let mut params = Vec::new();
                let gather = matches!(i.kind, ImageOpKind::Gather { .. });
                match lod {
                    // A gather reads level 0 and takes no level operand
                    // (only `_lz` gathers are lifted).
                    _ if gather => {}
                    ImageLod::Implicit { bias: Some(b) } => {
                        ops |= ImageOperands::BIAS;
                        params.push(Operand::IdRef(self.f32_of(b)?));
                    }
                    ImageLod::Implicit { bias: None } => {}
                    ImageLod::Zero => {
                        ops |= ImageOperands::LOD;
                        params.push(Operand::IdRef(self.constant(fl, 0)));
                    }
                    ImageLod::Explicit(l) => {
                        ops |= ImageOperands::LOD;
                        params.push(Operand::IdRef(self.f32_of(l)?));
                    }
                }
                if let Some(o) = i.offset {
                    ops |= ImageOperands::CONST_OFFSET;
                    params.push(Operand::IdRef(self.const_offset(o, spatial)));
                }
                let dref = match compare {
                    Some(d) => Some(self.f32_of(d)?),
                    None => None,
                };
                let implicit = matches!(lod, ImageLod::Implicit { .. });
                let opt = (ops != ImageOperands::NONE).then_some(ops);
                Ok(match (i.kind, dref) {
                    (ImageOpKind::Gather { comp, .. }, None) => {
                        let c = self.const_u32(u32::from(comp));
                        self.b
                            .image_gather(v.vec_ty, None, si, coord, c, opt, params)?
                    }
                    (ImageOpKind::Gather { .. }, Some(d)) => self
                        .b
                        .image_dref_gather(v.vec_ty, None, si, coord, d, opt, params)?,
                    (_, None) if implicit => self
                        .b
                        .image_sample_implicit_lod(v.vec_ty, None, si, coord, opt, params)?,
                    (_, None) => self
                        .b
                        .image_sample_explicit_lod(v.vec_ty, None, si, coord, ops, params)?,
                    (_, Some(d)) if implicit => self.b.image_sample_dref_implicit_lod(
                        v.comp_ty, None, si, coord, d, opt, params,
                    )?,
                    (_, Some(d)) => self.b.image_sample_dref_explicit_lod(
                        v.comp_ty, None, si, coord, d, ops, params,
                    )?,
                })
            }
        }
    }

    /// A cube sample's address `(s, t, face)`, ACO's `sc/|ma| + 1.5`,
    /// `tc/|ma| + 1.5` (in [1, 2] on the face) and the face id, as the
    /// coordinate of the face's layer in the host's six-layer 2D array:
    /// `(s − 1, t − 1, face)`. Vulkan rounds `x − 1` correctly, and it is
    /// exact for `x` in [½, 2] (Sterbenz); the layer coordinate rounds to
    /// the nearest layer, and a face id is an exact integer. The
    /// interpreter (`interp::image`) compares only points inside a face.
    fn cube_face_coord(&mut self, c: &mut [Word]) -> Result<(), EmitError> {
        let fl = self.t.f32_;
        let one = self.constant(fl, 1.0f32.to_bits());
        for x in c.iter_mut().take(2) {
            *x = self.b.f_sub(fl, None, *x, one)?;
        }
        Ok(())
    }

    /// An image store when `cond`: the dmask components, 0 for the others.
    pub(super) fn image_store(&mut self, op: u32, cond: Value) -> Result<(), EmitError> {
        let i = self.f.images[op as usize];
        let v = self.image_vars[self.image_slot(op)?];
        let n = i.coords as usize;
        let always = self.f.konst(cond) == Some(1);
        let merge = if always {
            None
        } else {
            let c = self.vals[cond.0 as usize];
            Some(self.begin_if(c)?)
        };
        let img = self.b.load(v.image_ty, None, v.image, None, vec![])?;
        let mut c = Vec::with_capacity(n);
        for &x in &i.coord[..n] {
            c.push(self.i32_of(x)?);
        }
        let coord = self.coord_vec(&c, self.t.i32_)?;
        let mut texel = Vec::with_capacity(4);
        for d in i.data {
            texel.push(match d {
                Some(x) => {
                    let w = self.vals[x.0 as usize];
                    let same = match self.f.ty(x) {
                        Ty::F32 => v.comp_ty == self.t.f32_,
                        _ => v.comp_ty == self.t.u32_,
                    };
                    if same {
                        w
                    } else {
                        self.b.bitcast(v.comp_ty, None, w)?
                    }
                }
                None => self.constant(v.comp_ty, 0),
            });
        }
        let texel = self.b.composite_construct(v.vec_ty, None, texel)?;
        self.b.image_write(img, coord, texel, None, vec![])?;
        if let Some(lm) = merge {
            self.end_if(lm)?;
        }
        Ok(())
    }
}
