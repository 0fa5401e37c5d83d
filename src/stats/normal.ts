/**
 * Standard normal distribution: cumulative distribution and quantile, both to about 1e-15.
 *
 * normalCdf: W. J. Cody, "Rational Chebyshev approximations for the error function",
 * Mathematics of Computation 23 (1969), in the arrangement R's pnorm uses: three ranges
 * (|x| ≤ 0.67449, ≤ sqrt(32), beyond), the tail computed directly so small probabilities keep
 * their relative accuracy instead of being 1 − (something close to 1).
 *
 * normalQuantile: M. J. Wichura, "Algorithm AS 241: the percentage points of the normal
 * distribution", Applied Statistics 37 (1988), PPND16 (about 1e-16 relative accuracy).
 */

const SQRT_32 = Math.sqrt(32);
const ONE_OVER_SQRT_2PI = 0.3989422804014327;

const A = [
  2.2352520354606837, 161.02823106855587, 1067.6894854603709, 18154.98125334356,
  0.06568233791820745,
];
const B = [47.202581904688245, 976.0985517377767, 10260.932208618979, 45507.78933502673];
const C = [
  0.39894151208813466, 8.883149794388377, 93.50665613217785, 597.2702763948002, 2494.5375852903726,
  6848.190450536283, 11602.65143764735, 9842.714838383978, 1.0765576773720192e-8,
];
const D = [
  22.266688044328117, 235.387901782625, 1519.3775994075547, 6485.558298266761, 18615.571640885097,
  34900.95272114598, 38912.00328609327, 19685.429676859992,
];
const P = [
  0.215898534057957, 0.12740116116024736, 0.022235277870649807, 0.0014216191932278934,
  0.000029112874951168793, 0.023073441764940174,
];
const Q = [
  1.284260096144911, 0.4682382124808651, 0.06598813786892856, 0.0037823963320275824,
  0.00007297515550839662,
];

function at(coefficients: readonly number[], index: number): number {
  return coefficients[index] as number;
}

/**
 * The Gaussian density factor exp(−x²/2) evaluated as exp(−xsq²/2)·exp(−del/2) with xsq = x
 * rounded to 1/16, which keeps full relative precision far in the tail.
 */
function tailDensity(y: number): number {
  const xsq = Math.trunc(y * 16) / 16;
  const del = (y - xsq) * (y + xsq);
  return Math.exp((-xsq * xsq) / 2) * Math.exp(-del / 2);
}

/** Lower and upper tail probabilities of N(0,1) at x, each with full relative accuracy. */
function normalTails(x: number): { lower: number; upper: number } {
  if (Number.isNaN(x)) return { lower: Number.NaN, upper: Number.NaN };
  const y = Math.abs(x);
  if (y <= 0.67448975) {
    let xnum = 0;
    let xden = 0;
    if (y > 1.11e-16) {
      const ysq = x * x;
      xnum = at(A, 4) * ysq;
      xden = ysq;
      for (let i = 0; i < 3; i++) {
        xnum = (xnum + at(A, i)) * ysq;
        xden = (xden + at(B, i)) * ysq;
      }
    }
    const temp = (x * (xnum + at(A, 3))) / (xden + at(B, 3));
    return { lower: 0.5 + temp, upper: 0.5 - temp };
  }
  let tail: number;
  if (y <= SQRT_32) {
    let xnum = at(C, 8) * y;
    let xden = y;
    for (let i = 0; i < 7; i++) {
      xnum = (xnum + at(C, i)) * y;
      xden = (xden + at(D, i)) * y;
    }
    tail = (tailDensity(y) * (xnum + at(C, 7))) / (xden + at(D, 7));
  } else if (y < 40) {
    const xsq = 1 / (x * x);
    let xnum = at(P, 5) * xsq;
    let xden = xsq;
    for (let i = 0; i < 4; i++) {
      xnum = (xnum + at(P, i)) * xsq;
      xden = (xden + at(Q, i)) * xsq;
    }
    let temp = (xsq * (xnum + at(P, 4))) / (xden + at(Q, 4));
    temp = (ONE_OVER_SQRT_2PI - temp) / y;
    tail = tailDensity(x) * temp;
  } else {
    tail = 0;
  }
  return x > 0 ? { lower: 1 - tail, upper: tail } : { lower: tail, upper: 1 - tail };
}

/** P(Z ≤ x) for Z ~ N(0, 1). */
export function normalCdf(x: number): number {
  return normalTails(x).lower;
}

/** P(Z > x) for Z ~ N(0, 1), accurate in the far upper tail (where 1 − normalCdf(x) is not). */
export function normalSurvival(x: number): number {
  return normalTails(x).upper;
}

/**
 * Coefficients of Wichura's algorithm AS241 (PPND16), highest power first: rational
 * approximations of the quantile in the centre (|p − 0.5| ≤ 0.425), the near tail
 * (r = √−ln(tail) ≤ 5) and the far tail.
 */
const CENTRAL = {
  numerator: [
    2509.0809287301227, 33430.57558358813, 67265.7709270087, 45921.95393154987, 13731.69376550946,
    1971.5909503065513, 133.14166789178438, 3.3871328727963665,
  ],
  denominator: [
    5226.495278852854, 28729.085735721943, 39307.89580009271, 21213.794301586597, 5394.196021424751,
    687.1870074920579, 42.31333070160091, 1,
  ],
} as const;
const NEAR_TAIL = {
  numerator: [
    0.0007745450142783414, 0.022723844989269184, 0.2417807251774506, 1.2704582524523684,
    3.6478483247632045, 5.769497221460691, 4.630337846156546, 1.4234371107496835,
  ],
  denominator: [
    1.0507500716444169e-9, 0.0005475938084995345, 0.015198666563616457, 0.14810397642748008,
    0.6897673349851, 1.6763848301838038, 2.053191626637759, 1,
  ],
} as const;
const FAR_TAIL = {
  numerator: [
    2.0103343992922881e-7, 0.000027115555687434876, 0.0012426609473880784, 0.026532189526576124,
    0.29656057182850487, 1.7848265399172913, 5.463784911164114, 6.657904643501103,
  ],
  denominator: [
    2.0442631033899397e-15, 1.421511758316446e-7, 0.000018463183175100548, 0.0007868691311456133,
    0.014875361290850615, 0.1369298809227358, 0.599832206555888, 1,
  ],
} as const;

/** Horner's rule, highest power first. */
function polynomial(coefficients: readonly number[], x: number): number {
  let value = coefficients[0] as number;
  for (let k = 1; k < coefficients.length; k++) value = value * x + (coefficients[k] as number);
  return value;
}

function rational(
  table: { numerator: readonly number[]; denominator: readonly number[] },
  x: number,
): number {
  return polynomial(table.numerator, x) / polynomial(table.denominator, x);
}

/** The x with P(Z ≤ x) = p, for Z ~ N(0, 1). p = 0 → −Infinity, p = 1 → +Infinity. */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) {
    throw new RangeError(`normalQuantile needs a probability in [0, 1], got ${p}`);
  }
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * polynomial(CENTRAL.numerator, r)) / polynomial(CENTRAL.denominator, r);
  }
  const r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  const value = r <= 5 ? rational(NEAR_TAIL, r - 1.6) : rational(FAR_TAIL, r - 5);
  return q < 0 ? -value : value;
}
