#!/bin/sh
# npm test's lint, type check and build side by side: they share nothing, and each is one thread, so on
# CI's two cores the three take about half their sum (lint ~34 s, type check ~21 s, build ~10 s here,
# 2026-11-27). Fails when any fails, after all have finished; each one's output is shown as it comes.
npm run --silent lint &
lint=$!
npm run --silent typecheck &
typecheck=$!
npm run --silent build
built=$?
wait "$lint"
linted=$?
wait "$typecheck"
checked=$?
[ "$linted" -eq 0 ] || echo "lint failed" >&2
[ "$checked" -eq 0 ] || echo "typecheck failed" >&2
[ "$built" -eq 0 ] || echo "build failed" >&2
[ "$linted" -eq 0 ] && [ "$checked" -eq 0 ] && [ "$built" -eq 0 ]
