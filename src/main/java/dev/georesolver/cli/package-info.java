/**
 * The command line: {@code java -jar target/georesolver.jar [command] …}, with picocli. One class
 * per command — {@link dev.georesolver.cli.ServeCommand} (the default), {@link
 * dev.georesolver.cli.GeocodeCommand}, {@link dev.georesolver.cli.ReverseCommand}, {@link
 * dev.georesolver.cli.BatchCommand}, {@link dev.georesolver.cli.ValidateCommand} — under
 * {@link dev.georesolver.cli.Cli}, with exit statuses in {@link dev.georesolver.cli.Exit}.
 *
 * <p>{@code geocode}, {@code reverse} and {@code batch} ask a {@link dev.georesolver.cli.Resolver}:
 * an in-process resolver deployed on the manifest and reached over the event bus, or a running
 * one at {@code --server URL} over HTTP. The command line is outside the verticles: its own threads
 * may block (waiting for an answer, reading and writing files); the event loops only hand answers
 * over.
 *
 * <p>{@code serve --cluster} joins a clustered event bus through {@link dev.georesolver.cli.ClusterBus},
 * the one class that names Hazelcast (so a process started without {@code --cluster} loads none of
 * it), and installs the node it joined as ({@code bus.Node}) before the resolver starts;
 * {@code --roles} chooses the parts the process runs ({@code Role.cannotServe} refuses, exit 2, a set
 * that cannot serve).
 */
package dev.georesolver.cli;
