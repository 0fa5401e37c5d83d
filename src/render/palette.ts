/**
 * Chart colours, from the Okabe–Ito set: blue and orange stay apart for the common forms of
 * colour blindness, where red and green merge. Colour is never the only cue: every chart also
 * names its series in words, and better/worse also differ by side, direction or label. Each
 * colour has the square emoji that keys it in a markdown legend under a mermaid chart.
 */
export interface PaletteColour {
  hex: string;
  /** The emoji square of about this colour, for a legend written in markdown. */
  key: string;
}

export const BLUE: PaletteColour = { hex: '#0072B2', key: '🟦' };
export const ORANGE: PaletteColour = { hex: '#E69F00', key: '🟧' };
export const BLACK: PaletteColour = { hex: '#000000', key: '⬛' };

/** A change for the better. */
export const BETTER = BLUE;
/** A change for the worse. */
export const WORSE = ORANGE;
/** The baseline series, or the only model of a single-model run. */
export const BASELINE = BLUE;
/** The candidate series. */
export const CANDIDATE = ORANGE;
/** Reference lines (perfect calibration). */
export const REFERENCE = BLACK;
/** Labels that carry no series: tick values, captions. */
export const MUTED = '#555555';
