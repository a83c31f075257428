/**
 * A typed client for other verticles: ask a GeoResolver on the event bus (in this JVM, or on a
 * clustered bus) for a forward or reverse resolution, and get its result as a record.
 *
 * <p>{@link dev.georesolver.client.GeoClient} sends a {@link dev.georesolver.client.GeocodeRequest}
 * to {@code geocode.resolve} or {@code geocode.reverse} with the public request JSON and the
 * headers of the bus contract ({@code x-deadline-ms} from the budget, {@code x-tenant},
 * {@code traceparent}, {@code tracestate}), and reads the reply — the result JSON HTTP gives — into a
 * {@link dev.georesolver.client.GeocodeResult}. A failure is one exception type,
 * {@link dev.georesolver.client.GeoClientException}, whose code says what went wrong.
 *
 * <p>This package depends on {@code java.*} and Vert.x core only, never on the rest of georesolver
 * (a test holds it to that), so its classes alone ({@code target/georesolver-client.jar}) are all a
 * caller needs beside {@code vertx-core}. The contract it speaks is in
 * {@code dev.georesolver.bus.Addresses} and {@code docs/event-bus.md}; the embedding guide is
 * {@code docs/embedding.md}.
 */
package dev.georesolver.client;
