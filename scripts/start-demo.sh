#!/usr/bin/env sh
# `npm start`: build and run the demo on this machine (README, "Quick start").
# The demo's one choice about money is explicit here (SEC-14, docs/decisions/060): when no payment provider
# is configured and NODE_ENV is not set, purchases go through the simulated checkout, where you pick "paid"
# without paying (PAYMENTS_PROVIDER=simulated, and DEMO_MODE=true because the server runs as production).
# A deployment sets NODE_ENV=production or configures a provider, and then nothing is chosen for it: without a
# provider every purchase is refused. (`npm run serve` runs the built app with no defaults at all.)
. scripts/node24.sh || exit 1
if [ -z "${NODE_ENV:-}" ] && [ -z "${PAYMENTS_PROVIDER:-}" ] && [ -z "${PAYNL_TOKEN_CODE:-}${PAYNL_API_TOKEN:-}${PAYNL_SERVICE_ID:-}" ]; then
  PAYMENTS_PROVIDER=simulated
  DEMO_MODE=${DEMO_MODE:-true}
  export PAYMENTS_PROVIDER DEMO_MODE
  echo "npm start: demo payments (PAYMENTS_PROVIDER=simulated DEMO_MODE=true): the checkout lets you pick 'paid' without paying" >&2
fi
npm run build && exec node dist/server/main.mjs
