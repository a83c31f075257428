/**
 * Shadow sampling, wired: the {@link dev.georesolver.sampling.ShadowVerticle} that asks each sampled
 * answer's shadow rung after the reply has left and counts the comparison, the rule choosing that
 * rung ({@link dev.georesolver.sampling.ShadowTarget}), and {@code GET /v1/shadow}
 * ({@link dev.georesolver.sampling.ShadowRoutes}). The figures themselves are the pure core's
 * ({@code dev.georesolver.shadow}); the store keeps them ({@code state.ShadowStore}).
 */
package dev.georesolver.sampling;
