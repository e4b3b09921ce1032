/**
 * Photo verification (VER-01): the poses a member may be asked for (drawn as SVG by the browser, texts in
 * `verification:poses.*`) and the reasons a moderator may give for a rejection (`verification:reasons.*`).
 * The browser and the server both need them.
 */

export const VERIFICATION_POSES = ['hand_beside_face', 'thumb_up', 'peace_sign', 'hand_on_head', 'point_at_ear', 'three_fingers'] as const;
export type VerificationPose = (typeof VERIFICATION_POSES)[number];

export function isVerificationPose(value: unknown): value is VerificationPose {
  return typeof value === 'string' && (VERIFICATION_POSES as readonly string[]).includes(value);
}

export const VERIFICATION_REJECTION_REASONS = ['pose_not_matching', 'face_not_visible', 'not_same_person', 'poor_quality'] as const;
export type VerificationRejectionReason = (typeof VERIFICATION_REJECTION_REASONS)[number];

export function isVerificationRejectionReason(value: unknown): value is VerificationRejectionReason {
  return typeof value === 'string' && (VERIFICATION_REJECTION_REASONS as readonly string[]).includes(value);
}

/** How long a selfie is kept after the moderator's decision. */
export const SELFIE_RETENTION_DAYS = 30;

/** What the member sees of their verification. `lapsed`: approved, but the main photo changed since. */
export type VerificationState =
  { state: 'none' } | { state: 'pending'; pose: VerificationPose } | { state: 'verified' } | { state: 'lapsed' } | { state: 'rejected'; reason: VerificationRejectionReason | null };
