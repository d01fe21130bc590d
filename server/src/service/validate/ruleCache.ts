import type { Finding } from '../model/types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { carriedOf, setCarried } from '../parse/lineage.ts';
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
  readonly findings: readonly Finding[];
}

/** The per-rule results of one validation, handed to the next model of the document (parse/lineage.ts). */
export class RuleResults {
  private readonly prior: ReadonlyMap<string, Entry> | undefined;
  private readonly next = new Map<string, Entry>();

  constructor(private readonly model: ParsedContract) {
    const c = carriedOf(model);
    this.prior = c instanceof Map ? (c as ReadonlyMap<string, Entry>) : undefined;
  }

  /**
   * Runs `rule` into `out`, or reuses its findings when it read only model keys (through `data`, `section` and
   * `locate`) whose values and sections are the objects they were, with the same options. A rule
   * that reads the whole model or the workspace facts runs every time.
   */
  check(rule: Rule, facts: WorkspaceFacts, options: Readonly<Record<string, unknown>>, out: Finding[]): void {
    const model = this.model;
    const optionsKey = JSON.stringify(options);
    const old = this.prior?.get(rule.code);
    if (old && old.options === optionsKey && [...old.reads].every(([k, [v, s]]) => model.data[k] === v && model.owners.get(k) === s)) {
      this.next.set(rule.code, old);
      out.push(...old.findings);
      return;
    }
    const reads = new Map<string, readonly [unknown, unknown]>();
    let whole = false;
    const note = (k: string | symbol) => {
      if (typeof k === 'string' && !reads.has(k)) reads.set(k, [model.data[k], model.owners.get(k)]);
    };
    const data = new Proxy(model.data, {
      get: (t, k, r) => (note(k), Reflect.get(t, k, r)),
      has: (t, k) => (note(k), Reflect.has(t, k)),
      getOwnPropertyDescriptor: (t, k) => (note(k), Reflect.getOwnPropertyDescriptor(t, k)),
      ownKeys: (t) => ((whole = true), Reflect.ownKeys(t)),
    });
    const ctx: RuleContext = {
      get model() {
        whole = true;
        return model;
      },
      get facts() {
        whole = true;
        return facts;
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
    };
    const findings: Finding[] = [];
    // Pushed as found: a rule that throws keeps the findings it made before (validate.ts).
    for (const f of rule.check!(ctx)) out.push(f), findings.push(f);
    if (!whole) this.next.set(rule.code, { options: optionsKey, reads, findings });
  }

  /** Keeps this validation's results with the model, for the next version to reuse. */
  save(): void {
    setCarried(this.model, this.next);
  }
}
