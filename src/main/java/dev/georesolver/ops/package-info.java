/**
 * The operator's live view: {@link dev.georesolver.ops.OpsVerticle} (one per process) aggregates
 * what the event bus already carries — breaker transitions, tier statistics, the reconciler's news
 * — a per-second snapshot of the traffic read from the meters the chain keeps anyway, and every
 * few seconds the shadow figures asked of the node's shadow verticle, and publishes it all for the
 * dashboard's event stream. The arithmetic is pure and tested without Vert.x
 * ({@link dev.georesolver.ops.TrafficRollup}, {@link dev.georesolver.ops.LadderBoard},
 * {@link dev.georesolver.ops.ReconcileBoard}, {@link dev.georesolver.ops.ShadowBoard}). It must
 * not act on tiers (drills are the tiers' own, through their control addresses), add work to the
 * request path, or serve HTTP (the ingress does).
 */
package dev.georesolver.ops;
