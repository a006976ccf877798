/**
 * Replaces Arquero's `format/stream/byte-stream.js` in the bundle: the original opens files
 * (node:fs) and URLs (fetch). The sandbox has neither, so loaders fail with a clear message.
 */
export async function byteStream(path: string): Promise<never> {
  throw new Error(
    `Loading "${String(path)}" is not available: the sandbox has no file system or network. ` +
      'award_data is already loaded; build other tables with aq.table({...}) or aq.from([...]).',
  );
}
