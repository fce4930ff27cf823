//! Plot drawing
