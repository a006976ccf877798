import { z } from 'zod';

/** The engines a session can run on (docs/engines.md): the one list every other is derived from. */
export const EngineNameSchema = z.enum(['isolated-vm', 'quickjs']);
export const ENGINE_NAMES = EngineNameSchema.options;

/** The `engine` option: 'auto' is isolated-vm when it loads here, else the QuickJS WASM engine. */
export const ENGINE_CHOICES = ['auto', ...ENGINE_NAMES] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];
/** The choices as a message quotes them: 'auto', 'isolated-vm' or 'quickjs'. */
export const ENGINE_CHOICES_TEXT = ENGINE_CHOICES.map((c) => `'${c}'`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** Which engine ran a session, as the result reports it. */
export const EngineLabelSchema = z.object({
  name: EngineNameSchema,
  /** The engine package's version: isolated-vm's (6.2.0, 7.0.1, 5.0.4) or quickjs-emscripten's. */
  version: z.string(),
});
export type EngineLabel = z.infer<typeof EngineLabelSchema>;
