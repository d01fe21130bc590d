import contract from '../../../../schemas/contract.schema.json' with { type: 'json' };
import config from '../../../../schemas/config.schema.json' with { type: 'json' };
import snapshot from '../../../../schemas/snapshot.schema.json' with { type: 'json' };
import identity from '../../../../schemas/sections/identity.schema.json' with { type: 'json' };
import memoryContract from '../../../../schemas/sections/memory-contract.schema.json' with { type: 'json' };
import memoryPolicy from '../../../../schemas/sections/memory-policy.schema.json' with { type: 'json' };
import memoryFreshness from '../../../../schemas/sections/memory-freshness.schema.json' with { type: 'json' };
import memoryPools from '../../../../schemas/sections/memory-pools.schema.json' with { type: 'json' };
import memoryRequirements from '../../../../schemas/sections/memory-requirements.schema.json' with { type: 'json' };
import trigger from '../../../../schemas/sections/trigger.schema.json' with { type: 'json' };
import tools from '../../../../schemas/sections/tools.schema.json' with { type: 'json' };
import constraints from '../../../../schemas/sections/constraints.schema.json' with { type: 'json' };
import outputSchema from '../../../../schemas/sections/output-schema.schema.json' with { type: 'json' };
import failureProtocol from '../../../../schemas/sections/failure-protocol.schema.json' with { type: 'json' };
import humanInTheLoop from '../../../../schemas/sections/human-in-the-loop.schema.json' with { type: 'json' };
import budgets from '../../../../schemas/sections/budgets.schema.json' with { type: 'json' };
import task from '../../../../schemas/sections/task.schema.json' with { type: 'json' };
import versioning from '../../../../schemas/sections/versioning.schema.json' with { type: 'json' };
import compliance from '../../../../schemas/sections/compliance.schema.json' with { type: 'json' };
import resources from '../../../../schemas/sections/resources.schema.json' with { type: 'json' };
import semanticAnchors from '../../../../schemas/sections/semantic-anchors.schema.json' with { type: 'json' };
import userStories from '../../../../schemas/sections/user-stories.schema.json' with { type: 'json' };

/** A JSON Schema as plain data (draft 2020-12, with our `x-` annotations). */
export type JsonSchema = { readonly [key: string]: unknown };

/** The contract schema: the whole model, one property per section. */
export const contractSchema: JsonSchema = contract;
/** The configuration file's schema. */
export const configSchema: JsonSchema = config;
/** The dry-run snapshot schema (docs/dry-run.md). */
export const snapshotSchema: JsonSchema = snapshot;

/** Every section schema, in the order of `schemas/sections/`. Bundled, so no file I/O. */
export const sectionSchemas: readonly JsonSchema[] = [
  identity, memoryContract, memoryPolicy, memoryFreshness, memoryPools, memoryRequirements, trigger, tools,
  constraints, outputSchema, failureProtocol, humanInTheLoop, budgets, task, versioning, compliance, resources,
  semanticAnchors, userStories,
];

/** Finds a section schema by `$id`. */
export function schemaById(id: string): JsonSchema | undefined {
  return sectionSchemas.find((s) => s['$id'] === id);
}
