/**
 * Batch input and output, pure and streaming: no Vert.x, no resolver, nothing held whole.
 *
 * <p>{@link dev.georesolver.batch.BatchReaders#open} reads a CSV file with a header row (an
 * {@code address} column; or component columns {@code house_number, street, unit, city|locality,
 * region, postcode, country}; or {@code lat, lon} for reverse lookups; {@code ,} {@code ;} or tab,
 * told from the header line; UTF-8 with or without a byte-order mark; RFC 4180 quoting with
 * embedded newlines), JSON Lines, or a JSON array, one {@link dev.georesolver.batch.BatchRow} at a
 * time. A row that cannot be resolved (no address, an address over the limit, a point out of range
 * or not written as a plain decimal number, a ragged row) comes out {@linkplain
 * dev.georesolver.batch.BatchRow#valid() invalid} with its problem, and reading goes on; a file that
 * cannot be read as a batch at all throws {@link dev.georesolver.batch.BatchInputException}.
 *
 * <p>{@link dev.georesolver.batch.ResultWriters#open} writes the rows back in input order with the
 * input columns kept and the {@linkplain dev.georesolver.batch.ResultColumns result columns} added,
 * as CSV, NDJSON or a GeoJSON FeatureCollection, streamed; a writer can continue a file that holds
 * the first rows already (a resumed run ends with the same bytes as an uninterrupted one).
 */
package dev.georesolver.batch;
