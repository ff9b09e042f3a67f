// Loads the pagantic playground page in headless Chromium (Debian's, not a downloaded browser), sends one message and
// prints one JSON line of what the page shows: the streamed answer and the timeline's bars.
// Usage: node playground-browser.mjs <base-url> <chromium-path>
import { chromium } from 'playwright-core';

const [baseUrl, executablePath] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  const deltas = [];
  await page.exposeFunction('recordAnswer', text => deltas.push(text));
  await page.goto(baseUrl + '/');
  // watch the answer grow while it streams
  await page.evaluate(() => {
    new MutationObserver(() => {
      const answer = document.querySelector('.turn.assistant');
      if (answer) window.recordAnswer(answer.textContent);
    }).observe(document.getElementById('log'), { childList: true, subtree: true, characterData: true });
  });
  await page.fill('#prompt', 'What is the weather in Paris?');
  await page.click('#send');
  await page.waitForSelector('.turn.assistant[data-done="true"]', { timeout: 20000 });
  await page.waitForSelector('svg#timeline rect.bar', { timeout: 20000 });
  const result = await page.evaluate(() => ({
    answer: document.querySelector('.turn.assistant').textContent,
    inferenceBars: document.querySelectorAll('svg#timeline rect.bar.inference').length,
    toolBars: document.querySelectorAll('svg#timeline rect.bar.tool').length,
    states: [...document.querySelectorAll('svg#timeline text')].map(t => t.textContent)
      .filter(t => /^[A-Z]+$/.test(t)),
    summary: document.getElementById('summary').textContent,
  }));
  result.partialAnswersSeen = new Set(deltas).size;
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
}
