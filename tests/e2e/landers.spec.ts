/**
 * The landers in a real browser: every lander on both sites (two niches) in two languages, the way to
 * signup, the swipe deck by keyboard and by pointer drag, the 404 page, and a 360 px phone. The tinderswipe
 * deck on a page nobody has touched yet: landers-untouched.spec.ts.
 * Site 1 (Flirtlokaal, niche 1) is the baseURL's localhost; site 2 (Reife Kontakte, niche 6) is 127.0.0.1.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

const LANDERS = ['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video'] as const;

const site1 = () => test.info().project.use.baseURL!;
const site2 = () => site1().replace('localhost', '127.0.0.1');

/** Each site in a language it offers, with its niche's wording in the headline (SITE-03). */
const VISITS = [
  { site: site1, lang: 'nl', name: 'Flirtlokaal', people: 'singles', cta: 'Gratis aanmelden' },
  { site: site1, lang: 'en', name: 'Flirtlokaal', people: 'singles', cta: 'Sign up free' },
  { site: site2, lang: 'de', name: 'Reife Kontakte', people: 'reife Frauen', cta: 'Kostenlos anmelden' },
  { site: site2, lang: 'en', name: 'Reife Kontakte', people: 'mature women', cta: 'Sign up free' },
] as const;

async function speak(context: BrowserContext, lang: string) {
  await context.addCookies([site1(), site2()].map((url) => ({ name: 'lang', value: lang, url })));
}

async function hasNoHorizontalOverflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

for (const name of [...LANDERS, 'tinderswipe'] as const) {
  test(`LND-01 SITE-03 MEM-05 /landers/${name} renders on both sites in two languages`, async ({ page, context }) => {
    for (const visit of VISITS) {
      await speak(context, visit.lang);
      const response = await page.goto(`${visit.site()}/landers/${name}`);
      expect(response?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', visit.lang);
      await expect(page.locator('body')).toHaveAttribute('data-layout', 'lander');
      await expect(page.locator('header').getByRole('link', { name: visit.name })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(visit.people);
      const cta = page.locator('[data-lander-cta] [data-signup-entry]');
      await expect(cta).toBeVisible();
      await expect(cta).toHaveText(visit.cta);
      await expect(cta).toHaveAttribute('href', '/signup');
      await expect(page.locator('[data-lander-cta] [data-fictional-warning]')).toBeVisible();
      if (name !== 'tinderswipe') await expect(page.locator('script')).toHaveCount(0);
    }
  });
}

test('LND-01 SIGN-06 a visitor signs up from a lander', async ({ page, context }) => {
  await speak(context, 'en');
  await page.goto('/landers/socialnetwork');
  await page.locator('[data-lander-cta]').getByRole('link', { name: 'Sign up free' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  // /signup is in the Default layout: the adult-content entry warning comes first.
  await page.locator('[data-entry-warning] button').click();
  await expect(page.locator('astro-island[component-url*="SignupForm"]')).not.toHaveAttribute('ssr');
  const form = page.locator('[data-signup-form]');
  await form.getByLabel('E-mail address').fill(`lander-${Date.now().toString(36)}@example.com`);
  await form.getByLabel('Profile name').fill('Roos');
  await form.getByLabel('Password').fill('zonnige-dinsdag-42');
  await form.getByLabel('Date of birth').fill('1990-05-05');
  await form.getByRole('button', { name: 'Sign up free' }).click();
  await expect(page).toHaveURL(/\/complete-signup/);
  const me = await (await page.request.get('/api/user.php')).json();
  expect(me).toMatchObject({ status: 'not_confirmed', profile: { name: 'Roos' } });
});

test('LND-03 a member landing leads to signup with that member', async ({ page, context }) => {
  await speak(context, 'en');
  await page.goto('/landers/alonetonight');
  const id = await page.locator('.night-item[data-member-id]').first().getAttribute('data-member-id');
  const name = await page.locator('.night-item[data-member-id]').first().locator('strong').textContent();
  await page.goto(`/members/${id}/signup`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name!);
  const cta = page.locator('[data-lander-cta] [data-signup-entry]');
  await expect(cta).toHaveText(`Sign up to chat with ${name}`);
  await cta.click();
  await expect(page).toHaveURL(new RegExp(`/signup\\?member=${id}$`));
});

test.describe('tinderswipe', () => {
  test.beforeEach(async ({ page, context }) => {
    await speak(context, 'en');
    await page.goto('/landers/tinderswipe');
    // The server-rendered first card is there before any script; the deck's code loads on the first
    // pointer, touch or focus anywhere on the page (decision 048).
    await expect(page.locator('[data-swipe-card]')).toBeVisible();
    await page.getByRole('heading', { level: 1 }).hover();
    await expect(page.locator('[data-swipe][data-swipe-ready="true"]')).toBeAttached();
  });

  test('LND-01 swiping by keyboard likes and skips, then invites to sign up', async ({ page }) => {
    const deck = page.locator('[data-swipe-deck]');
    const card = page.locator('[data-swipe-card]');
    const first = await card.getAttribute('data-swipe-card');
    const firstName = await card.locator('h2').textContent();
    await deck.focus();
    await page.keyboard.press('ArrowRight');
    await expect(card).not.toHaveAttribute('data-swipe-card', first!);
    await expect(page.locator('[aria-live="polite"]')).toHaveText(`You liked ${firstName}`);
    await page.keyboard.press('ArrowLeft');
    await expect(page.locator('[aria-live="polite"]')).toHaveText(/^You skipped /);
    // The buttons are labelled with the member's name and work from the keyboard too.
    const like = page.getByRole('button', { name: /^Like / });
    await like.focus();
    await page.keyboard.press('Enter');
    const invite = page.locator('[data-swipe-invite]');
    await expect(invite).toBeVisible();
    await expect(invite).toBeFocused();
    await expect(invite.getByRole('link', { name: 'Sign up free' })).toHaveAttribute('href', '/signup');
    await expect(invite.locator('[data-fictional-warning]')).toBeVisible();
    await invite.getByRole('button', { name: 'Keep swiping' }).click();
    await expect(deck).toBeFocused();
  });

  test('LND-01 swiping by pointer drag; a short drag snaps back', async ({ page }) => {
    const card = page.locator('[data-swipe-card]');
    async function drag(dx: number) {
      const box = (await card.boundingBox())!;
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + dx / 2, y, { steps: 5 });
      await page.mouse.move(x + dx, y, { steps: 5 });
      await page.mouse.up();
    }
    const first = await card.getAttribute('data-swipe-card');
    await drag(30);
    await expect(card).toHaveAttribute('data-swipe-card', first!);
    await expect(card).not.toHaveAttribute('style', /translateX/);
    await drag(220);
    await expect(card).not.toHaveAttribute('data-swipe-card', first!);
    await expect(page.locator('[aria-live="polite"]')).toHaveText(/^You liked /);
    await drag(-220);
    await expect(page.locator('[aria-live="polite"]')).toHaveText(/^You skipped /);
    await drag(220);
    await expect(page.locator('[data-swipe-invite]')).toBeVisible();
    await page.locator('[data-swipe-invite]').getByRole('link', { name: 'Sign up free' }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test('ERR-01 LND-01 an unknown lander name shows the 404 page', async ({ page, context }) => {
  await speak(context, 'en');
  const response = await page.goto('/landers/no-such-lander');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('LND-01 no lander scrolls sideways, on either site', async ({ page, context }) => {
    for (const visit of [VISITS[0], VISITS[2]]) {
      await speak(context, visit.lang);
      for (const name of [...LANDERS, 'tinderswipe']) {
        await page.goto(`${visit.site()}/landers/${name}`);
        expect(await hasNoHorizontalOverflow(page), `${visit.name} ${name}`).toBe(true);
        // The call to action is reachable without sideways scrolling.
        const cta = page.locator('[data-lander-cta] [data-signup-entry]');
        await cta.scrollIntoViewIfNeeded();
        const box = (await cta.boundingBox())!;
        expect(box.x, `${visit.name} ${name}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${visit.name} ${name}`).toBeLessThanOrEqual(360);
        expect(await hasNoHorizontalOverflow(page), `${visit.name} ${name}`).toBe(true);
      }
    }
  });
});

test('LND-01 transitionsvideolanding stands still for visitors who prefer reduced motion', async ({ page, context }) => {
  await speak(context, 'en');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/landers/transitionsvideolanding');
  const slides = page.locator('.tv-slide');
  await expect(slides).toHaveCount(5);
  const styles = await slides.evaluateAll((els) => els.map((el) => ({ opacity: getComputedStyle(el).opacity, animation: getComputedStyle(el).animationName })));
  expect(styles[0]).toEqual({ opacity: '1', animation: 'none' });
  for (const s of styles.slice(1)) expect(s).toEqual({ opacity: '0', animation: 'none' });
  await expect(page.getByLabel('Pause the animation')).toBeHidden();
});

test('LND-01 the animated landers can be paused with a labelled switch', async ({ page, context }) => {
  await speak(context, 'en');
  for (const name of ['transitionsvideolanding', 'video']) {
    await page.goto(`/landers/${name}`);
    const pause = page.getByLabel('Pause the animation');
    await pause.focus();
    await page.keyboard.press('Space');
    await expect(pause).toBeChecked();
    const selector = name === 'video' ? '.video-feed img' : '.tv-slide';
    const states = await page.locator(selector).evaluateAll((els) => els.map((el) => getComputedStyle(el).animationPlayState));
    expect(states.every((s) => s === 'paused')).toBe(true);
  }
});
