/**
 * The stable `error` codes of the API, each with its HTTP status. The OpenAPI document lists the same
 * codes; the browser maps a code to the translated text `errors:<code>`.
 */
import type { Schema } from './api/contract';

export const API_ERRORS = {
  validation_failed: 400,
  client_header_required: 400,
  unsupported_language: 400,
  invalid_credentials: 401,
  authentication_required: 403,
  cross_site_request: 403,
  not_found_api: 404,
  member_not_found: 404,
  self_not_allowed: 400,
  method_not_allowed: 405,
  payload_too_large: 413,
  too_many_attempts: 429,
  account_deletion_pending: 403,
  account_banned: 403,
  internal_error: 500,
  service_unavailable: 503,
  signups_closed: 403,
  already_confirmed: 409,
  activation_mail_too_soon: 429,
  photo_invalid: 415,
  photo_too_large: 413,
  photo_limit_reached: 403,
  wrong_password: 400,
  push_endpoint_in_use: 409,
  invalid_gender: 400,
  invalid_age_range: 400,
  unknown_country: 400,
  unknown_region: 400,
  invalid_cursor: 400,
  invalid_coordinates: 400,
  swipe_limit_reached: 429,
  conversation_not_found: 404,
  conversation_limit: 403,
  insufficient_credits: 402,
  recipient_unconfirmed: 409,
  message_empty: 400,
  message_too_long: 400,
  invalid_message: 400,
  invalid_client_id: 400,
  client_id_reused: 409,
  discount_not_found: 400,
  discount_already_used: 400,
  discount_expired: 400,
  discount_in_use: 409,
  payments_unavailable: 503,
  invalid_signature: 401,
  gif_search_unavailable: 503,
  verification_required: 403,
  invalid_pose: 400,
  verification_pending: 409,
  already_verified: 409,
  verification_not_allowed: 403,
  main_photo_required: 409,
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** The body of every error answer (`Error` of openapi/openapi.yaml). */
export type ApiErrorBody = Schema<'Error'>;
