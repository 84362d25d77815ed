//! Writes the built-in example motion, reads it back and prints what it holds.
//!
//! `cargo run --example roundtrip [OUT.vmd]`

use vmdkit::Motion;
use vmdkit::Section;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).unwrap_or_else(|| "example.vmd".into());
    let motion = vmdkit::example::example_motion();
    motion.write_file(&out)?;
    let back = Motion::read_file(&out)?;
    assert_eq!(back, motion);
    println!("wrote and read back {out} ({} bytes)", back.encoded_len());
    println!("model: {}", back.header.model_name);
    for section in Section::ALL {
        println!("  {:<12} {:>3} keys", section.name(), back.count(section));
    }
    Ok(())
}
