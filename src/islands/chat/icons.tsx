/**
 * The chat's SVG icons (issue 25): no emoji glyphs for controls (many phones and this machine draw some
 * as empty boxes). Decorative: each control that shows one carries its own label.
 */
const paths = {
  gift: 'M20 7h-2.2A3 3 0 0 0 12 3.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1h1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8h1a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1zM15 5a1 1 0 1 1 0 2h-2a2 2 0 0 1 2-2zM9 5a2 2 0 0 1 2 2H9a1 1 0 1 1 0-2zM5 9h6v1H5zm2 3h4v7H7zm6 7v-7h4v7zm6-9h-6V9h6z',
  gif: 'M4 5h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2zm0 2v10h16V7zm2.5 2H10v1.5H7v3h1.5V12H7.8v-1.2H10V15H6.5a1 1 0 0 1-1-1v-4a1 1 0 0 1 1-1zm5 0H13v6h-1.5zm2.5 0h4v1.5h-2.5v1h2V13h-2v2H14z',
  spark: 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm8 2.5-1.1 2.9L8 10.5l2.9 1.1L12 14.5l1.1-2.9 2.9-1.1-2.9-1.1z',
  camera: 'M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  send: 'M3 20.5 21 12 3 3.5V10l12 2-12 2z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  seen: 'M17.7 7.1 16.3 5.7 9.9 12.1l1.4 1.4zm4.2-1.4L11.3 16.3 7.1 12.1l-1.4 1.4 5.6 5.6L23.3 7.1zM.4 13.5 6 19.1l1.4-1.4-5.6-5.6z',
  clock: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16zm1 3v5.4l3.9 2.3-1 1.7-4.9-2.9V7z',
  down: 'M11 4h2v12.2l5.3-5.3 1.4 1.4L12 20l-7.7-7.7 1.4-1.4 5.3 5.3z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z',
  alert: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm-1 5v7h2V7zm0 9v2h2v-2z',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg className="chat-icon" width={size} height={size} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  );
}
