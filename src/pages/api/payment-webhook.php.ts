/**
 * POST /api/payment-webhook.php?provider=<name>: a payment provider says a payment changed (CRD-09,
 * decision 034). The request is verified with the provider's signature; it only names the payment,
 * whose status is then fetched from the provider and applied once (pending → final, never back).
 * Answers 200 for anything applied, already applied or not ours (so the provider stops retrying),
 * 401 for a bad signature, 503 when the provider could not be asked (so it retries).
 */
import { servicesFor } from '../../server/web/services';
import { ApiError, endpoint, json, methodNotAllowed, readBodyText } from '../../server/web/api';
import { applyWebhook } from '../../server/payments/service';
import { ProviderError } from '../../server/payments/provider';
import type { Answer } from '../../shared/api/contract';

export const POST = endpoint(async ({ locals, request, url }) => {
  const provider = url.searchParams.get('provider') ?? '';
  const body = await readBodyText(request);
  const deps = await servicesFor(locals);
  try {
    const result = await applyWebhook(deps, provider, { headers: request.headers, body, url });
    if (result.type === 'refused') {
      if (result.reason === 'unknown_provider') throw new ApiError('not_found_api');
      if (result.reason === 'bad_signature') throw new ApiError('invalid_signature');
      throw new ApiError('validation_failed', { body: result.reason });
    }
    return json({ ok: true, result: result.type, ...('payment' in result ? { status: result.payment.status } : {}) } satisfies Answer<'paymentWebhook', 200>);
  } catch (err) {
    if (err instanceof ProviderError) {
      locals.log.warn({ err }, 'payment webhook: provider status not available');
      throw new ApiError('service_unavailable');
    }
    throw err;
  }
});

export const ALL = methodNotAllowed;
