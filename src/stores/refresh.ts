/**
 * The pace of the member refresh (CLI-08): every 60 s, or every 300 s while this browser holds a push
 * subscription. The push store sets it; the refresh schedule started at boot (src/boot/boot.ts) reads it.
 */
let pushSubscribed = false;

/** Tells the refresh schedule that push got (un)subscribed: 300 s instead of 60 s between runs. */
export function setPushSubscribed(value: boolean): void {
  pushSubscribed = value;
}

/** Whether this browser holds a push subscription (the member refresh runs every 300 s then, CLI-08). */
export function isPushSubscribed(): boolean {
  return pushSubscribed;
}
