import type { DocumentKind, Finding, ParsedContract, SectionModel } from '../model/types.ts';

export type { ParsedContract };
import { scanSections, type SectionSlice } from './scanSections.ts';
import { LineIndex } from '../text/lineIndex.ts';
import { keepLineIndex } from '../model/text.ts';
import { buildSection } from './buildSection.ts';
import { shiftSection } from './shift.ts';
import { blockPool } from './blocks.ts';
import { sectionForTitle } from '../schema/sections.ts';
import { recognitionOf } from '../model/recognition.ts';
import { carryOver } from './lineage.ts';

export { recognitionOf };

/**
 * Parses a document into a contract model (docs/contract-format.md). When `previous`
 * is given, every section whose text is unchanged is reused (moved if lines above it changed),
 * and a changed section re-parses with remark only its top-level blocks whose text changed. The result equals a fresh parse of the
 * same text (asserted by test/incremental.test.ts). Never throws.
 */
export function parseContract(text: string, previous?: ParsedContract, spare?: readonly SectionModel[]): ParsedContract {
  const steps = parseContractSteps(text, previous, spare);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `parseContract` in steps: yields each section it builds (not those it reuses), so that a host
 * can pause between them (the first analysis of a large document yields to edits, docs/performance.md).
 * `spare` are sections built by a parse that was abandoned: reused as a previous model's are.
 */
export function* parseContractSteps(text: string, previous?: ParsedContract, spare: readonly SectionModel[] = []): Generator<SectionModel, ParsedContract> {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  const index = new LineIndex(body);
  const slices = scanSections(body, index, previous && scans.get(previous));
  const earlier = [...(previous?.sections ?? []), ...spare];
  const take = reuser(earlier);
  // Blocks of the previous version by text: a changed section re-parses only its changed blocks.
  let pool: ReturnType<typeof blockPool> | undefined;
  const sections: SectionModel[] = [];
  for (const slice of slices) {
    const old = take(slice);
    // A BOM shifts the characters of line 0, whichever slice starts there.
    const sliceBom = bom && slice.startLine === 0;
    if (old && old.bom === sliceBom && old.endLine - old.startLine === slice.endLine - slice.startLine && (slice.kind === 'section' || old.startLine === slice.startLine)) {
      sections.push(shiftSection(old, slice.startLine - old.startLine));
      continue;
    }
    pool ??= earlier.length > 0 ? blockPool(earlier) : undefined;
    const built = buildSection(slice, sliceBom, pool);
    sections.push(built);
    yield built;
  }
  const model = compose(text, sections);
  // With a BOM the scanned text is one character shorter than the model's.
  if (!bom) keepLineIndex(model, index);
  if (previous) carryOver(model, previous);
  scans.set(model, slices);
  return model;
}

/** Slices looked for among all earlier sections by comparison before the earlier ones are indexed by text. */
const SCANS = 8;

/**
 * Takes, for each slice in turn, an earlier section of the same text and kind (each once), or
 * undefined. The one after the last taken is tried first: it is the match but where sections were
 * added, removed or edited. Texts are compared, not hashed: a map keyed by every section's text
 * hashed the whole document on every keystroke (about 1 ms for 2,000 lines). After SCANS slices
 * not found that way (a text pasted over the whole document), the earlier sections are indexed by
 * text after all, so that no edit costs a search per section for every section.
 */
function reuser(earlier: readonly SectionModel[]): (slice: SectionSlice) => SectionModel | undefined {
  const taken = new Set<number>();
  let next = 0;
  let misses = 0;
  let byText: Map<string, number[]> | undefined;
  return (slice) => {
    const fits = (k: number) => {
      const c = earlier[k]!;
      return !taken.has(k) && c.text.length === slice.text.length && c.kind === slice.kind && c.text === slice.text && c.findings.some((f) => f.code === 'unclosed-fence') === !!slice.unclosedFence;
    };
    let at = next < earlier.length && fits(next) ? next : -1;
    if (at < 0 && ++misses <= SCANS) at = earlier.findIndex((_, k) => fits(k));
    else if (at < 0) {
      byText ??= textIndex(earlier);
      at = byText.get(slice.text)?.find(fits) ?? -1;
    }
    if (at < 0) return undefined;
    taken.add(at);
    next = at + 1;
    return earlier[at];
  };
}

/** The indexes of sections by their text. */
function textIndex(sections: readonly SectionModel[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  sections.forEach((s, k) => {
    const list = out.get(s.text);
    if (list) list.push(k);
    else out.set(s.text, [k]);
  });
  return out;
}

/** Each model's sections as scanned: the next version's scan resumes from them. */
const scans = new WeakMap<ParsedContract, readonly SectionSlice[]>();

function compose(text: string, sections: SectionModel[]): ParsedContract {
  const findings: Finding[] = [];
  const owners = new Map<string, SectionModel>();
  const data: Record<string, unknown> = {};
  const preamble = sections[0]!;
  const fm = preamble.frontMatter?.value ?? {};
  let recognised = 0;
  let weak = 0;

  for (const s of sections) {
    if (!s.spec) continue;
    const counts = recognitionOf(s);
    if (counts === 'strong') recognised++;
    else if (counts === 'weak') weak++;
    const first = owners.get(s.spec.key);
    if (first) {
      findings.push({
        code: 'duplicate-section',
        range: s.titleRange ?? s.range,
        args: { section: s.spec.title },
        related: [{ range: first.titleRange ?? first.range, messageId: 'related.firstDefined' }],
      });
      continue;
    }
    owners.set(s.spec.key, s);
    if (s.value !== undefined) data[s.spec.key] = s.value;
  }
  for (const [k, v] of Object.entries(fm)) {
    const spec = sectionForTitle(k);
    if (spec && spec.key === k.replace(/-/g, '_')) {
      const section = owners.get(spec.key);
      if (section) {
        findings.push({
          code: 'duplicate-section',
          range: section.titleRange ?? section.range,
          args: { section: spec.title },
          related: [{ range: preamble.frontMatter!.map.get(`/${k}`)?.key ?? preamble.range, messageId: 'related.alsoInFrontMatter' }],
        });
        continue;
      }
      recognised++;
      owners.set(spec.key, preamble);
      data[spec.key] = v;
    } else if (!spec) {
      data[k] = v;
      owners.set(k, preamble);
    }
  }
  // `contract: true` forces a contract, `contract: false` a free-form file.
  const marker = fm['contract'];
  const kind: DocumentKind = marker === false ? 'freeform' : marker === true || recognised + weak >= 2 ? 'contract' : recognised === 1 ? 'partial' : 'freeform';
  return { text, lineCount: sections[sections.length - 1]!.endLine, kind, sections, owners, data, findings };
}
