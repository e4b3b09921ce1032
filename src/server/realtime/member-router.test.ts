/**
 * The member router (docs/decisions/044): a live stream's listener hears exactly the bus events that
 * concern its member, found by member id, and nothing once removed.
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus } from './bus';
import { listenForMember, type MemberEvent } from './member-router';

describe('member router', () => {
  it('CHT-08 an event reaches the listeners of the members it concerns, each once, and no one else', async () => {
    const errors: unknown[] = [];
    const bus = new InProcessBus((err) => errors.push(err));
    const heard = new Map<string, string[]>();
    const listen = (name: string, memberId: number) =>
      listenForMember(bus, memberId, (e: MemberEvent) => {
        heard.set(name, [...(heard.get(name) ?? []), e.topic]);
      });
    listen('1a', 1);
    listen('1b', 1); // a second tab of member 1
    listen('2', 2);
    const off3 = listen('3', 3);
    listen('4', 4);

    await bus.publish('chat.message', { messageId: 10, conversationId: 5, senderId: 1, recipientId: 2, siteId: 1 });
    await bus.publish('chat.typing', { conversationId: 5, typistId: 1, otherId: 2 });
    await bus.publish('chat.read', { conversationId: 5, readerId: 2, otherId: 1, messageId: 10 });
    await bus.publish('member.liked', { likeId: 1, likerId: 4, likedId: 3, siteId: 1 });
    await bus.publish('member.matched', { memberIds: [3, 4], by: 3, siteId: 1 });
    await bus.publish('member.blocked', { blockerId: 4, blockedId: 2 });
    await bus.publish('chat.removed', { userId: 4, conversationIds: [5] });
    // Topics a stream does not show are not routed.
    await bus.publish('member.unliked', { likerId: 4, likedId: 3, siteId: 1 });
    off3();
    await bus.publish('member.liked', { likeId: 2, likerId: 4, likedId: 3, siteId: 1 });

    expect(heard.get('1a')).toEqual(['chat.message', 'chat.read']);
    expect(heard.get('1b')).toEqual(['chat.message', 'chat.read']);
    expect(heard.get('2')).toEqual(['chat.message', 'chat.typing', 'chat.read', 'member.blocked']);
    expect(heard.get('3')).toEqual(['member.liked', 'member.matched']);
    expect(heard.get('4')).toEqual(['member.matched', 'member.blocked', 'chat.removed']);
    expect(errors).toEqual([]);
  });

  it('CHT-08 a listener that throws does not keep the event from the others; the bus logs it', async () => {
    const errors: unknown[] = [];
    const bus = new InProcessBus((err) => errors.push(err));
    const got: number[] = [];
    listenForMember(bus, 7, () => {
      throw new Error('broken stream');
    });
    listenForMember(bus, 7, () => void got.push(7));
    listenForMember(bus, 8, () => void got.push(8));
    await bus.publish('chat.message', { messageId: 1, conversationId: 1, senderId: 7, recipientId: 8, siteId: 1 });
    expect(got.sort()).toEqual([7, 8]);
    expect(errors).toHaveLength(1);
  });
});
