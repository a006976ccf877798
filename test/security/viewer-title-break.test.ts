// Attack: strings that try to close the element they are printed in (</title>, </style>, </script>, </textarea>, attribute quotes).
import { describe, expect, it } from 'vitest';
import { activeContent, bothPages, record } from '../unit/viewer/fixtures.js';

const BREAK = '</title></style></script></textarea>"\'><script>window.__pwned=1</script><title>owned';

describe('viewer: element-breaking strings', () => {
  it('a session id in the report title and attributes stays inside its element', async () => {
    const rec = record({ session: { id: BREAK, seq: 1 }, outputs: { stdout: BREAK, valueText: BREAK } });
    for (const page of await bothPages([rec], page_session())) {
      expect(activeContent(page.doc), page.name).toEqual([]);
      expect(page.doc.querySelectorAll('title')).toHaveLength(1);
      if (page.name === 'report') expect(page.doc.title).toBe(`sbirtools report: session ${BREAK}`);
      expect(page.doc.querySelector('article')!.getAttribute('data-session')).toBe(BREAK);
      expect(page.doc.querySelectorAll('style')).toHaveLength(1);
    }
  });
});

function page_session(): string {
  return BREAK;
}
