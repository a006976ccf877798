import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { aiSdkTool } from '../../../src/adapters/aiSdkTool.js';
import { createSessionStore } from '../../../src/adapters/sessionStore.js';
import { shutdown } from '../../../src/index.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that makes the given tool calls, one step each, then answers with text. */
function scriptedModel(calls: Array<Record<string, unknown>>) {
  const seenTools: unknown[] = [];
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      seenTools.push(options.tools);
      const input = calls[step++];
      if (!input)
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [
          { type: 'tool-call', toolCallId: `call-${step}`, toolName: 'run_analysis', input: JSON.stringify(input) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  return { model, seenTools };
}

const sessions = createSessionStore();
afterAll(async () => {
  await sessions.close();
  await shutdown();
});

describe('aiSdkTool through generateText', () => {
  it('sends the JSON Schema to the model and returns the run as the tool result', async () => {
    const { model, seenTools } = scriptedModel([{ code: 'print("hi"); 6 * 7' }]);
    const run_analysis = await aiSdkTool({ sessions, description: 'Run JavaScript over award_data.' });
    const out = await generateText({ model, tools: { run_analysis }, stopWhen: stepCountIs(3), prompt: 'compute' });

    const tools = seenTools[0] as Array<{
      type: string;
      name: string;
      description: string;
      inputSchema: { type: string; properties: Record<string, unknown>; required: string[] };
    }>;
    expect(tools[0]).toMatchObject({
      type: 'function',
      name: 'run_analysis',
      description: 'Run JavaScript over award_data.',
    });
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['code'] });
    expect(Object.keys(tools[0]!.inputSchema.properties)).toEqual(['code', 'session_id', 'max_chars', 'row_offset']);

    const result = out.steps[0]!.toolResults[0]!;
    expect(result.toolName).toBe('run_analysis');
    expect(result.output).toMatchObject({ ok: true, stdout: 'hi\n' });
    expect(String((result.output as { value: unknown }).value)).toContain('42');
    expect(out.text).toBe('done');
  });

  it('keeps variables across calls with the same session_id', async () => {
    const { model } = scriptedModel([
      { code: 'const answer = 6 * 7; answer', session_id: 'chat-1' },
      { code: 'answer + 1', session_id: 'chat-1' },
    ]);
    const out = await generateText({
      model,
      tools: { run_analysis: await aiSdkTool({ sessions, description: 'd' }) },
      stopWhen: stepCountIs(4),
      prompt: 'p',
    });
    const second = out.steps[1]!.toolResults[0]!.output as { ok: boolean; value: unknown };
    expect(second.ok).toBe(true);
    expect(String(second.value)).toContain('43');
  });

  it('hands a guest error back to the model with its hint', async () => {
    const { model } = scriptedModel([{ code: 'award_data.nope()' }]);
    const out = await generateText({
      model,
      tools: { run_analysis: await aiSdkTool({ sessions, description: 'd' }) },
      stopWhen: stepCountIs(3),
      prompt: 'p',
    });
    const output = out.steps[0]!.toolResults[0]!.output as { ok: boolean; error: { type: string; hint?: string } };
    expect(output.ok).toBe(false);
    expect(output.error.type).toBe('RUNTIME_ERROR');
    expect(output.error.hint).toBeTruthy();
  });
});
