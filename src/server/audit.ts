/**
 * The audit log (OPS-04): every staff action is written with who, what, on what, when, and the state
 * before and after. Call it in the same transaction as the change, so a change is never without its row.
 */
import { desc, eq, lt, type SQL, and } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog, staff } from '../db/schema';
import type { DbTransaction } from './credits/ledger';

export interface AuditEntry {
  staffId: number | null;
  /** What was done: 'staff.login', 'photo.approve', 'member.ban', … */
  action: string;
  targetType: string;
  targetId: string | number;
  before?: unknown;
  after?: unknown;
}

export async function audit(db: Db | DbTransaction, entry: AuditEntry, at?: Date): Promise<void> {
  await db.insert(auditLog).values({
    staffId: entry.staffId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: String(entry.targetId),
    before: entry.before === undefined ? null : (entry.before as object),
    after: entry.after === undefined ? null : (entry.after as object),
    ...(at ? { createdAt: at } : {}),
  });
}

export interface AuditRow {
  id: number;
  at: Date;
  staff: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
}

/** The newest entries first, `before` an id to page back; optionally of one target or one staff member. */
export async function readAudit(db: Db, options: { before?: number; limit?: number; staffId?: number; target?: { type: string; id: string } } = {}): Promise<AuditRow[]> {
  const where: SQL[] = [];
  if (options.before) where.push(lt(auditLog.id, options.before));
  if (options.staffId) where.push(eq(auditLog.staffId, options.staffId));
  if (options.target) where.push(eq(auditLog.targetType, options.target.type), eq(auditLog.targetId, options.target.id));
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.createdAt,
      staff: staff.email,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .leftJoin(staff, eq(staff.id, auditLog.staffId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(Math.min(Math.max(options.limit ?? 50, 1), 200));
  return rows;
}
