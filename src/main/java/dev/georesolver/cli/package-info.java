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
 */
package dev.georesolver.cli;
