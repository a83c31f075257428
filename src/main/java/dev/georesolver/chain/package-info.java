/**
 * The ladder walker ({@link dev.georesolver.chain.ChainVerticle}, several stateless instances): for
 * each request the dedupe claim, the ladder trimmed for intent and direction, admission of each rung
 * against the time left minus the reserve for the rungs below ({@link dev.georesolver.chain.LadderView}
 * holds the tiers' announced medians and breaker states), the visit to the tier, and the first hit
 * or an honest refusal with its reason and notice ({@link dev.georesolver.ladder.Notices}); one record
 * per fallback activation ({@link dev.georesolver.ladder.FallbackLog}). It talks to tiers, dedupe and
 * the index only over the event bus: it must not call a provider, hold a store, or map failures to
 * HTTP (ingress does).
 */
package dev.georesolver.chain;
