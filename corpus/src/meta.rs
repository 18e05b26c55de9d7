//! The capture metadata and its JSON form.
//!
//! The same JSON document is the `.shaderlift.meta` section of the ELF
//! capture form and may be the `meta.json` of a capture directory:
//!
//! ```json
//! {
//!   "version": 1,
//!   "target": "gfx1030",
//!   "stage": "ngg",
//!   "wave_size": 64,
//!   "abi": "ngg",
//!   "user_data": [4294934528, 0, 256],
//!   "provenance": { "emulator": "example", "title": "CUSA00000", "frame": "1200" }
//! }
//! ```
//!
//! `abi` is a preset name (`ngg`, `legacy-vs`, `ps`, `cs`) or an object
//! (see [`Meta::abi`]). Unknown top-level fields are ignored, so newer
//! files with sections this version does not know still load.

use isa::{Abi, Stage, Target};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// The metadata schema version this crate writes. Files with a higher
/// version are refused.
pub const META_VERSION: u32 = 1;

/// How many lanes a wave has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum WaveSize {
    /// 32 lanes (one SGPR per lane mask).
    W32,
    /// 64 lanes (an SGPR pair per lane mask). RADV's default for vertex work
    /// on gfx10.3.
    #[default]
    W64,
}

impl WaveSize {
    /// The lane count, 32 or 64.
    pub fn lanes(self) -> u32 {
        match self {
            WaveSize::W32 => 32,
            WaveSize::W64 => 64,
        }
    }
    /// The wave size with `lanes` lanes, if it is 32 or 64.
    pub fn from_lanes(lanes: u64) -> Option<WaveSize> {
        match lanes {
            32 => Some(WaveSize::W32),
            64 => Some(WaveSize::W64),
            _ => None,
        }
    }
}

impl fmt::Display for WaveSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wave{}", self.lanes())
    }
}

/// Error for a wave size other than 32 or 64.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown wave size `{0}` (expected 32 or 64)")]
pub struct UnknownWaveSize(pub String);

impl FromStr for WaveSize {
    type Err = UnknownWaveSize;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digits = s
            .strip_prefix("wave")
            .or_else(|| s.strip_prefix('w'))
            .unwrap_or(s);
        digits
            .parse::<u64>()
            .ok()
            .and_then(WaveSize::from_lanes)
            .ok_or_else(|| UnknownWaveSize(s.to_string()))
    }
}

impl Serialize for WaveSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.lanes())
    }
}

impl<'de> Deserialize<'de> for WaveSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = WaveSize;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a wave size, 32 or 64")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<WaveSize, E> {
                WaveSize::from_lanes(v)
                    .ok_or_else(|| E::custom(format!("wave size {v} is not 32 or 64")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<WaveSize, E> {
                Err(E::custom(format!("wave size {v} is not 32 or 64")))
            }
        }
        d.deserialize_u64(V)
    }
}

/// Everything about a captured shader except its code.
///
/// This is the extensible part of a capture: later sections (default
/// draws, guest memory) are added as `#[serde(default)]` optional fields,
/// so files without them keep loading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Schema version ([`META_VERSION`] when written by this crate; 1 when
    /// absent).
    #[serde(default = "default_version")]
    pub version: u32,
    /// The GPU the code is for (`"gfx1030"`, `"gfx1013"`, `"gfx1010"`).
    #[serde(with = "target_str")]
    pub target: Target,
    /// The hardware stage (`"ngg"`, `"legacy-vs"`, `"ps"`, `"cs"`; `"vs"`
    /// and `"fs"` are accepted when reading).
    #[serde(with = "stage_str")]
    pub stage: Stage,
    /// Lanes per wave: `32` or `64`.
    pub wave_size: WaveSize,
    /// The entry-register ABI. In JSON, a preset name (`"ngg"`,
    /// `"legacy-vs"`, `"ps"`, `"cs"`) or an object:
    /// `{"user_data_sgpr": "s8", "user_data_count": 16, "vertex_id_vgpr":
    /// "v5", "instance_id_vgpr": "v8", "merged_wave_info_sgpr": "s3",
    /// "gs_tg_info_sgpr": "s2"}`. Only `user_data_sgpr` is required;
    /// `user_data_count` defaults to 32 (the hardware's user-SGPR limit),
    /// the others to absent. Registers are written `"s8"`/`"v5"` or as bare
    /// numbers.
    #[serde(with = "abi_json")]
    pub abi: Abi,
    /// The user-data words the shader was launched with, when known
    /// (word k is in SGPR `abi.user_data_sgpr + k` at entry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_data: Option<Vec<u32>>,
    /// Free-form provenance: who captured this, from what, when.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub provenance: BTreeMap<String, String>,
    /// Compute shaders: the entry state the hardware starts a wave with
    /// (workgroup size, user SGPRs, workgroup-id SGPRs, local-id VGPRs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute: Option<translator::wave::ComputeEntry>,
}

fn default_version() -> u32 {
    1
}

impl Meta {
    /// Metadata for `stage` with that stage's default ABI
    /// ([`default_abi`]), on `target`, with no user data or provenance.
    pub fn new(target: Target, stage: Stage, wave_size: WaveSize) -> Meta {
        Meta {
            version: META_VERSION,
            target,
            stage,
            wave_size,
            abi: default_abi(stage),
            user_data: None,
            provenance: BTreeMap::new(),
            compute: None,
        }
    }

    /// The metadata as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // Serialising these types cannot fail: every map key is a string.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The default ABI of a stage: [`Abi::ngg`], [`Abi::legacy_vs`], or
/// user data from `s2` for pixel and compute shaders (after the 64-bit ring
/// pointer, as RADV lays them out).
pub fn default_abi(stage: Stage) -> Abi {
    match stage {
        Stage::Ngg => Abi::ngg(),
        Stage::LegacyVs => Abi::legacy_vs(),
        // RADV's usual pixel shader: perspective-centre barycentrics in
        // v[0:1] (SPI_PS_INPUT_ENA bit 1).
        Stage::Ps => Abi::pixel(0x2),
        Stage::Cs => Abi::no_vertex(2),
    }
}

/// The ABI preset for a name: `ngg`, `legacy-vs` (or `vs`), `ps`, `cs`.
pub fn abi_preset(name: &str) -> Option<Abi> {
    if let Some(abi) = Abi::preset(name) {
        return Some(abi);
    }
    match name {
        "ps" | "fs" => Some(default_abi(Stage::Ps)),
        "cs" => Some(default_abi(Stage::Cs)),
        _ => None,
    }
}

/// Parse a register name of one file: `s8` (or `8`) for SGPRs, `v5` for
/// VGPRs. SGPRs go up to `s105`, VGPRs up to `v255`.
pub fn parse_reg(s: &str, vgpr: bool) -> Result<u8, String> {
    let (prefix, max) = if vgpr { ('v', 255) } else { ('s', 105) };
    let digits = s.strip_prefix(prefix).unwrap_or(s);
    match digits.parse::<u32>() {
        Ok(n) if n <= max => Ok(n as u8),
        Ok(n) => Err(format!(
            "register {prefix}{n} is out of range ({prefix}0..{prefix}{max})"
        )),
        Err(_) => Err(format!(
            "`{s}` is not {} name like `{prefix}8`",
            file_name(vgpr)
        )),
    }
}

fn file_name(vgpr: bool) -> &'static str {
    if vgpr {
        "a VGPR"
    } else {
        "an SGPR"
    }
}

/// Check an ABI's registers: user data must fit in `s0..s105`, and the
/// vertex id and the instance id cannot share one VGPR (the hardware
/// writes both at entry, so one of them would be lost).
pub fn check_abi(abi: &Abi) -> Result<(), String> {
    if let (Some(v), Some(i)) = (abi.vertex_id_vgpr, abi.instance_id_vgpr) {
        if v == i {
            return Err(format!(
                "the vertex id and the instance id cannot both be in v{v}"
            ));
        }
    }
    let end = abi.user_data_sgpr as u32 + abi.user_data_count as u32;
    if end > 106 {
        return Err(format!(
            "user data s{}..s{} runs past s105",
            abi.user_data_sgpr,
            end - 1
        ));
    }
    for (name, reg) in [
        ("merged_wave_info_sgpr", abi.merged_wave_info_sgpr),
        ("gs_tg_info_sgpr", abi.gs_tg_info_sgpr),
    ] {
        if let Some(r) = reg {
            if r > 105 {
                return Err(format!("{name} s{r} is out of range (s0..s105)"));
            }
        }
    }
    Ok(())
}

mod target_str {
    use super::*;
    pub(super) fn serialize<S: Serializer>(t: &Target, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(t.mcpu())
    }
    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Target, D::Error> {
        let s = String::deserialize(d)?;
        Target::from_str(&s).map_err(de::Error::custom)
    }
}

mod stage_str {
    use super::*;
    pub(super) fn serialize<S: Serializer>(t: &Stage, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match t {
            Stage::Ngg => "ngg",
            Stage::LegacyVs => "legacy-vs",
            Stage::Ps => "ps",
            Stage::Cs => "cs",
        })
    }
    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Stage, D::Error> {
        let s = String::deserialize(d)?;
        Stage::from_str(&s).map_err(de::Error::custom)
    }
}

/// A register field: a bare number or a name like `s8` / `v5`.
struct Reg<const VGPR: bool>(u8);

impl<'de, const VGPR: bool> Deserialize<'de> for Reg<VGPR> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const VGPR: bool>;
        impl<const VGPR: bool> Visitor<'_> for V<VGPR> {
            type Value = Reg<VGPR>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if VGPR {
                    f.write_str("a VGPR, like \"v5\" or 5")
                } else {
                    f.write_str("an SGPR, like \"s8\" or 8")
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Reg<VGPR>, E> {
                let digits = v.to_string();
                parse_reg(&digits, VGPR).map(Reg).map_err(E::custom)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Reg<VGPR>, E> {
                parse_reg(v, VGPR).map(Reg).map_err(E::custom)
            }
        }
        d.deserialize_any(V::<VGPR>)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AbiObject {
    user_data_sgpr: Reg<false>,
    #[serde(default)]
    user_data_count: Option<u8>,
    #[serde(default)]
    vertex_id_vgpr: Option<Reg<true>>,
    #[serde(default)]
    instance_id_vgpr: Option<Reg<true>>,
    #[serde(default)]
    merged_wave_info_sgpr: Option<Reg<false>>,
    #[serde(default)]
    gs_tg_info_sgpr: Option<Reg<false>>,
    #[serde(default)]
    ps_input_ena: Option<u16>,
}

mod abi_json {
    use super::*;

    struct SReg(u8);
    impl Serialize for SReg {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("s{}", self.0))
        }
    }
    struct VReg(u8);
    impl Serialize for VReg {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("v{}", self.0))
        }
    }

    pub(super) fn serialize<S: Serializer>(abi: &Abi, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("user_data_sgpr", &SReg(abi.user_data_sgpr))?;
        m.serialize_entry("user_data_count", &abi.user_data_count)?;
        m.serialize_entry("vertex_id_vgpr", &abi.vertex_id_vgpr.map(VReg))?;
        m.serialize_entry("instance_id_vgpr", &abi.instance_id_vgpr.map(VReg))?;
        m.serialize_entry(
            "merged_wave_info_sgpr",
            &abi.merged_wave_info_sgpr.map(SReg),
        )?;
        m.serialize_entry("gs_tg_info_sgpr", &abi.gs_tg_info_sgpr.map(SReg))?;
        if abi.ps_input_ena != 0 {
            m.serialize_entry("ps_input_ena", &abi.ps_input_ena)?;
        }
        m.end()
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Abi, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Abi;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "an ABI preset name (\"ngg\", \"legacy-vs\", \"ps\", \"cs\") or an ABI object",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Abi, E> {
                abi_preset(v).ok_or_else(|| {
                    E::custom(format!(
                        "unknown ABI preset `{v}` (expected ngg, legacy-vs, ps or cs, or an object)"
                    ))
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Abi, A::Error> {
                let o = AbiObject::deserialize(de::value::MapAccessDeserializer::new(map))?;
                let abi = Abi {
                    user_data_sgpr: o.user_data_sgpr.0,
                    user_data_count: o.user_data_count.unwrap_or(32),
                    vertex_id_vgpr: o.vertex_id_vgpr.map(|r| r.0),
                    instance_id_vgpr: o.instance_id_vgpr.map(|r| r.0),
                    merged_wave_info_sgpr: o.merged_wave_info_sgpr.map(|r| r.0),
                    gs_tg_info_sgpr: o.gs_tg_info_sgpr.map(|r| r.0),
                    ps_input_ena: o.ps_input_ena.unwrap_or(0),
                };
                check_abi(&abi).map_err(de::Error::custom)?;
                Ok(abi)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Meta, serde_json::Error> {
        serde_json::from_str(s)
    }

    #[test]
    fn meta_round_trips_through_json() {
        let mut m = Meta::new(Target::Gfx1013, Stage::LegacyVs, WaveSize::W32);
        m.user_data = Some(vec![1, 0xffff_8000]);
        m.provenance.insert("emulator".into(), "test".into());
        let back = parse(&m.to_json()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn abi_accepts_preset_names_and_objects() {
        let m = parse(r#"{"target":"gfx1030","stage":"ngg","wave_size":64,"abi":"legacy-vs"}"#)
            .unwrap();
        assert_eq!(m.abi, Abi::legacy_vs());
        let m = parse(
            r#"{"target":"gfx1030","stage":"vs","wave_size":32,
                "abi":{"user_data_sgpr":"s4","vertex_id_vgpr":1,"instance_id_vgpr":"v2"}}"#,
        )
        .unwrap();
        assert_eq!(m.stage, Stage::LegacyVs);
        assert_eq!(m.abi.user_data_sgpr, 4);
        assert_eq!(m.abi.user_data_count, 32);
        assert_eq!(m.abi.vertex_id_vgpr, Some(1));
        assert_eq!(m.abi.instance_id_vgpr, Some(2));
        assert_eq!(m.abi.merged_wave_info_sgpr, None);
    }

    #[test]
    fn bad_values_are_reported_with_their_position() {
        let cases = [
            (
                r#"{"target":"gfx900","stage":"ngg","wave_size":64,"abi":"ngg"}"#,
                "unknown target `gfx900`",
            ),
            (
                r#"{"target":"gfx1030","stage":"gs","wave_size":64,"abi":"ngg"}"#,
                "unknown stage `gs`",
            ),
            (
                r#"{"target":"gfx1030","stage":"ngg","wave_size":48,"abi":"ngg"}"#,
                "wave size 48 is not 32 or 64",
            ),
            (
                r#"{"target":"gfx1030","stage":"ngg","wave_size":64,"abi":"hull"}"#,
                "unknown ABI preset `hull`",
            ),
            (
                r#"{"target":"gfx1030","stage":"ngg","wave_size":64,"abi":{"user_data_sgpr":"v8"}}"#,
                "`v8` is not an SGPR name",
            ),
            (
                r#"{"target":"gfx1030","stage":"ngg","wave_size":64,"abi":{"user_data_sgpr":"s106"}}"#,
                "s106 is out of range",
            ),
            (
                r#"{"target":"gfx1030","stage":"ngg","wave_size":64,"abi":{"user_data_sgpr":"s100","user_data_count":8}}"#,
                "runs past s105",
            ),
            (
                r#"{"target":"gfx1030","stage":"ngg","wave_size":64,"abi":{"user_data_sgpr":8,"vertex_id":5}}"#,
                "unknown field `vertex_id`",
            ),
            (
                r#"{"target":"gfx1030","stage":"ngg","wave_size":64}"#,
                "missing field `abi`",
            ),
        ];
        for (json, want) in cases {
            let e = parse(json).unwrap_err();
            assert!(
                e.to_string().contains(want),
                "{json}: got `{e}`, want `{want}`"
            );
            assert_eq!(e.line(), 1, "{json}");
            assert!(e.column() > 0, "{json}");
        }
    }

    #[test]
    fn wave_size_parses_from_flag_spellings() {
        assert_eq!("32".parse::<WaveSize>(), Ok(WaveSize::W32));
        assert_eq!("wave64".parse::<WaveSize>(), Ok(WaveSize::W64));
        assert_eq!("w32".parse::<WaveSize>(), Ok(WaveSize::W32));
        assert!("16".parse::<WaveSize>().is_err());
    }
}
