// Loads the pagantic playground page in headless Chromium (Debian's, not a downloaded browser) and sends two messages.
// While an answer streams it prints "drawn tool_call" once the timeline shows a tool call (the test's tool waits for
// that line), and it keeps each distinct list of agent-event rows the timeline showed. Then it prints one JSON line of
// what the page showed per turn: the streamed answer, the timeline's bars and agent-event rows, its drawn total.
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
  let answers = [], agentRowLists = [], toolCallDrawn = false;
  await page.exposeFunction('recordAnswer', text => answers.push(text));
  await page.exposeFunction('recordAgentRows', names => {
    if (agentRowLists.at(-1) !== names) agentRowLists.push(names);
    if (!toolCallDrawn && names.includes('tool_call')) {
      toolCallDrawn = true;
      console.log('drawn tool_call');
    }
  });
  await page.goto(baseUrl + '/');
  // watch the answer grow and the timeline's agent-event rows appear while the answer streams
  await page.evaluate(() => {
    new MutationObserver(() => {
      const all = document.querySelectorAll('.turn.assistant');
      if (all.length) window.recordAnswer(all[all.length - 1].textContent);
    }).observe(document.getElementById('log'), { childList: true, subtree: true, characterData: true });
    new MutationObserver(() => window.recordAgentRows(
      [...document.querySelectorAll('svg#timeline text.row-name.agent')].map(t => t.textContent).join(' ')))
      .observe(document.getElementById('timeline'), { childList: true });
  });
  const turns = [];
  for (const [turn, prompt] of ['What is the weather in Paris?', 'And tomorrow?'].entries()) {
    answers = [];
    agentRowLists = [];
    await page.fill('#prompt', prompt);
    await page.click('#send');
    await page.waitForFunction(n => document.querySelectorAll('.turn.assistant[data-done="true"]').length === n
      && /^Request /.test(document.getElementById('summary').textContent), turn + 1, { timeout: 30000 });
    await page.waitForFunction(() => !document.getElementById('send').disabled, null, { timeout: 30000 });
    const shown = await page.evaluate(async () => {
      const all = document.querySelectorAll('.turn.assistant');
      const requestId = document.getElementById('summary').textContent.split(' ')[1].replace(/:$/, '');
      const events = (await (await fetch('/v1/requests/' + requestId + '/events')).json()).events;
      const times = events.map(e => new Date(e.timestamp).getTime());
      const agentRects = [...document.querySelectorAll('svg#timeline rect.agent')];
      return {
        answer: all[all.length - 1].textContent,
        errors: document.querySelectorAll('.turn.error').length,
        inferenceBars: document.querySelectorAll('svg#timeline rect.bar.inference').length,
        toolBars: document.querySelectorAll('svg#timeline rect.bar.tool').length,
        states: [...document.querySelectorAll('svg#timeline text.row-name.state')].map(t => t.textContent),
        agentRows: [...document.querySelectorAll('svg#timeline text.row-name.agent')].map(t => t.textContent),
        agentDetails: [...document.querySelectorAll('svg#timeline rect.agent title')].map(t => t.textContent),
        agentX: agentRects.map(r => Number(r.getAttribute('x'))),
        failedMarks: document.querySelectorAll('svg#timeline rect.agent.failed').length,
        drawnTotalMs: parseInt(document.getElementById('axis-total').textContent, 10),
        eventsDurationMs: Math.max(...times) - Math.min(...times),
        summary: document.getElementById('summary').textContent,
      };
    });
    shown.partialAnswersSeen = new Set(answers).size;
    shown.agentRowsWhileStreaming = agentRowLists;
    turns.push(shown);
  }
  console.log(JSON.stringify({ turns }));
} finally {
  await browser.close();
}
