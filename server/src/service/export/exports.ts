/**
 * Exports of a contract for a runtime (docs/providers.md, "Exports"): its tools as OpenAI, Anthropic
 * or MCP tool definitions, the system prompt and the output schema where the target has a place
 * for them, or every schema as one JSON Schema 2020-12 document. The contract stays the one source
 * of truth; the exports are plain JSON data built from its typed view.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { contractView, type ContractView, type ToolView } from '../model/contractView.ts';
import { arr, obj, str } from '../model/data.ts';
import { normaliseName } from '../model/names.ts';
import { buildSystemPrompt } from '../run/engine/prompt.ts';
import { runMessage } from '../run/runMessage.ts';
import { PROFILES } from '../providers/profiles.ts';
import { schemaProblems, toolProblems } from '../providers/check.ts';

export const EXPORT_TARGETS = ['openai-tools', 'anthropic-tools', 'mcp-tools', 'json-schema'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

type Json = Record<string, unknown>;
const EMPTY_INPUT: Json = { type: 'object', properties: {} };

/** What the model reads of a tool: its description, then when to use it and when not to. */
export function toolDescription(t: ToolView): string {
  const lines = [t.description];
  if (t.whenToUse) lines.push(runMessage('prompt.tool-when', { text: t.whenToUse }));
  if (t.whenNotToUse) lines.push(runMessage('prompt.tool-not', { text: t.whenNotToUse }));
  return lines.filter(Boolean).join('\n');
}

/** The system prompt of the contract without the parts a run fills in (query entities, memory). */
export function exportedSystemPrompt(view: ContractView): string {
  return buildSystemPrompt(view, undefined, {});
}

/** A tool's raw data (side effects, idempotence), by its pointer `/tools/<i>`. */
function toolData(model: ParsedContract, t: ToolView): Json {
  const i = Number(t.pointer.split('/')[2]);
  return obj(arr(model.data['tools'])[i]) ?? {};
}

/** `strict: true` only when the schemas pass the strict profile: a provider answers a rejected one with an error. */
function strictOk(target: 'openai-strict' | 'anthropic-strict', t: ToolView): boolean {
  const p = PROFILES[target];
  return toolProblems(t.name, toolDescription(t), p).length === 0 && schemaProblems(t.inputSchema ?? EMPTY_INPUT, p).length === 0;
}

function outputName(view: ContractView): string {
  const base = normaliseName(view.name).replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return `${base || 'contract'}_output`.slice(0, 64);
}

function openaiTools(view: ContractView): Json {
  const out: Json = {
    messages: [{ role: 'system', content: exportedSystemPrompt(view) }],
    tools: [...view.tools.values()].map((t) => ({
      type: 'function',
      function: { name: t.name, description: toolDescription(t), parameters: t.inputSchema ?? EMPTY_INPUT, strict: strictOk('openai-strict', t) },
    })),
  };
  if (view.outputSchema) {
    const strict = schemaProblems(view.outputSchema, PROFILES['openai-strict']).length === 0;
    out['response_format'] = { type: 'json_schema', json_schema: { name: outputName(view), schema: view.outputSchema, strict } };
  }
  return out;
}

function anthropicTools(view: ContractView): Json {
  const out: Json = {
    system: exportedSystemPrompt(view),
    tools: [...view.tools.values()].map((t) => ({ name: t.name, description: toolDescription(t), input_schema: t.inputSchema ?? EMPTY_INPUT, strict: strictOk('anthropic-strict', t) })),
  };
  if (view.outputSchema) out['output_config'] = { format: { type: 'json_schema', schema: view.outputSchema } };
  return out;
}

/**
 * MCP tool definitions (a `tools/list` result). `side_effects` and `idempotent` become the
 * annotations clients use to decide on confirmation: `none`/`read` → `readOnlyHint`, `write` and
 * `external` → `destructiveHint` (unless the tool has a rollback), `external` → `openWorldHint`.
 */
function mcpTools(model: ParsedContract, view: ContractView): Json {
  return {
    tools: [...view.tools.values()].map((t) => {
      const d = toolData(model, t);
      const effects = str(d['side_effects']);
      const annotations: Json = {};
      if (effects) {
        annotations['readOnlyHint'] = effects === 'none' || effects === 'read';
        if (effects === 'write' || effects === 'external') annotations['destructiveHint'] = d['rollback'] === undefined;
        annotations['openWorldHint'] = effects === 'external';
      }
      if (typeof d['idempotent'] === 'boolean') annotations['idempotentHint'] = d['idempotent'];
      return {
        name: t.name,
        description: toolDescription(t),
        inputSchema: t.inputSchema ?? EMPTY_INPUT,
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      };
    }),
  };
}

/** Every schema of the contract in one JSON Schema 2020-12 document: `$defs/<tool>.input`, `<tool>.output`, `output`. */
function jsonSchema(view: ContractView, version: string | undefined): Json {
  const defs: Json = {};
  for (const t of view.tools.values()) {
    if (t.inputSchema) defs[`${t.name}.input`] = t.inputSchema;
    if (t.outputSchema) defs[`${t.name}.output`] = t.outputSchema;
  }
  if (view.outputSchema) defs['output'] = view.outputSchema;
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', title: version ? `${view.name} ${version}` : view.name, $defs: defs };
}

/**
 * The export of a contract for a target, as JSON data. `omit`: tools left out of it and of the
 * system prompt (the CLI leaves out the tools a ❌ boundary forbids, docs/providers.md "Exports").
 */
export function exportContract(model: ParsedContract, target: ExportTarget, omit: ReadonlySet<string> = new Set()): Json {
  const all = contractView(model);
  const view: ContractView = omit.size === 0 ? all : { ...all, tools: new Map([...all.tools].filter(([name]) => !omit.has(name))) };
  switch (target) {
    case 'openai-tools':
      return openaiTools(view);
    case 'anthropic-tools':
      return anthropicTools(view);
    case 'mcp-tools':
      return mcpTools(model, view);
    case 'json-schema':
      return jsonSchema(view, str(model.data['version']));
  }
}
