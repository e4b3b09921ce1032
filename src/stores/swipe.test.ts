/** The swipe game's store against a fake API (what moved out of the SwipeGame island). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { LIVE_DOM_EVENT, type LiveEvent } from '../client/live';
import { $swipe, chooseCard, initSwipe, MAX_SKIPPED, type SwipeCard } from './swipe';

const card = (id: number): SwipeCard => ({ id, name: `M${id}`, age: 30, place: 'Utrecht', image: `/p/${id}.jpg`, thumb: `/t/${id}.jpg`, width: 480, height: 600, fictional: false });

function fakeApi(answer: (body: { id: number; like: boolean }) => { status: number; body: unknown }) {
  const bodies: { id: number; like: boolean }[] = [];
  installTestApi(async (input) => {
    const body = (await (input as Request).json()) as { id: number; like: boolean };
    bodies.push(body);
    const { status, body: json } = answer(body);
    return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
  });
  return bodies;
}

/** The live events this tab hands to its listeners (the match modal listens on the window). */
function liveEvents(): LiveEvent[] {
  const events: LiveEvent[] = [];
  const target = new EventTarget();
  target.addEventListener(LIVE_DOM_EVENT, (e) => events.push((e as CustomEvent<LiveEvent>).detail));
  Object.assign(globalThis, { dispatchEvent: (e: Event) => target.dispatchEvent(e) });
  return events;
}

beforeEach(() => initSwipe({ cards: [card(1), card(2), card(3)], likesLeft: 5, skipped: [], limitText: null }));
afterEach(() => {
  setApiClient(undefined);
  Reflect.deleteProperty(globalThis, 'dispatchEvent');
});

describe('$swipe store', () => {
  it('GAME-02 a like is sent, the likes left follow and the next card shows; a skip is remembered for the "more" link', async () => {
    const bodies = fakeApi(() => ({ status: 200, body: { likes_left: 4, match: false } }));
    expect(await chooseCard('like')).toBe(true);
    expect(await chooseCard('nope')).toBe(true);
    expect(bodies).toEqual([
      { id: 1, like: true },
      { id: 2, like: false },
    ]);
    expect($swipe.get()).toMatchObject({ index: 2, likesLeft: 4, skipped: [2], busy: false, outcome: { type: 'skipped', name: 'M2' } });
  });

  it('UX-01 a like that makes a match opens the match modal at once (a live match event in this tab)', async () => {
    const events = liveEvents();
    fakeApi(() => ({ status: 200, body: { likes_left: 3, match: true } }));
    await chooseCard('like');
    expect(events).toEqual([{ type: 'match', data: { member: 1 } }]);
    expect($swipe.get()!.outcome).toEqual({ type: 'match', name: 'M1' });
  });

  it("GAME-02 the fifth like of the day is refused with the server's 'come back tomorrow' text; a card gone meanwhile is passed", async () => {
    fakeApi((body) => (body.id === 1 ? { status: 404, body: { error: 'member_not_found' } } : { status: 429, body: { error: 'swipe_limit_reached', message: 'Come back tomorrow' } }));
    await chooseCard('like');
    expect($swipe.get()).toMatchObject({ index: 1, limited: false, outcome: null });
    await chooseCard('like');
    expect($swipe.get()).toMatchObject({ index: 1, limited: true, limitText: 'Come back tomorrow', outcome: { type: 'limit' } });
  });

  it('GAME-02 any other failure says so and keeps the card; nothing is sent with no card left', async () => {
    fakeApi(() => ({ status: 500, body: { error: 'internal_error' } }));
    await chooseCard('like');
    expect($swipe.get()).toMatchObject({ index: 0, outcome: { type: 'error' }, busy: false });
    initSwipe({ cards: [], likesLeft: 5, skipped: [], limitText: null });
    expect(await chooseCard('like')).toBe(false);
  });

  it(`GAME-02 only the newest ${MAX_SKIPPED} skipped ids are carried on`, async () => {
    fakeApi(() => ({ status: 200, body: { likes_left: 5, match: false } }));
    initSwipe({ cards: [card(100)], likesLeft: 5, skipped: Array.from({ length: MAX_SKIPPED }, (_, i) => i + 1), limitText: null });
    await chooseCard('nope');
    expect($swipe.get()!.skipped).toHaveLength(MAX_SKIPPED);
    expect($swipe.get()!.skipped.at(-1)).toBe(100);
    expect($swipe.get()!.skipped[0]).toBe(2);
  });
});
