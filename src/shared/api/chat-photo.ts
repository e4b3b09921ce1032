/** /api/chat-photo.php (GFT-01): a photo sent in a chat, as multipart/form-data with the file `photo`. */
import { z } from 'zod';
import type { Answer } from './contract';

/** The form's text fields (the file is read on its own). */
export const chatPhotoFields = z.object({
  to: z
    .string()
    .regex(/^[1-9]\d{0,9}$/)
    .transform(Number),
  client_id: z.string().min(1).max(100),
});

export type ChatPhotoAnswer = Answer<'sendChatPhoto', 200 | 201>;
