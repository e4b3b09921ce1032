/** /api/photos.php (PHO-01): a profile photo, as multipart/form-data with the file `photo`. */
import { z } from 'zod';

/**
 * The form's text fields (the file is read on its own): `client_id`, optional, makes a retry of the
 * same upload answer the photo stored the first time (SCALE-02).
 */
export const uploadPhotoFields = z.object({
  client_id: z.string().min(1).max(100).optional(),
});
