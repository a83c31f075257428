/**
 * Who is calling: the tenants of the manifest as the resolver enforces them. {@link
 * dev.georesolver.tenant.Tenants} authenticates a presented key (one sha256, compared in constant
 * time with every configured digest) and applies each tenant's {@link
 * dev.georesolver.tenant.TokenBucket}; a {@link dev.georesolver.tenant.Tenant} says which intents it
 * may ask for, whether it is an admin, and the region its addresses must stay in. Pure: time comes
 * from an injected {@code deadline.Ticker}; no Vert.x, no logging, never a key kept or printed.
 */
package dev.georesolver.tenant;
