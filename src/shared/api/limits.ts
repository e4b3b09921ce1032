/**
 * Limits of the API's inputs that browser code needs as values too. No zod here: the request schemas
 * (the other modules of this folder) stay out of the browser's bundles, which import this one.
 */

/** Longest gif search query the API accepts (characters). */
export const GIF_QUERY_MAX = 50;
/** Highest gif search offset the API accepts (GIPHY's own limit is 4999). */
export const GIF_OFFSET_MAX = 4999;
