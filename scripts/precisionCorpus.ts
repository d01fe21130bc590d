/**
 * Measures the rules on the independent corpus (test/corpus/independent/): contracts written from
 * docs/contract-format.md alone by authors who never read the rules' code (test/corpus/independent/README.md).
 *
 * Each author's folder holds `clean/` (contracts correct by the docs; the author fixed every true
 * finding, so whatever a rule still reports there is a false finding) and `planted/` (copies with
 * deliberate mistakes, listed in `planted/expected.json`). Each folder is linted as its own
 * workspace, with its own `.agents-md.json`, under a preset. A planted defect is found when its
 * expected rule reports within a few lines of it (or, for a defect the rule reports elsewhere in the
 * file, reports it more often than on the clean copy).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLanguageService, type ContractDiagnostic, type RulePreset } from '../server/src/service/index.ts';
import { RULES, recheckAnalyzer } from '../server/src/service/host.ts';
import { createNodeFileSystem } from '../server/src/node/nodeFileSystem.ts';

export const CORPUS_DIR = new URL('../test/corpus/independent/', import.meta.url);

/** A finding as the table counts it: where, which rule, how severe, what it says. */
export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly severity: string;
  readonly message: string;
}

/** One planted defect (an author's `planted/expected.json` entry) and whether it was found. */
export interface PlantedDefect {
  readonly file: string;
  readonly line: number;
  readonly expectedRule: string;
  readonly defect: string;
  readonly found: boolean;
}

/** Per rule: false findings on clean contracts, planted defects found and missed. */
export interface RuleFigures {
  readonly code: string;
  readonly falseFindings: number;
  readonly found: number;
  readonly missed: number;
  /** found / (found + falseFindings); undefined when the rule reported nothing at all. */
  readonly precision?: number;
}

/** Our decisions on top of the authors' (test/corpus/independent/adjudication.json). */
export interface Adjudication {
  /** Planted defects that are no longer defects by the docs, with why. */
  readonly withdrawnPlanted: readonly { file: string; line: number; expectedRule: string; why: string }[];
  /** False findings that remain on clean contracts, with why they stay and which open work removes them. */
  readonly remainingFalse: readonly { file: string; line: number; rule: string; why: string; owner?: string }[];
}

export function adjudication(): Adjudication {
  return JSON.parse(readFileSync(new URL('adjudication.json', CORPUS_DIR), 'utf8')) as Adjudication;
}

export interface Measurement {
  readonly preset: RulePreset;
  readonly contracts: number;
  readonly lines: number;
  readonly clean: readonly Finding[];
  readonly planted: readonly PlantedDefect[];
  /** Planted defects left out of the figures (adjudication.json). */
  readonly withdrawn: readonly PlantedDefect[];
  readonly rules: readonly RuleFigures[];
}

const isContract = (name: string) => name.endsWith('.agents.md') || name === 'AGENTS.md';

function contractFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...contractFiles(path));
    else if (isContract(name)) out.push(path);
  }
  return out;
}

/** Lints every contract of `dir` as one workspace rooted at `dir`; paths relative to `dir`. */
async function lintFolder(dir: string, preset: RulePreset): Promise<Map<string, Finding[]>> {
  const root = pathToFileURL(dir).href;
  const service = createLanguageService({ fs: createNodeFileSystem(() => [dir]), roots: [root], analyzeRegex: recheckAnalyzer });
  const out = new Map<string, Finding[]>();
  for (const path of contractFiles(dir)) {
    const file = relative(dir, path);
    const r = await service.lintBytes(pathToFileURL(path).href, readFileSync(path), undefined, { preset });
    out.set(
      file,
      r.diagnostics.map((d: ContractDiagnostic) => ({ file, line: d.range.start.line + 1, code: d.code, severity: d.severity, message: d.message })),
    );
  }
  return out;
}

/** Lines a reported defect may be away from where its author put it (a row's first line, a heading). */
const NEAR = 3;

function plantedDefects(author: string, planted: Map<string, Finding[]>, clean: Map<string, Finding[]>): PlantedDefect[] {
  const expected = JSON.parse(readFileSync(join(author, 'planted', 'expected.json'), 'utf8')) as { file: string; line: number; expectedRule: string; defect: string }[];
  return expected.map((e) => {
    const hits = (planted.get(e.file) ?? []).filter((f) => f.code === e.expectedRule);
    const near = hits.some((f) => Math.abs(f.line - e.line) <= NEAR);
    const more = hits.length > (clean.get(e.file) ?? []).filter((f) => f.code === e.expectedRule).length;
    return { file: `${author.split(/[\\/]/).pop()}/planted/${e.file}`, line: e.line, expectedRule: e.expectedRule, defect: e.defect, found: near || more };
  });
}

/** Lints the independent corpus under `preset` and counts, per rule, false findings and planted defects. */
export async function measure(preset: RulePreset = 'recommended'): Promise<Measurement> {
  const base = CORPUS_DIR.pathname;
  const clean: Finding[] = [];
  const planted: PlantedDefect[] = [];
  let contracts = 0;
  let lines = 0;
  for (const author of readdirSync(base).filter((n) => statSync(join(base, n)).isDirectory()).sort()) {
    const dir = join(base, author);
    const cleanFindings = await lintFolder(join(dir, 'clean'), preset);
    for (const [file, findings] of cleanFindings) {
      contracts++;
      lines += readFileSync(join(dir, 'clean', file), 'utf8').split('\n').length;
      clean.push(...findings.map((f) => ({ ...f, file: `${author}/clean/${file}` })));
    }
    planted.push(...plantedDefects(dir, await lintFolder(join(dir, 'planted'), preset), cleanFindings));
  }
  const withdrawnKeys = new Set(adjudication().withdrawnPlanted.map((w) => `${w.file}:${w.line}:${w.expectedRule}`));
  const isWithdrawn = (p: PlantedDefect) => withdrawnKeys.has(`${p.file}:${p.line}:${p.expectedRule}`);
  const withdrawn = planted.filter(isWithdrawn);
  planted.splice(0, planted.length, ...planted.filter((p) => !isWithdrawn(p)));
  const rules = RULES.map((r) => {
    const falseFindings = clean.filter((f) => f.code === r.code).length;
    const found = planted.filter((p) => p.expectedRule === r.code && p.found).length;
    const missed = planted.filter((p) => p.expectedRule === r.code && !p.found).length;
    return { code: r.code, falseFindings, found, missed, precision: found + falseFindings > 0 ? found / (found + falseFindings) : undefined };
  });
  return { preset, contracts, lines, clean, planted, withdrawn, rules };
}

/** What precision.json holds: the totals, and per rule the counts docs/rules.md shows. */
export interface StoredFigures {
  readonly preset: RulePreset;
  readonly contracts: number;
  readonly lines: number;
  readonly planted: number;
  readonly found: number;
  readonly falseFindings: number;
  readonly falseErrors: number;
  readonly rules: Readonly<Record<string, { falseFindings: number; found: number; missed: number }>>;
}

/** The committed figures: what docs/rules.md shows per rule. */
export function storedFigures(m: Measurement): StoredFigures {
  return {
    preset: m.preset,
    contracts: m.contracts,
    lines: m.lines,
    planted: m.planted.length,
    found: m.planted.filter((p) => p.found).length,
    falseFindings: m.clean.length,
    falseErrors: m.clean.filter((f) => f.severity === 'error').length,
    rules: Object.fromEntries(m.rules.filter((r) => r.falseFindings + r.found + r.missed > 0).map((r) => [r.code, { falseFindings: r.falseFindings, found: r.found, missed: r.missed }])),
  };
}

