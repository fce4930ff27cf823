//! Unit tests of src/plot/density.rs (`plot::density::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

use sgviz::plot::Projection;
use sgviz::plot::density::*;
use sgviz::model::View;
use sgviz::plot::PlotFrame;

#[test]
fn bins_points_into_the_right_pixels_and_colours_them() {
    let projection = Projection { view: View::centred(0.0, 0.0, 1.0, 1.0), frame: PlotFrame { width: 110, height: 120, left: 10, right: 0, top: 0, bottom: 20, band: 0 } };
    let mut image = DensityImage::new(projection);
    assert_eq!((image.width(), image.height()), (100, 100));
    image.add(-0.995, 0.995); // top-left cell
    image.add(-0.995, 0.995);
    image.add(0.995, -0.995); // bottom-right cell
    image.add(5.0, 0.0); // outside
    assert_eq!(image.total_inside(), 3);
    assert_eq!(image.outside(), 1);
    let rgba = image.render().to_vec();
    assert_eq!(rgba[3] as u32, 255, "densest pixel fully opaque");
    let last = rgba.len() - 4;
    assert!(rgba[last + 3] > 0 && rgba[last + 3] < 255);
    assert_eq!(rgba[4 * 50 + 3], 0, "empty pixel transparent");
}
