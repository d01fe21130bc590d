/**
 * Line-level Markdown tests shared by the section scanner and the paths that read a block without
 * remark. Each runs in linear time: no two adjacent quantifiers can match the same character, so
 * a hostile line (a delimiter row followed by 100,000 spaces) cannot make them backtrack.
 */

/** A GFM table delimiter row (`|---|:-:|`, `--- | ---`), indented up to 3 spaces. */
export const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?(?:[ \t]*\|[ \t]*:?-+:?)*(?:[ \t]*\|)?[ \t]*$/;

export function isTableDelimiter(line: string): boolean {
  return TABLE_DELIMITER.test(line);
}

/** Whether `line` closes a fence of `length` × `char`: up to 3 spaces, the character at least as many times, then only spaces or tabs. */
export function closesFence(line: string, char: string, length: number): boolean {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  let n = 0;
  while (line[i + n] === char) n++;
  return n >= Math.max(3, length) && /^[ \t]*$/.test(line.slice(i + n));
}
