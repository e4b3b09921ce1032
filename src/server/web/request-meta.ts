/** The client's address and agent for session records (X-Forwarded-For only behind a trusted proxy). */
export function clientIp(headers: Headers, clientAddress: string | undefined, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return clientAddress?.slice(0, 64) ?? null;
}
