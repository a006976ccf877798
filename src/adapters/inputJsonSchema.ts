import { z } from 'zod';
import { RunAnalysisInputSchema } from '../../schema/tool.js';

/** A JSON Schema object, as vendors' tool definitions carry it. */
export type JsonSchemaObject = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  [key: string]: unknown;
};

/**
 * The JSON Schema of `run_analysis`'s arguments, generated from RunAnalysisInputSchema (no `$schema`
 * key: vendors want the bare object).
 */
export function runAnalysisJsonSchema(): JsonSchemaObject {
  const { $schema: _drop, ...schema } = z.toJSONSchema(RunAnalysisInputSchema) as JsonSchemaObject & {
    $schema?: string;
  };
  return schema;
}

/**
 * OpenAI strict mode wants every property required and no length keywords: an optional
 * property becomes required and nullable (null means "not given", see parseToolArgs).
 */
export function strictJsonSchema(schema: JsonSchemaObject): JsonSchemaObject {
  const required = new Set(schema.required ?? []);
  const properties: JsonSchemaObject['properties'] = {};
  for (const [key, prop] of Object.entries(schema.properties)) {
    const { minLength: _min, maxLength: _max, minimum: _lo, maximum: _hi, ...rest } = prop;
    properties[key] = required.has(key) ? rest : { ...rest, type: [rest.type, 'null'] };
  }
  return { ...schema, properties, required: Object.keys(properties), additionalProperties: false };
}
