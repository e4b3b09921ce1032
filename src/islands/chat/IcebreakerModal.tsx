/**
 * The icebreakers of the chat (CHT-07): a sheet (src/islands/chat/ChatSheet.tsx) listing opening lines in
 * the member's language (`icebreakers(lang)` on the server). Choosing one calls `onPick(text)` and
 * closes; Escape, the close button and a click on the backdrop close it (`onClose`).
 */
import { createClientTranslator, type Messages } from '../../i18n/client';
import ChatSheet from './ChatSheet';

export interface IcebreakerModalProps {
  /** `messagesFor(lang, ['chat'])`. */
  messages: Messages;
  /** The opening lines, `icebreakers(lang)`. */
  lines: string[];
  open: boolean;
  onPick: (text: string) => void;
  onClose: () => void;
}

export default function IcebreakerModal({ messages, lines, open, onPick, onClose }: IcebreakerModalProps) {
  const t = createClientTranslator(messages, 'chat');
  return (
    <ChatSheet title={t('icebreakers_title')} closeLabel={t('close')} intro={t('icebreakers_intro')} open={open} onClose={onClose} focus="[data-icebreaker]">
      <ul className="chat-icebreakers list-unstyled mb-0">
        {lines.map((line) => (
          <li key={line}>
            <button type="button" data-icebreaker className="chat-icebreaker" onClick={() => onPick(line)}>
              {line}
            </button>
          </li>
        ))}
      </ul>
    </ChatSheet>
  );
}
