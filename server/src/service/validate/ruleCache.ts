import type { Finding } from '../model/types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { carriedItemsOf, carriedOf, setCarried, setCarriedItems } from '../parse/lineage.ts';
import { locate } from '../model/locate.ts';
import type { WorkspaceFacts } from './facts.ts';
import type { Rule, RuleContext } from './rule.ts';

/**
 * What one rule read and found. `reads` holds, per model key the rule looked at, the value and the
 * section it had: while each is the same object in the next model, the rule would find the same.
 */
interface Entry {
  readonly options: string;
  readonly reads: ReadonlyMap<string, readonly [unknown, unknown]>;
  /** The configuration it read (`RuleContext.config`), if it read it. */
  readonly config?: WorkspaceFacts['config'];
  readonly findings: readonly Finding[];
}

/** What a rule found about one item of an array section (`RuleContext.item`): the item, where it was, with which options, what else was read. */
interface ItemEntry {
  readonly item: object;
  readonly line: number;
  readonly character: number;
  readonly options: string;
  readonly also: string;
  readonly findings: readonly Finding[];
}
/** Per rule, its items' entries by pointer (`/tools/3`). */
type ItemResults = Map<string, ReadonlyMap<string, ItemEntry>>;

/** How many times each rule checked each item (`tool-write-safety tools/3`) rather than reusing its findings: tests count them (docs/performance.md). */
const itemChecks = new Map<string, number>();
export const itemChecksRun = (): ReadonlyMap<string, number> => new Map(itemChecks);

/** The pointer of item `index` of array section `key`, made once (up to MAX_KEPT_POINTERS items): every rule asks for every item on every keystroke. */
function itemPointer(key: string, index: number): string {
  const made = () => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/${index}`;
  if (index >= MAX_KEPT_POINTERS) return made();
  let list = pointers.get(key);
  if (!list) pointers.set(key, (list = []));
  return (list[index] ??= made());
}
const MAX_KEPT_POINTERS = 2048;
const pointers = new Map<string, string[]>();

/** The per-rule results of one validation, handed to the next model of the document (parse/lineage.ts). */
export class RuleResults {
  private readonly prior: ReadonlyMap<string, Entry> | undefined;
  private readonly next = new Map<string, Entry>();
  private readonly priorItems: ItemResults | undefined;
  private readonly nextItems: ItemResults = new Map();

  constructor(private readonly model: ParsedContract) {
    const c = carriedOf(model);
    this.prior = c instanceof Map ? (c as ReadonlyMap<string, Entry>) : undefined;
    const i = carriedItemsOf(model);
    this.priorItems = i instanceof Map ? (i as ItemResults) : undefined;
  }

  /**
   * Runs `rule` into `out`, or reuses its findings when it read only model keys (through `data`, `section` and
   * `locate`) whose values and sections are the objects they were, and the configuration (`config`)
   * when it is the object it was, with the same options. A rule
   * that reads the whole model or the workspace facts runs every time, but what it found about
   * an unchanged item (`item`) is reused.
   */
  check(rule: Rule, facts: WorkspaceFacts, options: Readonly<Record<string, unknown>>, out: Finding[]): void {
    const model = this.model;
    const optionsKey = JSON.stringify(options);
    const old = this.prior?.get(rule.code);
    const oldItems = this.priorItems?.get(rule.code);
    if (old && old.options === optionsKey && (old.config === undefined || old.config === facts.config) && [...old.reads].every(([k, [v, s]]) => model.data[k] === v && model.owners.get(k) === s)) {
      this.next.set(rule.code, old);
      if (oldItems) this.nextItems.set(rule.code, oldItems);
      out.push(...old.findings);
      return;
    }
    const reads = new Map<string, readonly [unknown, unknown]>();
    let whole = false;
    let config: WorkspaceFacts['config'] | undefined;
    const note = (k: string | symbol) => {
      if (typeof k === 'string' && !reads.has(k)) reads.set(k, [model.data[k], model.owners.get(k)]);
    };
    const data = new Proxy(model.data, {
      get: (t, k, r) => (note(k), Reflect.get(t, k, r)),
      has: (t, k) => (note(k), Reflect.has(t, k)),
      getOwnPropertyDescriptor: (t, k) => (note(k), Reflect.getOwnPropertyDescriptor(t, k)),
      ownKeys: (t) => ((whole = true), Reflect.ownKeys(t)),
    });
    const items = new Map<string, ItemEntry>();
    const ctx: RuleContext = {
      get model() {
        whole = true;
        return model;
      },
      get facts() {
        whole = true;
        return facts;
      },
      get config() {
        return (config = facts.config);
      },
      data,
      options,
      section: (k) => (note(k), model.owners.get(k)),
      locate: (p, exact) => {
        const k = p.split('/')[1];
        if (k === undefined) whole = true;
        else note(k.replace(/~1/g, '/').replace(/~0/g, '~'));
        return locate(model, p, exact);
      },
      item: (key, index, check, also = '') => this.item(key, index, check, { rule: rule.code, options: optionsKey, also, prior: oldItems, next: items }),
    };
    const findings: Finding[] = [];
    try {
      // Pushed as found: a rule that throws keeps the findings it made before (validate.ts).
      for (const f of rule.check!(ctx)) out.push(f), findings.push(f);
    } finally {
      if (items.size > 0) this.nextItems.set(rule.code, items);
    }
    if (!whole) this.next.set(rule.code, { options: optionsKey, reads, findings, ...(config ? { config } : {}) });
  }

  /** `RuleContext.item`: the item's findings from `prior` when it is the same object at the same place, else `check`'s. */
  private item(key: string, index: number, check: () => Iterable<Finding>, { rule, options, also, prior, next }: { rule: string; options: string; also: string; prior: ReadonlyMap<string, ItemEntry> | undefined; next: Map<string, ItemEntry> }): readonly Finding[] {
    const value = (this.model.data[key] as readonly unknown[] | undefined)?.[index];
    const pointer = itemPointer(key, index);
    const start = locate(this.model, pointer)?.value.start;
    if (value === null || typeof value !== 'object' || !start) return [...check()];
    const old = prior?.get(pointer);
    if (old && old.item === value && old.line === start.line && old.character === start.character && old.options === options && old.also === also) {
      next.set(pointer, old);
      return old.findings;
    }
    const counted = `${rule} ${key}/${index}`;
    itemChecks.set(counted, (itemChecks.get(counted) ?? 0) + 1);
    const findings = [...check()];
    next.set(pointer, { item: value, line: start.line, character: start.character, options, also, findings });
    return findings;
  }

  /** Keeps this validation's results with the model, for the next version to reuse. */
  save(): void {
    setCarried(this.model, this.next);
    setCarriedItems(this.model, this.nextItems);
  }
}
