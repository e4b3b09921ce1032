/**
 * The operator console in a real browser (issue 12, OPS-02, OPS-05): a member writes to a fictional
 * profile; an operator logs in with password and authenticator code, takes the conversation from the
 * inbox; a second operator (an admin) finds it taken and cannot take it; the first operator types — the
 * member sees the profile typing — and answers; the answer arrives live in the member's open chat.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { staffLogin as login } from './staff-login';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

async function staffLogin(context: BrowserContext, baseURL: string, email: string): Promise<Page> {
  await context.addCookies([{ name: 'lang', value: 'en', url: baseURL }]);
  const page = await context.newPage();
  await page.goto('/admin/operator');
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Foperator/);
  await login(page, email);
  await expect(page.getByRole('heading', { name: 'Operator inbox' })).toBeVisible();
  return page;
}

test('OPS-02 OPS-05 an operator takes a conversation with a fictional profile, a second cannot, and the answer arrives live', async ({ browser, baseURL }) => {
  const memberContext = await browser.newContext();
  const operatorContext = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
    // The member, and a fictional profile from the search.
    await memberContext.addCookies([
      { name: 'lang', value: 'en', url: baseURL! },
      { name: 'entry_ok', value: '1', url: baseURL! },
    ]);
    const member = await memberContext.newPage();
    expect((await member.request.post('/api/user.php', { headers: XHR, data: { email: 'premium@demo.test', password: 'demo-password-1' } })).status()).toBe(200);
    let fictional: { id: number; name: string } | undefined;
    let cursor = '';
    for (let page = 0; page < 20 && !fictional; page++) {
      const found = await (await member.request.get(`/api/members.php?gender=female&gender=male${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: XHR })).json();
      fictional = ([...found.cards, ...(found.similar?.cards ?? [])] as Array<{ id: number; name: string; fictional: boolean }>).find((m) => m.fictional);
      if (!found.next) break;
      cursor = found.next;
    }
    expect(fictional).toBeDefined();
    const streamOpen = member.waitForResponse((r) => r.url().includes('/api/events.php') && r.status() === 200);
    await member.goto(`/members/${fictional!.id}/chat`);
    await streamOpen;
    await member.getByLabel(`Message to ${fictional!.name}`).fill('Hi there, how is your week going?');
    await member.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(member.locator('[data-messages] [data-state="stored"]')).toHaveText(/how is your week going/);

    // The operator finds it in the inbox and takes it.
    const operator = await staffLogin(operatorContext, baseURL!, 'operator@demo.test');
    const row = operator.locator('[data-inbox] tr', { hasText: 'how is your week going' });
    await expect(row).toBeVisible();
    await row.getByRole('link', { name: fictional!.name }).click();
    await operator.getByRole('button', { name: 'Take this conversation' }).click();
    await expect(operator.getByText(/^Yours until/)).toBeVisible();
    const conversationUrl = operator.url().replace(/\?.*$/, '');

    // A second operator (an admin) sees who has it and cannot take it.
    const admin = await staffLogin(adminContext, baseURL!, 'admin@demo.test');
    await admin.goto(conversationUrl);
    await expect(admin.getByText(/^Taken by Demo operator until/)).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Take this conversation' })).toBeDisabled();
    const forced = await admin.request.post(conversationUrl, { form: { action: 'take' }, headers: { origin: new URL(baseURL!).origin } });
    expect(forced.status()).toBe(409);

    // The operator types (the member sees the profile typing), then answers; it arrives live.
    await operator.getByLabel(`Answer as ${fictional!.name}`).pressSequentially('Busy but good, ', { delay: 30 });
    await expect(member.locator('[data-typing]')).toHaveText(`${fictional!.name} is typing…`);
    await operator.getByLabel(`Answer as ${fictional!.name}`).pressSequentially('and yours?', { delay: 10 });
    await operator.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(operator.getByText('The answer is sent.')).toBeVisible();
    await expect(member.locator('[data-messages] .chat-bubble')).toHaveText(['Hi there, how is your week going?', 'Busy but good, and yours?']);
    // The profile stays labelled fictional on the member's screen.
    await expect(member.getByText(/fictional/i).first()).toBeVisible();
  } finally {
    await memberContext.close();
    await operatorContext.close();
    await adminContext.close();
  }
});
