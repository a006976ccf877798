import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicTool } from '../../../src/adapters/anthropicTool.js';
import { openAITool } from '../../../src/adapters/openAITool.js';
import { parseToolArgs } from '../../../src/adapters/toolCore.js';

// The vendors' documented shapes, written down independently of the adapters.
const JsonSchemaObject = z
  .object({
    type: z.literal('object'),
    properties: z.record(z.string(), z.looseObject({})),
    required: z.array(z.string()).optional(),
  })
  .loose()
  .refine((s) => !('$schema' in s), 'no $schema key');

const OpenAIFunctionTool = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
    description: z.string().min(1),
    parameters: JsonSchemaObject,
    strict: z.boolean().optional(),
  }),
});

const AnthropicTool = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  description: z.string().min(1),
  input_schema: JsonSchemaObject,
});

describe('tool definitions', () => {
  it('OpenAI: a Chat Completions function tool', async () => {
    const t = await openAITool({ description: 'Run JavaScript over award_data.' });
    expect(OpenAIFunctionTool.parse(t.definition)).toBeTruthy();
    expect(t.definition.function.name).toBe('run_analysis');
    expect(t.definition.function.parameters.required).toEqual(['code']);
    await t.close();
  });

  it('OpenAI strict mode: every property required, optional ones nullable, no extra keys', async () => {
    const t = await openAITool({ description: 'd', strict: true });
    const p = OpenAIFunctionTool.parse(t.definition).function.parameters;
    expect(t.definition.function.strict).toBe(true);
    expect(p.required).toEqual(['code', 'session_id', 'max_chars', 'row_offset']);
    expect(p.additionalProperties).toBe(false);
    expect(p.properties.session_id).toMatchObject({ type: ['string', 'null'] });
    expect(JSON.stringify(p)).not.toMatch(/minLength|maxLength|minimum|maximum/);
    expect(p.properties.max_chars).toMatchObject({ type: ['integer', 'null'] });
    await t.close();
  });

  it('Anthropic: name, description, input_schema of type object', async () => {
    const t = await anthropicTool({ description: 'Run JavaScript over award_data.', name: 'sbir_analysis' });
    expect(AnthropicTool.parse(t.definition).name).toBe('sbir_analysis');
    await t.close();
  });

  it('rejects a tool name the vendors would refuse', async () => {
    await expect(openAITool({ description: 'd', name: 'run analysis!' })).rejects.toThrow(
      /Expected the `name` option to match/,
    );
  });
});

describe('parseToolArgs', () => {
  it('accepts an object, the JSON string OpenAI sends, and null for an absent session_id', () => {
    expect(parseToolArgs({ code: '1' })).toEqual({ ok: true, input: { code: '1' } });
    expect(parseToolArgs('{"code":"1","session_id":"s"}')).toEqual({ ok: true, input: { code: '1', session_id: 's' } });
    expect(parseToolArgs({ code: '1', session_id: null })).toEqual({ ok: true, input: { code: '1' } });
  });

  it('turns bad arguments into a VALIDATION_ERROR output with a hint', () => {
    const bad = [parseToolArgs('{code'), parseToolArgs({}), parseToolArgs({ code: 42 }), parseToolArgs({ code: '' })];
    for (const r of bad) {
      expect(r.ok).toBe(false);
      if (!r.ok)
        expect(r.output.error).toMatchObject({ type: 'VALIDATION_ERROR', hint: expect.stringContaining('"code"') });
    }
  });
});
