/**
 * The HTTP face ({@link dev.georesolver.ingress.IngressVerticle}): the router and server, the
 * limits clients are held to ({@link dev.georesolver.web.ServerLimits}, connection guard and
 * deadlines), strict decoding of queries and bodies, validation into a request, and the one place
 * failures become HTTP answers ({@link dev.georesolver.web.Problems}). It sends requests on the
 * event bus and writes what comes back; it must not know tiers, walk the ladder or hold any store.
 */
package dev.georesolver.ingress;
