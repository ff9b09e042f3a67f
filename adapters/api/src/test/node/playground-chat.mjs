// Chats five turns in the pagantic playground in headless Chromium (Debian's), then resets the chat and sends one more
// message. Prints one JSON line: per turn, whether Send was disabled while the answer streamed, the answer, the
// timeline's drawn total, the request's duration by its events and by the page's clock, and overlapping labels; then
// the page after the reset.
// Usage: node playground-chat.mjs <base-url> <chromium-path>
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [baseUrl, executablePath] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'pagantic-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await context.newPage();
  await page.goto(baseUrl + '/');
  await page.waitForFunction(() => document.getElementById('model').value !== '', null, { timeout: 20000 });
  const result = { model: await page.inputValue('#model'), turns: [] };
  for (let turn = 1; turn <= 5; turn++) {
    await page.fill('#prompt', 'Tell me about turn ' + turn);
    const started = Date.now();
    await page.click('#send');
    const disabledWhileStreaming = await page.evaluate(() => document.getElementById('send').disabled);
    await page.waitForSelector(`.turn.assistant[data-done="true"]:nth-of-type(${2 * turn})`, { timeout: 30000 });
    const clockMs = Date.now() - started;
    await page.waitForFunction(n => document.querySelectorAll('.turn.assistant[data-done="true"]').length === n
      && /^Request /.test(document.getElementById('summary').textContent)
      && document.getElementById('axis-total'), turn, { timeout: 30000 });
    await page.waitForFunction(() => !document.getElementById('send').disabled, null, { timeout: 30000 });
    result.turns.push(await page.evaluate(async ({ disabledWhileStreaming, clockMs }) => {
      const answers = document.querySelectorAll('.turn.assistant');
      const requestId = document.getElementById('summary').textContent.split(' ')[1].replace(/:$/, '');
      const events = (await (await fetch('/v1/requests/' + requestId + '/events')).json()).events;
      const times = events.map(e => new Date(e.timestamp).getTime());
      const boxes = [...document.querySelectorAll('svg#timeline text')].map(t => t.getBBox());
      let overlaps = 0;
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) overlaps++;
        }
      }
      return {
        disabledWhileStreaming,
        answer: answers[answers.length - 1].textContent,
        errors: document.querySelectorAll('.turn.error').length,
        drawnTotalMs: parseInt(document.getElementById('axis-total').textContent, 10),
        eventsDurationMs: Math.max(...times) - Math.min(...times),
        clockMs,
        labelOverlaps: overlaps,
        states: [...document.querySelectorAll('svg#timeline text.row-name.state')].map(t => t.textContent),
      };
    }, { disabledWhileStreaming, clockMs }));
  }
  await page.click('#reset');
  result.turnsAfterReset = await page.evaluate(() => document.querySelectorAll('.turn').length);
  await page.fill('#prompt', 'A new chat');
  await page.click('#send');
  await page.waitForSelector('.turn.assistant[data-done="true"]', { timeout: 30000 });
  result.turnsAfterNewMessage = await page.evaluate(() => document.querySelectorAll('.turn').length);
  console.log(JSON.stringify(result));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
