//! `vmdkit info` of models and VPD poses: the text layout of `crate::report::ModelDoc` and
//! `PoseFileDoc` (their JSON is the documents themselves).

use crate::output::Num;
use crate::report::{panel_name, ModelBone, ModelDoc, PoseFileDoc};
use std::io::{self, Write};
use vmdkit::shown::shown;

/// Short flag letters for the bone table, in `BONE_FLAG_NAMES` order but only those worth a
/// column: R rotatable, T translatable, V visible, C controllable, I IK, A append, F fixed
/// axis, L local axes, P after physics, E external parent.
fn flag_letters(bone: &ModelBone) -> String {
    let has = |name: &'static str| bone.flags.contains(&name);
    [
        (has("rotatable"), 'R'),
        (has("translatable"), 'T'),
        (has("visible"), 'V'),
        (has("controllable"), 'C'),
        (has("ik"), 'I'),
        (bone.append.is_some(), 'A'),
        (has("fixed_axis"), 'F'),
        (has("local_axes"), 'L'),
        (has("after_physics"), 'P'),
        (has("external_parent"), 'E'),
    ]
    .iter()
    .map(|&(on, c)| if on { c } else { '-' })
    .collect()
}

/// "名前 (English)" or just the name when there is no English one (or it is the same).
fn names(name: &str, en: &str) -> String {
    if en.is_empty() || en == name {
        shown(name).to_string()
    } else {
        format!("{} ({})", shown(name), shown(en))
    }
}

/// Every line of a (possibly multi-line) text, indented.
fn lines(out: &mut impl Write, label: &str, text: &str) -> io::Result<()> {
    let mut first = true;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let head = if first { label } else { "" };
        writeln!(out, "  {head:<9} {}", line.trim_end())?;
        first = false;
    }
    Ok(())
}

/// The readable summary of a model.
pub fn write_model(out: &mut impl Write, doc: &ModelDoc) -> io::Result<()> {
    writeln!(out, "{}", doc.path)?;
    let version = doc.version.map_or(String::new(), |v| format!(" {v:.1}"));
    writeln!(out, "  format    {}{version} ({})", doc.format.to_uppercase(), doc.encoding)?;
    writeln!(out, "  model     {:?}{}", shown(doc.name), english(doc.name_en))?;
    lines(out, "comment", doc.comment)?;
    lines(out, "english", doc.comment_en)?;
    let c = &doc.counts;
    writeln!(
        out,
        "  counts    {} vertices, {} faces, {} materials, {} bones ({} IK), {} morphs, {} rigid \
         bodies, {} joints",
        c.vertices, c.faces, c.materials, c.bones, c.ik_chains, c.morphs, c.rigid_bodies, c.joints
    )?;
    writeln!(
        out,
        "  bones     {} (flags: Rotatable Translatable Visible Controllable Ik Append Fixed-axis \
         Local-axes after-Physics External-parent)",
        doc.bones.len()
    )?;
    for b in &doc.bones {
        let parent = b.parent.map_or("-".to_string(), |p| p.to_string());
        writeln!(
            out,
            "    {:>4}  parent {parent:>4}  {}  layer {}  {}",
            b.index,
            flag_letters(b),
            b.deform_layer,
            names(b.name, b.name_en)
        )?;
        if let Some(a) = &b.append {
            let what = match (a.rotation, a.translation) {
                (true, true) => "rotation and translation",
                (true, false) => "rotation",
                _ => "translation",
            };
            let local = if a.local { ", local" } else { "" };
            writeln!(
                out,
                "          append {what} of {} {} × {}{local}",
                a.source,
                shown(a.source_name),
                a.ratio
            )?;
        }
        if let Some(ik) = &b.ik {
            writeln!(
                out,
                "          IK target {} {}, {} loops, limit {:.1}° per step, {} links:",
                ik.target,
                shown(ik.target_name),
                ik.loop_count,
                ik.limit_angle_deg,
                ik.links.len()
            )?;
            for link in &ik.links {
                let limits = link.limits.map_or(String::new(), |l| {
                    let axis = |i: usize| format!("{:.1}..{:.1}", l.min_deg[i], l.max_deg[i]);
                    format!("  limits x {}, y {}, z {} (°)", axis(0), axis(1), axis(2))
                });
                writeln!(out, "            {} {}{limits}", link.bone, shown(link.name))?;
            }
        }
    }
    writeln!(out, "  morphs    {}", doc.morphs.len())?;
    for m in &doc.morphs {
        writeln!(
            out,
            "    {:>4}  {:<7}  {:<14}  {:>6} offsets  {}",
            m.index,
            panel_name(m.panel),
            m.kind,
            m.offsets,
            names(m.name, m.name_en)
        )?;
    }
    // Only when there are any, so that the summary of a sound model stays as it was.
    if !doc.physics_problems.is_empty() {
        writeln!(out, "  warnings ({}):", doc.physics_problems.len())?;
        for problem in &doc.physics_problems {
            writeln!(out, "    {problem}")?;
        }
    }
    Ok(())
}

fn english(en: &str) -> String {
    if en.is_empty() {
        String::new()
    } else {
        format!(" / {:?}", shown(en))
    }
}

/// The readable summary of a VPD pose.
pub fn write_pose(out: &mut impl Write, doc: &PoseFileDoc) -> io::Result<()> {
    writeln!(out, "{}", doc.path)?;
    writeln!(out, "  format    VPD pose ({} bytes)", doc.bytes)?;
    writeln!(out, "  model     {:?} (file {:?})", shown(doc.model_name), shown(doc.model_file))?;
    writeln!(out, "  bones     {}", doc.bones.len())?;
    for b in &doc.bones {
        let [x, y, z] = b.translation.map(Num);
        let [qx, qy, qz, qw] = b.rotation.map(Num);
        writeln!(out, "    pos ({x}, {y}, {z}) rot ({qx}, {qy}, {qz}, {qw})  {}", shown(b.name))?;
    }
    if !doc.morphs.is_empty() {
        writeln!(out, "  morphs    {}", doc.morphs.len())?;
        for m in &doc.morphs {
            writeln!(out, "    {:>10}  {}", Num(m.weight), shown(m.name))?;
        }
    }
    Ok(())
}
