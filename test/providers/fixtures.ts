/**
 * Schemas and tool names taken from each provider's documentation (the page in `source`), with
 * what the profile must say of them: accepted, or the problems (relative pointer and variant)
 * it must report. Re-check them with the profiles (docs/providers.md).
 */
import type { Target } from '../../server/src/service/providers/profiles.ts';

export interface ProviderFixture {
  readonly target: Target;
  readonly title: string;
  readonly source: string;
  readonly schema?: unknown;
  readonly tool?: string;
  readonly accepted: boolean;
  readonly expected?: readonly string[];
}

const OPENAI_WEATHER = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' },
    units: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit'], description: 'Units the temperature will be returned in.' },
  },
  required: ['location', 'units'],
  additionalProperties: false,
};
const CLAUDE_WEATHER = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'The unit of temperature, either "celsius" or "fahrenheit"' },
  },
  required: ['location'],
};
const GEMINI_LIGHTS = {
  type: 'object',
  properties: {
    brightness: { type: 'integer', description: 'Light level from 0 to 100. Zero is off and 100 is full brightness' },
    color_temp: { type: 'string', enum: ['daylight', 'cool', 'warm'], description: 'Color temperature of the light fixture, which can be `daylight`, `cool` or `warm`.' },
  },
  required: ['brightness', 'color_temp'],
};
const MCP_WEATHER_OUT = {
  type: 'object',
  properties: {
    temperature: { type: 'number', description: 'Temperature in celsius' },
    conditions: { type: 'string', description: 'Weather conditions description' },
    humidity: { type: 'number', description: 'Humidity percentage' },
  },
  required: ['temperature', 'conditions', 'humidity'],
};

const OPENAI = 'https://platform.openai.com/docs/guides/function-calling';
const OPENAI_SO = 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas';
const CLAUDE = 'https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use';
const CLAUDE_STRICT = 'https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations';
const GEMINI = 'https://ai.google.dev/gemini-api/docs/function-calling';
const GEMINI_SCHEMA = 'https://ai.google.dev/api/caching#Schema';
const MCP = 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools';

export const FIXTURES: readonly ProviderFixture[] = [
  { target: 'openai-strict', title: 'get_weather with strict: true', source: OPENAI, schema: OPENAI_WEATHER, tool: 'get_weather', accepted: true },
  { target: 'openai-strict', title: 'an optional field left out of required', source: OPENAI_SO, schema: { ...OPENAI_WEATHER, required: ['location'] }, accepted: false, expected: ['/properties/units required'] },
  { target: 'openai-strict', title: 'an object without additionalProperties: false', source: OPENAI_SO, schema: CLAUDE_WEATHER, accepted: false, expected: [' closed', '/properties/unit required'] },
  { target: 'openai-strict', title: 'allOf composition', source: OPENAI_SO, schema: { type: 'object', allOf: [{ properties: { a: { type: 'string' } } }], additionalProperties: false }, accepted: false, expected: ['/allOf default'] },
  { target: 'openai-strict', title: 'a root that is anyOf, not an object', source: OPENAI_SO, schema: { anyOf: [OPENAI_WEATHER] }, accepted: false, expected: [' root'] },
  { target: 'openai-strict', title: 'a function name with a space', source: OPENAI, tool: 'get weather', accepted: false, expected: ['/name name'] },
  { target: 'anthropic', title: 'get_weather input_schema', source: CLAUDE, schema: CLAUDE_WEATHER, tool: 'get_weather', accepted: true },
  { target: 'anthropic', title: 'an input_schema that is not an object', source: CLAUDE, schema: { type: 'string' }, accepted: false, expected: ['/type root'] },
  { target: 'anthropic', title: 'a tool name longer than 64 characters', source: CLAUDE, tool: `get_${'x'.repeat(61)}`, accepted: false, expected: ['/name name'] },
  { target: 'anthropic-strict', title: 'get_weather with strict: true and additionalProperties: false', source: CLAUDE_STRICT, schema: { ...CLAUDE_WEATHER, additionalProperties: false }, accepted: true },
  { target: 'anthropic-strict', title: 'numerical and string length constraints', source: CLAUDE_STRICT, schema: { type: 'object', properties: { age: { type: 'integer', minimum: 0 }, name: { type: 'string', maxLength: 40 } }, additionalProperties: false }, accepted: false, expected: ['/properties/age/minimum default', '/properties/name/maxLength default'] },
  { target: 'anthropic-strict', title: 'minItems above 1', source: CLAUDE_STRICT, schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 2 } }, additionalProperties: false }, accepted: false, expected: ['/properties/tags/minItems minItems'] },
  { target: 'gemini', title: 'set_light_values function declaration', source: GEMINI, schema: GEMINI_LIGHTS, tool: 'set_light_values', accepted: true },
  { target: 'gemini', title: 'a nullable field written as a list of types', source: GEMINI_SCHEMA, schema: { type: 'object', properties: { note: { type: ['string', 'null'] } } }, accepted: false, expected: ['/properties/note/type typeList'] },
  { target: 'gemini', title: 'keywords outside the Schema object: additionalProperties, examples', source: GEMINI_SCHEMA, schema: { type: 'object', properties: { id: { type: 'string', examples: ['A-1'] } }, additionalProperties: false }, accepted: false, expected: ['/additionalProperties default', '/properties/id/examples default'] },
  { target: 'gemini', title: 'a function name starting with a digit', source: GEMINI, tool: '1_set_lights', accepted: false, expected: ['/name name'] },
  { target: 'mcp', title: 'get_weather inputSchema', source: MCP, schema: { type: 'object', properties: { location: { type: 'string', description: 'City name or zip code' } }, required: ['location'] }, tool: 'get_weather', accepted: true },
  { target: 'mcp', title: 'get_weather_data outputSchema', source: MCP, schema: MCP_WEATHER_OUT, tool: 'admin.tools.list', accepted: true },
  { target: 'mcp', title: 'an inputSchema that is not an object', source: MCP, schema: { type: 'array', items: { type: 'string' } }, accepted: false, expected: ['/type root'] },
  { target: 'mcp', title: 'a tool name with a space and a comma', source: MCP, tool: 'get weather,now', accepted: false, expected: ['/name name'] },
];
