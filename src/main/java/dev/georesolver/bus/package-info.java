/**
 * The event-bus contract: every address and header with who sends what and what comes back
 * ({@link dev.georesolver.bus.Addresses}), the failure codes ({@link dev.georesolver.bus.FailureCode}),
 * the messages as small immutable records with their JSON forms and local codecs
 * ({@link dev.georesolver.bus.Codecs}), the result and its stored, pre-encoded form
 * ({@link dev.georesolver.bus.ResolveResult}, {@link dev.georesolver.bus.StoredAnswer},
 * {@link dev.georesolver.bus.Redelivery}), and the validation of the public request shared by HTTP
 * and the bus. Everything here is pure and deeply immutable, because the local codecs hand the same
 * instance to another thread: no Vert.x lifecycle, no verticle, no I/O, no mutable state exposed.
 * It depends only on the value types of {@code geo}, {@code crs} and {@code provider} (and the
 * {@code Role} enum), never on the packages that send or receive the messages ({@code ingress},
 * {@code chain}, {@code tier}, {@code cache}). One exception to "no Vert.x": {@link dev.georesolver.bus.Node},
 * the node this process is on a clustered bus, is kept in the Vert.x instance's local shared map
 * and turns {@link dev.georesolver.bus.Addresses#reach} into delivery options.
 */
package dev.georesolver.bus;
