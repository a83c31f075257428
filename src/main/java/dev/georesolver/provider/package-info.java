/**
 * The provider dialects and what their answers mean: one adapter per provider that builds its
 * requests and reads its bodies into candidates or a {@link dev.georesolver.geo.FailureClass},
 * the shared HTTP status rules, and {@link dev.georesolver.provider.AdapterRegistry}, the one
 * statement of each adapter's name and capabilities (transport, directions, default credential).
 * Pure: no I/O, no Vert.x lifecycle, no clock, no credentials (the tier adds them), and every parse
 * is total (a body no reader anticipated is degradable, never an exception). It must not depend on
 * the verticles, the stores or the chain.
 */
package dev.georesolver.provider;
