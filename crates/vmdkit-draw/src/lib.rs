//! Pictures of MikuMikuDance motions: a model's skeleton posed by a motion drawn as a stick
//! figure (PNG frames and animated GIFs), and plots of a track's curves over time or of one
//! key's Bézier handles.
//!
//! The posing is `vmdkit`'s ([`vmdkit::skeleton`]); this crate only projects and draws.
//! Conventions (docs/render.md): MMD's left-handed axes with Y up and models facing −Z; the
//! front view looks at the model's face, so the model's left (+X) is on the image's right.
//! Orthographic views are fitted to the figure and centred on the image, so a mirror-symmetric
//! pose gives a mirror-symmetric picture.
//!
//! ```
//! use vmdkit::example::{example_motion, standard_model};
//! use vmdkit_draw::{FigureRenderer, Size, View};
//! let model = standard_model();
//! let motion = example_motion();
//! let mut renderer = FigureRenderer::new(&model, &motion, Size::new(256, 256).unwrap());
//! let frame = renderer.render_ortho(View::Front, &[12.0], 12.0);
//! assert_eq!(frame.width(), 256);
//! ```

#![warn(missing_docs)]

mod bones;
mod canvas;
mod digits;
mod error;
mod figure;
mod font;
mod gif_out;
mod keycurve;
mod labels;
mod plot;
mod projection;
mod series;
mod style;
mod viewer;

pub use bones::{BoneSet, BoneStyle};
pub use canvas::{encode_png, Canvas, Size};
pub use error::DrawError;
pub use figure::{FigureRenderer, Side};
pub use font::{Font, NameScript};
pub use gif_out::GifWriter;
pub use keycurve::{draw_key_curves, KeyCurves};
pub use labels::Label;
pub use plot::{draw_chart, Chart, ChartLayout, Marker, Panel, Series, TickLabel};
pub use projection::{Projection, View};
pub use series::{bone_panels, camera_panels, morph_panels, SampleRange};
pub use style::Rgb;
pub use viewer::write_viewer;
