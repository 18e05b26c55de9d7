//! The little SPIR-V reflection the source oracle needs: a vertex module's
//! output variables (location, component, type, GLSL name), its buffer
//! blocks and push-constant block (type trees with offsets and strides), and
//! whether it binds anything else (images, samplers).

use std::collections::HashMap;

/// A type of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `bool`.
    Bool,
    /// An integer of `width` bits.
    Int {
        /// Bits.
        width: u32,
        /// Signed.
        signed: bool,
    },
    /// A float of `width` bits.
    Float {
        /// Bits.
        width: u32,
    },
    /// A vector.
    Vector {
        /// Element type id.
        elem: u32,
        /// Components.
        n: u32,
    },
    /// A matrix of `n` columns.
    Matrix {
        /// Column type id.
        col: u32,
        /// Columns.
        n: u32,
    },
    /// An array (`None`: runtime-sized).
    Array {
        /// Element type id.
        elem: u32,
        /// Length.
        len: Option<u32>,
    },
    /// A struct.
    Struct {
        /// Member type ids.
        members: Vec<u32>,
    },
    /// A pointer.
    Pointer {
        /// Storage class.
        class: u32,
        /// Pointee type id.
        ty: u32,
    },
    /// Images, samplers and anything else.
    Other,
}

/// Storage classes the reflection tells apart.
pub const UNIFORM_CONSTANT: u32 = 0;
/// `Input`.
pub const INPUT: u32 = 1;
/// `Uniform`.
pub const UNIFORM: u32 = 2;
/// `Output`.
pub const OUTPUT: u32 = 3;
/// `PushConstant`.
pub const PUSH_CONSTANT: u32 = 9;
/// `StorageBuffer`.
pub const STORAGE_BUFFER: u32 = 12;

const DEC_BLOCK: u32 = 2;
const DEC_BUFFER_BLOCK: u32 = 3;
const DEC_ROW_MAJOR: u32 = 4;
const DEC_ARRAY_STRIDE: u32 = 6;
const DEC_MATRIX_STRIDE: u32 = 7;
const DEC_BUILTIN: u32 = 11;
const DEC_LOCATION: u32 = 30;
const DEC_COMPONENT: u32 = 31;
const DEC_BINDING: u32 = 33;
const DEC_SET: u32 = 34;
const DEC_OFFSET: u32 = 35;

/// A module's reflected facts.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Types by id.
    pub types: HashMap<u32, Ty>,
    names: HashMap<u32, String>,
    member_names: HashMap<(u32, u32), String>,
    decorations: HashMap<u32, Vec<(u32, u32)>>,
    member_decorations: HashMap<(u32, u32), Vec<(u32, u32)>>,
    constants: HashMap<u32, u32>,
    /// Global variables: (id, storage class, pointee type id).
    pub variables: Vec<(u32, u32, u32)>,
}

fn string_at(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Module {
    /// Read a module (little-endian words).
    pub fn parse(words: &[u32]) -> Result<Module, String> {
        if words.len() < 5 || words[0] != 0x0723_0203 {
            return Err("not a SPIR-V module".into());
        }
        let mut m = Module::default();
        let mut i = 5;
        while i < words.len() {
            let count = (words[i] >> 16) as usize;
            let op = words[i] & 0xffff;
            if count == 0 || i + count > words.len() {
                return Err(format!("word {i}: a malformed instruction"));
            }
            let a = &words[i + 1..i + count];
            let at = |k: usize| a.get(k).copied().unwrap_or(0);
            match op {
                5 if !a.is_empty() => {
                    m.names.insert(a[0], string_at(&a[1..]));
                }
                6 if a.len() >= 2 => {
                    m.member_names.insert((a[0], a[1]), string_at(&a[2..]));
                }
                71 if a.len() >= 2 => m.decorations.entry(a[0]).or_default().push((a[1], at(2))),
                72 if a.len() >= 3 => m
                    .member_decorations
                    .entry((a[0], a[1]))
                    .or_default()
                    .push((a[2], at(3))),
                20 => {
                    m.types.insert(at(0), Ty::Bool);
                }
                21 => {
                    m.types.insert(
                        at(0),
                        Ty::Int {
                            width: at(1),
                            signed: at(2) != 0,
                        },
                    );
                }
                22 => {
                    m.types.insert(at(0), Ty::Float { width: at(1) });
                }
                23 => {
                    m.types.insert(
                        at(0),
                        Ty::Vector {
                            elem: at(1),
                            n: at(2),
                        },
                    );
                }
                24 => {
                    m.types.insert(
                        at(0),
                        Ty::Matrix {
                            col: at(1),
                            n: at(2),
                        },
                    );
                }
                28 => {
                    let len = m.constants.get(&at(2)).copied();
                    m.types.insert(at(0), Ty::Array { elem: at(1), len });
                }
                29 => {
                    m.types.insert(
                        at(0),
                        Ty::Array {
                            elem: at(1),
                            len: None,
                        },
                    );
                }
                30 => {
                    m.types.insert(
                        at(0),
                        Ty::Struct {
                            members: a[1.min(a.len())..].to_vec(),
                        },
                    );
                }
                32 => {
                    m.types.insert(
                        at(0),
                        Ty::Pointer {
                            class: at(1),
                            ty: at(2),
                        },
                    );
                }
                25..=27 | 19 | 33 => {
                    m.types.insert(at(0), Ty::Other);
                }
                // OpConstant / OpSpecConstant: 32-bit values (array lengths).
                43 | 50 if a.len() >= 3 => {
                    m.constants.insert(a[1], a[2]);
                }
                59 if a.len() >= 3 => {
                    let ty = match m.types.get(&a[0]) {
                        Some(Ty::Pointer { ty, .. }) => *ty,
                        _ => 0,
                    };
                    m.variables.push((a[1], a[2], ty));
                }
                _ => {}
            }
            i += count;
        }
        Ok(m)
    }

    /// The `OpName` of `id` (empty when none).
    pub fn name(&self, id: u32) -> &str {
        self.names.get(&id).map(String::as_str).unwrap_or("")
    }

    /// The `OpMemberName` of a member.
    pub fn member_name(&self, ty: u32, member: u32) -> &str {
        self.member_names
            .get(&(ty, member))
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The literal of decoration `d` on `id`.
    pub fn decoration(&self, id: u32, d: u32) -> Option<u32> {
        self.decorations
            .get(&id)?
            .iter()
            .find(|(k, _)| *k == d)
            .map(|(_, v)| *v)
    }

    fn member_decoration(&self, ty: u32, member: u32, d: u32) -> Option<u32> {
        self.member_decorations
            .get(&(ty, member))?
            .iter()
            .find(|(k, _)| *k == d)
            .map(|(_, v)| *v)
    }

    /// `set`/`binding` of a variable.
    pub fn set_binding(&self, var: u32) -> Option<(u32, u32)> {
        Some((
            self.decoration(var, DEC_SET).unwrap_or(0),
            self.decoration(var, DEC_BINDING)?,
        ))
    }

    /// True when the struct type is a `Block` / `BufferBlock`.
    pub fn is_block(&self, ty: u32) -> bool {
        self.decoration(ty, DEC_BLOCK).is_some() || self.decoration(ty, DEC_BUFFER_BLOCK).is_some()
    }

    /// True when `var` or a member of its struct type is a built-in.
    pub fn is_builtin(&self, var: u32, ty: u32) -> bool {
        if self.decoration(var, DEC_BUILTIN).is_some() {
            return true;
        }
        matches!(self.types.get(&ty), Some(Ty::Struct { .. }))
            && self.member_decoration(ty, 0, DEC_BUILTIN).is_some()
    }
}

/// What one output scalar type is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// 32-bit float.
    F32,
    /// 32-bit signed integer.
    I32,
    /// 32-bit unsigned integer.
    U32,
    /// bool.
    Bool,
}

/// One output slot: a GLSL expression of a scalar or vector that fills
/// `components` components of `location` from `component`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputSlot {
    /// The location.
    pub location: u32,
    /// The first component.
    pub component: u32,
    /// Components (1..=4).
    pub components: u32,
    /// The scalar type.
    pub scalar: Scalar,
    /// The GLSL expression (`outColor`, `o.uv`, `m[2]`).
    pub expr: String,
}

impl Module {
    /// The scalar and component count of a scalar or vector type.
    fn scalar_vector(&self, ty: u32) -> Result<(Scalar, u32), String> {
        let scalar = |t: u32| -> Result<Scalar, String> {
            match self.types.get(&t) {
                Some(Ty::Float { width: 32 }) => Ok(Scalar::F32),
                Some(Ty::Int {
                    width: 32,
                    signed: true,
                }) => Ok(Scalar::I32),
                Some(Ty::Int {
                    width: 32,
                    signed: false,
                }) => Ok(Scalar::U32),
                Some(Ty::Bool) => Ok(Scalar::Bool),
                other => Err(format!("an output of type {other:?} (only 32-bit scalars)")),
            }
        };
        match self.types.get(&ty) {
            Some(Ty::Vector { elem, n }) => Ok((scalar(*elem)?, *n)),
            _ => Ok((scalar(ty)?, 1)),
        }
    }

    /// The slots of an output of type `ty` at `location`/`component`
    /// named by `expr`; returns the locations it takes.
    fn output_slots(
        &self,
        ty: u32,
        location: u32,
        component: u32,
        expr: &str,
        out: &mut Vec<OutputSlot>,
    ) -> Result<u32, String> {
        match self.types.get(&ty) {
            Some(Ty::Matrix { col, n }) => {
                for c in 0..*n {
                    self.output_slots(*col, location + c, 0, &format!("{expr}[{c}]"), out)?;
                }
                Ok(*n)
            }
            Some(Ty::Array { elem, len: Some(n) }) => {
                let mut loc = location;
                for i in 0..*n {
                    loc +=
                        self.output_slots(*elem, loc, component, &format!("{expr}[{i}]"), out)?;
                }
                Ok(loc - location)
            }
            Some(Ty::Struct { .. }) | Some(Ty::Array { len: None, .. }) => {
                Err(format!("output `{expr}` is a struct or unsized array"))
            }
            _ => {
                let (scalar, components) = self.scalar_vector(ty)?;
                out.push(OutputSlot {
                    location,
                    component,
                    components,
                    scalar,
                    expr: expr.to_string(),
                });
                Ok(1)
            }
        }
    }

    /// Every user output (not built-ins) as slots, sorted by location and
    /// component.
    pub fn outputs(&self) -> Result<Vec<OutputSlot>, String> {
        let mut out = Vec::new();
        for &(var, class, ty) in &self.variables {
            if class != OUTPUT || self.is_builtin(var, ty) {
                continue;
            }
            let name = self.name(var);
            match self.types.get(&ty) {
                Some(Ty::Struct { members }) if self.is_block(ty) => {
                    let mut loc = self.decoration(var, DEC_LOCATION);
                    for (k, &mty) in members.iter().enumerate() {
                        let k = k as u32;
                        let l = self
                            .member_decoration(ty, k, DEC_LOCATION)
                            .or(loc)
                            .ok_or_else(|| format!("output block `{name}` without locations"))?;
                        let c = self.member_decoration(ty, k, DEC_COMPONENT).unwrap_or(0);
                        let member = self.member_name(ty, k);
                        let expr = if name.is_empty() {
                            member.to_string()
                        } else {
                            format!("{name}.{member}")
                        };
                        let used = self.output_slots(mty, l, c, &expr, &mut out)?;
                        loc = Some(l + used);
                    }
                }
                _ => {
                    let l = self
                        .decoration(var, DEC_LOCATION)
                        .ok_or_else(|| format!("output `{name}` has no location"))?;
                    let c = self.decoration(var, DEC_COMPONENT).unwrap_or(0);
                    if name.is_empty() {
                        return Err(format!("output at location {l} has no name"));
                    }
                    self.output_slots(ty, l, c, name, &mut out)?;
                }
            }
        }
        out.sort_by_key(|s| (s.location, s.component));
        Ok(out)
    }

    /// Fill a block of type `ty` into `bytes` at `base` with values from
    /// `value` (called per scalar with its kind and byte offset); returns
    /// the end of the last byte written.
    pub fn fill(
        &self,
        ty: u32,
        base: u32,
        layout: Layout,
        bytes: &mut Vec<u8>,
        value: &mut dyn FnMut(Scalar, u32) -> u32,
    ) -> Result<u32, String> {
        let put = |bytes: &mut Vec<u8>, at: u32, w: u32| {
            let at = at as usize;
            if bytes.len() < at + 4 {
                bytes.resize(at + 4, 0);
            }
            bytes[at..at + 4].copy_from_slice(&w.to_le_bytes());
            at as u32 + 4
        };
        match self.types.get(&ty) {
            Some(Ty::Float { width: 32 }) => Ok(put(bytes, base, value(Scalar::F32, base))),
            Some(Ty::Int {
                width: 32,
                signed: true,
            }) => Ok(put(bytes, base, value(Scalar::I32, base))),
            Some(Ty::Int { width: 32, .. }) => Ok(put(bytes, base, value(Scalar::U32, base))),
            Some(Ty::Bool) => Ok(put(bytes, base, value(Scalar::Bool, base))),
            Some(Ty::Vector { elem, n }) => {
                let mut end = base;
                for i in 0..*n {
                    end = self.fill(*elem, base + 4 * i, layout, bytes, value)?;
                }
                Ok(end)
            }
            Some(Ty::Matrix { col, n }) => {
                let stride = layout
                    .matrix_stride
                    .ok_or("a matrix without MatrixStride")?;
                let rows = match self.types.get(col) {
                    Some(Ty::Vector { n, .. }) => *n,
                    _ => 1,
                };
                let mut end = base;
                for c in 0..*n {
                    for r in 0..rows {
                        let at = if layout.row_major {
                            base + r * stride + 4 * c
                        } else {
                            base + c * stride + 4 * r
                        };
                        end = end.max(put(bytes, at, value(Scalar::F32, at)));
                    }
                }
                Ok(end)
            }
            Some(Ty::Array { elem, len }) => {
                let stride = self
                    .decoration(ty, DEC_ARRAY_STRIDE)
                    .ok_or("an array without ArrayStride")?;
                let n = len.unwrap_or(RUNTIME_ELEMENTS);
                if u64::from(n) * u64::from(stride) > u64::from(MAX_BLOCK_BYTES) {
                    return Err(format!("a block array of {n} × {stride} bytes"));
                }
                let mut end = base;
                for i in 0..n {
                    end = self.fill(*elem, base + i * stride, layout, bytes, value)?;
                }
                Ok(end)
            }
            Some(Ty::Struct { members }) => {
                let mut end = base;
                for (k, &mty) in members.iter().enumerate() {
                    let k = k as u32;
                    let off = self
                        .member_decoration(ty, k, DEC_OFFSET)
                        .ok_or("a block member without Offset")?;
                    let inner = Layout {
                        matrix_stride: self.member_decoration(ty, k, DEC_MATRIX_STRIDE),
                        row_major: self.member_decoration(ty, k, DEC_ROW_MAJOR).is_some(),
                    };
                    end = end.max(self.fill(mty, base + off, inner, bytes, value)?);
                }
                Ok(end)
            }
            other => Err(format!("a block member of type {other:?}")),
        }
    }
}

const DEC_FLAT: u32 = 14;

impl Module {
    /// True when `ty` is an integer scalar, vector, matrix or array of them.
    fn is_integer(&self, ty: u32) -> bool {
        match self.types.get(&ty) {
            Some(Ty::Int { .. }) => true,
            Some(Ty::Vector { elem, .. }) | Some(Ty::Array { elem, .. }) => self.is_integer(*elem),
            _ => false,
        }
    }
}

/// `words` with a `Flat` decoration on every integer output variable (and
/// integer member of an output block) that lacks one. GLSL does not need
/// `flat` on a vertex shader's integer outputs (only the fragment shader's
/// inputs do), naga's validator does; `Flat` changes nothing a vertex
/// shader computes.
pub fn flat_integer_outputs(words: &[u32]) -> Result<Vec<u32>, String> {
    let m = Module::parse(words)?;
    let mut extra: Vec<u32> = Vec::new();
    for &(var, class, ty) in &m.variables {
        if class != OUTPUT {
            continue;
        }
        match m.types.get(&ty) {
            Some(Ty::Struct { members }) => {
                for (k, &mty) in members.iter().enumerate() {
                    let k = k as u32;
                    if m.is_integer(mty) && m.member_decoration(ty, k, DEC_FLAT).is_none() {
                        extra.extend([4 << 16 | 72, ty, k, DEC_FLAT]);
                    }
                }
            }
            _ => {
                if m.is_integer(ty) && m.decoration(var, DEC_FLAT).is_none() {
                    extra.extend([3 << 16 | 71, var, DEC_FLAT]);
                }
            }
        }
    }
    if extra.is_empty() {
        return Ok(words.to_vec());
    }
    // Annotations go before the first decoration already there.
    let mut i = 5;
    let mut at = None;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        if op == 71 || op == 72 {
            at = Some(i);
            break;
        }
        i += count.max(1);
    }
    let at = at.ok_or("no decoration section to add Flat to")?;
    let mut out = words[..at].to_vec();
    out.extend(extra);
    out.extend_from_slice(&words[at..]);
    Ok(out)
}

/// Elements filled of a runtime-sized array.
pub const RUNTIME_ELEMENTS: u32 = 64;
/// The largest block the oracle fills.
pub const MAX_BLOCK_BYTES: u32 = 1 << 20;

/// Matrix layout of a block member.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout {
    /// MatrixStride.
    pub matrix_stride: Option<u32>,
    /// RowMajor.
    pub row_major: bool,
}
