//! Writing a [`Bvh`] as text: the hierarchy depth first, tab-indented, then one line of values
//! per frame in the hierarchy's channel order. Indentation stops deepening at
//! `MAX_INDENT` tabs, so the text stays linear in the number of joints.

use super::{Bvh, JointKind};
use std::io::{self, Write};

impl Bvh {
    /// Writes the file. Joints are written depth first from each root, whatever their order
    /// in [`Bvh::joints`], and each frame's values follow that order; white space inside a
    /// name becomes `_`, since most readers take a name to be one word. Angles are written with
    /// six decimals (1e-6°), lengths with seven.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut out = io::BufWriter::with_capacity(1 << 16, out);
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); self.joints.len()];
        for (j, joint) in self.joints.iter().enumerate() {
            if let Some(p) = joint.parent.filter(|&p| p < self.joints.len()) {
                children[p].push(j);
            }
        }
        let mut order = Vec::with_capacity(self.joints.len());
        out.write_all(b"HIERARCHY\n")?;
        for root in (0..self.joints.len()).filter(|&j| self.joints[j].parent.is_none()) {
            // Depth first without recursion: (joint, children written so far).
            let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
            self.open(&mut out, root, 0)?;
            order.push(root);
            while let Some(top) = stack.last_mut() {
                let (joint, next) = *top;
                if let Some(&child) = children[joint].get(next) {
                    top.1 += 1;
                    self.open(&mut out, child, stack.len())?;
                    order.push(child);
                    stack.push((child, 0));
                } else {
                    stack.pop();
                    writeln!(out, "{}}}", indent(stack.len()))?;
                }
            }
        }
        // The shortest digits that read back as this exact f64 (1/30 is 0.03333333333333333):
        // readers work the rate out as 1 / frame time, and the seven decimals BVH files often
        // carry (0.0333333) make that 30.00003 fps, which Blender keeps as 30 fps with an
        // fps base of 0.999999. Exponent form only where plain digits would run long.
        let t = self.frame_time;
        let time = if (1e-3..1e6).contains(&t) { format!("{t}") } else { format!("{t:e}") };
        writeln!(out, "MOTION\nFrames: {}\nFrame Time: {time}", self.frame_count)?;
        let mut line = String::new();
        for frame in 0..self.frame_count {
            let values = self.frame(frame);
            line.clear();
            for &j in &order {
                let joint = &self.joints[j];
                let own = &values[joint.first_channel..joint.first_channel + joint.channels.len()];
                for (v, c) in own.iter().zip(&joint.channels) {
                    use std::fmt::Write as _;
                    // `+ 0.0` writes −0 as 0.
                    let _ = if c.axis().1 {
                        write!(line, "{:.6} ", v + 0.0)
                    } else {
                        write!(line, "{:.7} ", v + 0.0)
                    };
                }
            }
            line.pop();
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        out.flush()
    }

    /// A joint's header, OFFSET and CHANNELS lines; an End Site's header and OFFSET.
    fn open(&self, out: &mut impl Write, j: usize, depth: usize) -> io::Result<()> {
        let joint = &self.joints[j];
        let pad = indent(depth);
        let o = joint.offset + glam::DVec3::ZERO;
        match joint.kind {
            JointKind::EndSite => writeln!(out, "{pad}End Site\n{pad}{{")?,
            kind => {
                let word = if kind == JointKind::Root { "ROOT" } else { "JOINT" };
                let name: String =
                    joint.name.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
                writeln!(out, "{pad}{word} {name}\n{pad}{{")?;
            }
        }
        writeln!(out, "{pad}\tOFFSET {:.7} {:.7} {:.7}", o.x, o.y, o.z)?;
        if joint.kind != JointKind::EndSite {
            write!(out, "{pad}\tCHANNELS {}", joint.channels.len())?;
            for c in &joint.channels {
                write!(out, " {}", c.name())?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

/// The deepest indentation written: readers go by the braces, and a tab per level of a chain
/// thousands of bones deep would make the hierarchy grow with the square of its depth.
const MAX_INDENT: usize = 32;

fn indent(depth: usize) -> String {
    "\t".repeat(depth.min(MAX_INDENT))
}
