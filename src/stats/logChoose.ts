/** ln n! from a table that grows as needed, and ln C(n, k) from it. */

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) {
    logFactorials.push((logFactorials[i - 1] as number) + Math.log(i));
  }
  return logFactorials[n] as number;
}

/** ln C(n, k), from a table of ln n! that grows as needed. */
export function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}
