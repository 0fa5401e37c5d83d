/**
 * JSON placed inside an HTML `<script type="application/json">` element. The HTML parser ends
 * a script element at the first `</script`, whatever the JSON means, and `<!--` changes how it
 * reads what follows: no `<`, `>` or `&` may appear raw. Each is written as its JSON escape
 * (`\u003c`…), which JSON.parse turns back into the same character; so are U+2028 and U+2029.
 * Outside strings JSON has none of these characters, so the value is unchanged.
 */
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => ESCAPES[ch] as string);
}
