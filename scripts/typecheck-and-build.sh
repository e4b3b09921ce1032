#!/bin/sh
# npm test's type check and build side by side (they share nothing; on CI's two cores this saves the
# shorter one's time). Fails when either fails, after both have finished, with both outputs shown.
npm run --silent typecheck &
typecheck=$!
npm run --silent build
built=$?
wait "$typecheck"
checked=$?
[ "$checked" -eq 0 ] || echo "typecheck failed" >&2
[ "$built" -eq 0 ] || echo "build failed" >&2
[ "$checked" -eq 0 ] && [ "$built" -eq 0 ]
