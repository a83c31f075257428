/**
 * The process: {@link dev.georesolver.cli.Main} reads the command line and the manifest and starts
 * Vert.x; {@link dev.georesolver.GeoResolver} is the one verticle that deploys every part as its
 * child, in dependency order (dedupe, the cached index when a rung reads it, one verticle per tier,
 * the chains, ingress), undeploys what started when a part fails, and takes everything down when
 * it is undeployed. It wires parts together and holds no request logic; it must not name adapters
 * (the tier builds them from {@link dev.georesolver.provider.AdapterRegistry}) nor block its event
 * loop (credentials are read in its constructor, CRS definitions looked up on a worker).
 */
package dev.georesolver;
