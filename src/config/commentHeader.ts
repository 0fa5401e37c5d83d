/**
 * The one rule for the `comment-header` input: it becomes part of the hidden marker
 * `<!-- model-gate:HEADER -->` that finds the sticky comment again, so it is checked with the
 * other inputs, before any request, by the same rule the comment uses.
 */
const HEADER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const COMMENT_HEADER_EXPECTED =
  'expected 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit';

export function isCommentHeader(header: string): boolean {
  return HEADER.test(header);
}
